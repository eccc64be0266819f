package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/project/projecttest"
)

// TestReadmeProjectFlow runs the README's first section on ticoder's own
// example project (examples/shop), with a fake model: in the project's
// directory, with its .venv found by default, --write puts the chosen
// function into src/shop/pricing.py and the approved tests into
// tests/test_pricing.py, which pass in the sandbox.
func TestReadmeProjectFlow(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const command = "ticoder run --spec src/shop/pricing.py::apply_discount"
	if !strings.Contains(string(readme), command) {
		t.Fatalf("the README no longer shows %q", command)
	}
	p := projecttest.Copy(t, filepath.Join("examples", "shop"))
	srv := llmtest.New(t, llmtest.Config{Respond: discountModel(nil)})
	wd, _ := os.Getwd()
	if err := os.Chdir(p.Root); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	o := runDefaults(t)
	o.spec, o.write, o.out = "src/shop/pricing.py::apply_discount", true, ""
	o.flags.model = "vllm:m@" + srv.URL
	var out, errw bytes.Buffer
	if err := runRun(context.Background(), runGlobals(t), o, strings.NewReader("y\n\n"), &out, &errw); err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out.String(), errw.String())
	}
	all := errw.String() + out.String()
	for _, want := range []string{p.Python, "Wrote src/shop/pricing.py::apply_discount in place", "tests/test_pricing.py", "all pass"} {
		if !strings.Contains(all, want) {
			t.Errorf("output lacks %q:\n%s", want, all)
		}
	}
	tests, _ := os.ReadFile(filepath.Join(p.Root, "tests", "test_pricing.py"))
	if !strings.HasPrefix(string(tests), "from shop.pricing import with_vat\n") || !strings.Contains(string(tests), "def test_apply_discount_1") {
		t.Errorf("tests/test_pricing.py:\n%s", tests)
	}
}
