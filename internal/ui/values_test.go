package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/rank"
)

// TestPlainRefusesCodeValues: in the terminal too, an output value that is
// code is refused (the same rule as the web server's, in
// interact.CheckValue) and no answer is recorded.
func TestPlainRefusesCodeValues(t *testing.T) {
	pool := testPool(t)
	c := start(t, pool, "median", rank.Output)
	var out strings.Builder
	in := "o open('/etc/hostname').read()\no __import__('os').getcwd()\n"
	if _, err := RunPlain(context.Background(), c, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "only literal values are accepted"); n != 2 {
		t.Errorf("%d refusals, want 2:\n%s", n, out.String())
	}
	if h := c.State("").History; len(h) != 0 {
		t.Errorf("answers recorded: %+v", h)
	}
}
