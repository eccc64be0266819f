package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/eval"
)

// TestEvalPlusHiddenTests: eval --dataset humanevalplus judges candidates by
// HumanEval+'s base and plus inputs, so a candidate that is right on the
// base inputs only is not correct.
func TestEvalPlusHiddenTests(t *testing.T) {
	dir := t.TempDir()
	row := map[string]any{"task_id": "55", "no_of_codes": 3,
		"code_1": "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n",
		"code_2": "def fib(n):\n    if n > 12:\n        return 0\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n",
		"code_3": "def fib(n):\n    return n\n"}
	replay := cqeReplay(t, dir, []map[string]any{row})
	out := filepath.Join(dir, "run")
	o := evalTestOptions(t, out)
	o.dataset, o.model, o.codes, o.tests, o.style = "humanevalplus", "replay:"+replay, 3, 0, "chat"
	o.problems = []string{"HumanEval/55"}
	if err := runEval(context.Background(), genGlobals(t), o); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var r eval.Result
	if err := json.Unmarshal([]byte(strings.TrimSpace(string(data))), &r); err != nil {
		t.Fatal(err)
	}
	if r.Samples != 3 || r.CorrectSamples != 1 {
		t.Errorf("%d samples, %d correct; want 3, 1 (the second is right on the base inputs only)", r.Samples, r.CorrectSamples)
	}
}
