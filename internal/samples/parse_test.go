package samples

import (
	"encoding/json"
	"strings"
	"testing"
)

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseLine(t *testing.T) {
	tests := []struct {
		name, line string
		want       Format
		wantErr    string
	}{
		{"human-eval", `{"task_id": "A/1", "completion": "x"}`, HumanEval, ""},
		{"evalplus wins over completion", `{"task_id": "A/1", "solution": "x", "completion": "y"}`, EvalPlus, ""},
		{"codet", `{"prompt": "p", "samples": ["a", "b"]}`, CodeT, ""},
		{"codet without prompt", `{"samples": ["a"]}`, 0, `CodeT line without "prompt"`},
		{"codet samples not strings", `{"prompt": "p", "samples": [1]}`, 0, `field "samples": want a list of strings`},
		{"missing task id", `{"completion": "x"}`, 0, `missing field "task_id"`},
		{"bad task id", `{"task_id": 1.5, "completion": "x"}`, 0, `"task_id": want a string or an integer`},
		{"empty task id", `{"task_id": "", "completion": "x"}`, 0, `"task_id" is empty`},
		{"null", `null`, 0, "want a JSON object, got null"},
		{"array", `[1, 2]`, 0, "want a JSON object, got array"},
		{"truncated", `{"task_id": "A/1", "comp`, 0, "the line is cut off"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := parseLine([]byte(tc.line))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || rec.format != tc.want {
				t.Fatalf("format %v, err %v; want %v", rec.format, err, tc.want)
			}
		})
	}
}

func TestGuessTaskID(t *testing.T) {
	tests := map[string]string{
		`{"task_id": "HumanEval/7", "completion": "abc`: "HumanEval/7",
		`{"task_id":12,"comp`:                           "12",
		`{"completion": "x", "task_id": "A"`:            "",
		`{"task_id": "esc\"aped", `:                     `esc"aped`,
	}
	for line, want := range tests {
		if got := guessTaskID([]byte(line)); got != want {
			t.Errorf("guessTaskID(%q) = %q, want %q", line, got, want)
		}
	}
}

func FuzzParseLine(f *testing.F) {
	f.Add([]byte(`{"task_id": "HumanEval/0", "completion": "    return 1\n"}`))
	f.Add([]byte(`{"task_id": 2, "solution": "def f(): pass"}`))
	f.Add([]byte(`{"prompt": "def f():\n", "samples": ["    pass\n", ""]}`))
	f.Add([]byte(`{"task_id": "HumanEval/0", "completion": "    ret`))
	f.Add([]byte(`{"samples": null, "completion": null}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		rec, err := parseLine(line)
		guessTaskID(line)
		if err != nil {
			return
		}
		switch rec.format {
		case HumanEval, EvalPlus:
			if rec.taskID == "" {
				t.Fatalf("%v line without a task id: %q", rec.format, line)
			}
		case CodeT:
		default:
			t.Fatalf("no format for %q", line)
		}
	})
}
