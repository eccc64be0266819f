package eval

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/inputs"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestConfirmedTimeoutsRedoneUntilTheyLoop runs the short first pass and its
// confirmation on candidates that are slow on some calls and loop on others:
// a candidate whose confirmed call finishes has its other short timeouts
// redone at the full limit only until inputs.MaxTimeouts of them time out
// again; the later ones stand as the first pass's timeouts.
func TestConfirmedTimeoutsRedoneUntilTheyLoop(t *testing.T) {
	pool := testutil.Pool(t)
	// f(x): x < 0 loops; x == 0 or x >= 100 runs for 1.5 s of CPU, past
	// the short limit even on a loaded machine (which may stretch a limit
	// to 4 × itself + 1 s, Session.read_test), within the full one; other
	// calls return at once.
	const prog = "import time\n" +
		"def f(x):\n" +
		"    while x < 0:\n" +
		"        pass\n" +
		"    if x == 0 or x >= 100:\n" +
		"        t = time.process_time()\n" +
		"        while time.process_time() - t < 1.5:\n" +
		"            pass\n" +
		"    return x\n"
	const looper = "def f(x):\n    while True:\n        pass\n"
	args := []int{0, 1}
	for i := 0; i < inputs.MaxTimeouts; i++ {
		args = append(args, -1-i)
	}
	args = append(args, 100, 2)
	var tests []execute.Test
	full := make([]time.Duration, len(args))
	for j, a := range args {
		call := fmt.Sprintf("f(%d)", a)
		tests = append(tests, execute.Test{Code: fmt.Sprintf("assert %s == %d", call, a), Input: call, Expected: fmt.Sprint(a)})
		full[j] = 100 * time.Millisecond
		if a == 0 || a >= 100 {
			full[j] = 4 * time.Second
		}
	}
	lim := Limits{Short: 20 * time.Millisecond, Confirm: 1}
	rows, err := runMatrix(context.Background(), pool, []string{prog, looper}, tests, full, lim, -1, len(tests))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]execute.Outcome
	for _, row := range rows {
		var r []execute.Outcome
		for _, c := range row {
			r = append(r, c.Outcome)
		}
		got = append(got, r)
	}
	want := [][]execute.Outcome{
		// f(0) is confirmed and passes, the loops time out again, and
		// f(100), after MaxTimeouts of them, is not redone.
		append(append([]execute.Outcome{execute.Pass, execute.Pass}, timeouts(inputs.MaxTimeouts)...), execute.Timeout, execute.Pass),
		// A candidate whose confirmation times out keeps its short timeouts.
		timeouts(len(tests)),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if r := rows[0][len(tests)-2]; r.Exception == execute.NotRun {
		t.Errorf("f(100) stands as the first pass's timeout, got %+v", r)
	}
}

// timeouts returns n Timeout outcomes.
func timeouts(n int) []execute.Outcome {
	out := make([]execute.Outcome, n)
	for i := range out {
		out[i] = execute.Timeout
	}
	return out
}
