package qestore

import (
	"errors"
	"strings"
	"testing"
)

// TestReadCQENamesOtherFormats: a samples file given where a CQE file
// belongs is named for what it is, not reported as a duplicate problem.
func TestReadCQENamesOtherFormats(t *testing.T) {
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"human-eval samples", `{"task_id": "HumanEval/0", "completion": "    return 1\n"}` + "\n" + `{"task_id": "HumanEval/0", "completion": "    return 2\n"}`,
			"line 1: not a CQE file: the row is a human-eval samples row {task_id, completion}"},
		{"CodeT samples", `{"prompt": "def f():\n", "samples": ["    pass\n"]}`, "the row is a CodeT samples row {prompt, samples}"},
		{"evalplus samples", `{"task_id": "HumanEval/0", "solution": "def f(): pass\n"}`, "the row is an evalplus samples row {task_id, solution}"},
		{"something else", `{"task_id": "HumanEval/0", "prompt": "def f():\n"}`, `the row has no "results" field`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCQE(strings.NewReader(c.input), "samples", CQEOptions{})
			if !errors.Is(err, ErrNotCQE) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ReadCQE error = %v, want ErrNotCQE saying %q", err, c.want)
			}
		})
	}
	ok := `{"task_id": "0", "prompt": "def f():\n", "solution": "def f(): return 1\n", "no_of_codes": 1, "code_1": "def f(): return 1\n", "results": [1]}`
	if pool, err := ReadCQE(strings.NewReader(ok), "heval", CQEOptions{}); err != nil || len(pool.Tasks) != 1 {
		t.Errorf("a CQE row: %v", err)
	}
}
