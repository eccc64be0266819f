package estimate

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/qe"
)

func TestAgreeScore(t *testing.T) {
	val := func(v string, ok bool) execute.Result {
		o := execute.Fail
		if ok {
			o = execute.Pass
		}
		return execute.Result{Outcome: o, Value: v, HasValue: true}
	}
	exc := execute.Result{Outcome: execute.Error, Exception: "ValueError"}
	timeout := execute.Result{Outcome: execute.Timeout}
	// Two examples, then one harvested input.
	m := &execute.Matrix{Results: [][]execute.Result{
		{val("1", true), val("2", true), val("9", false)},   // a: passes both
		{val("1", true), val("2", true), val("9", false)},   // b: same as a
		{val("1", true), val("3", false), exc},              // c: one pass
		{timeout, timeout, timeout},                         // d: loops
		{val("0", false), val("0", false), val("9", false)}, // e: fails both, agrees on input 3
	}}
	got := AgreeScore(m, 2, 0.5)
	// agree(a) = (b: 3/3 + c: 1/3 + d: 0 + e: 1/3) / 4 = 5/12.
	want := []float64{1 + 0.5*5.0/12, 1 + 0.5*5.0/12, 0.5 + 0.5*(2.0/3)/4, 0, 0 + 0.5*(2.0/3)/4}
	if d := cmp.Diff(want, got, cmpFloat); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	// Without examples the pass share is 0.5 for everyone.
	if got := AgreeScore(&execute.Matrix{Results: make([][]execute.Result, 3)}, 0, 0.5); cmp.Diff([]float64{0.5, 0.5, 0.5}, got) != "" {
		t.Errorf("no tests: %v", got)
	}
}

var cmpFloat = cmp.Comparer(func(a, b float64) bool { return closeTo(a, b) })

func TestPromptContext(t *testing.T) {
	prompt := "import math\n\ndef helper(x):\n    return x\n\n\ndef f(x):\n    \"\"\"doc\"\"\"\n"
	if got := promptContext(prompt, "f"); got != "import math\n\ndef helper(x):\n    return x" {
		t.Errorf("context = %q", got)
	}
	if got := joinProgram("import math", "import math\ndef f(x): return 1"); got != "import math\ndef f(x): return 1" {
		t.Errorf("context was added twice: %q", got)
	}
}

// TestAgreeInSandbox runs real candidates in the sandbox.
func TestAgreeInSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("starts sandboxed workers")
	}
	ctx := context.Background()
	pool, err := execute.NewPool(ctx, execute.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	p := qe.Problem{Dataset: "demo", TaskID: "demo/1", Prompt: "from typing import List\n\n\ndef add_one(xs: List[int]) -> List[int]:\n" +
		"    \"\"\"Add one to every element.\n    >>> add_one([1, 2])\n    [2, 3]\n    >>> add_one([])\n    []\n    add_one([0]) ==> [1].\n    \"\"\"\n"}
	candidates := []string{
		"def add_one(xs: List[int]) -> List[int]:\n    return [x + 1 for x in xs]",
		"def add_one(xs):\n    return list(map(lambda v: v + 1, xs))",
		"def add_one(xs):\n    return [x + 1 for x in xs if x]", // drops zeros
		"def add_one(xs):\n    return xs[0] + 1",                // wrong shape
		"def add_one(xs):\n    while True:\n        pass",
	}
	a := &Agree{Runner: pool, Timeout: 500 * time.Millisecond, MaxInputs: 4}
	in, err := a.Prepare(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	wantEx := []Example{{"add_one([1, 2])", "[2, 3]"}, {"add_one([])", "[]"}, {"add_one([0])", "[1]"}}
	if d := cmp.Diff(wantEx, in.Examples); d != "" {
		t.Errorf("examples (-want +got)\n%s", d)
	}
	if len(in.Inputs) != 4 {
		t.Errorf("%d harvested inputs, want 4: %q", len(in.Inputs), in.Inputs)
	}
	scores, err := a.Score(ctx, p, candidates)
	if err != nil {
		t.Fatal(err)
	}
	if !(scores[0] == scores[1] && scores[1] > scores[2] && scores[2] > scores[3] && scores[3] >= scores[4]) {
		t.Errorf("scores %v: want correct (equal) > drops zeros > wrong shape >= loops", scores)
	}
	if scores[4] != 0 {
		t.Errorf("a looping candidate scored %v, want 0", scores[4])
	}
}
