package langgen

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/lang/java"
	"github.com/ticoder/ticoder/internal/llm"
)

// TestGenerateJava reads replayed Java completions and assertions: equal
// programs (up to white space) are one candidate with their count, every
// raw sample is kept as a program, and the assertions become value tests
// of the prompt's class, each once with its count.
func TestGenerateJava(t *testing.T) {
	prompt := "class Add {\n    /** a + b */\n    public static int add(int a, int b) {\n"
	p := dataset.Problem{ID: "T/1", Prompt: prompt, EntryPoint: "add", Language: "java"}
	dir := t.TempDir()
	write := func(name string, rows ...any) {
		var b strings.Builder
		for _, r := range rows {
			line, _ := json.Marshal(r)
			b.Write(append(line, '\n'))
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("codes.jsonl",
		map[string]string{"task_id": "T/1", "completion": "        return a + b;\n    }\n}\n"},
		map[string]string{"task_id": "T/1", "completion": "        return a + b;\n    }\n}"},
		map[string]string{"task_id": "T/1", "completion": "        return a - b;\n    }\n}\n"})
	write("tests.jsonl", map[string]any{"task_id": "T/1", "tests": []string{
		"assertEquals(3, add(1, 2));\nassertEquals(0, Add.add(0, 0));",
		"assertEquals(3, add(1, 2));\nassertTrue(add(1, 1) == 2);\nassertEquals(1, sub(2, 1));",
	}})
	prov, err := llm.OpenReplay(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(context.Background(), prov, java.Java{}, java.Java{}, p, llm.Params{}, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Raw) != 3 || len(res.Candidates) != 2 || res.Candidates[0].Count != 2 || res.Candidates[1].First != 2 ||
		res.Raw[0] != prompt+"        return a + b;\n    }\n}\n" {
		t.Errorf("candidates %+v, %d raw", res.Candidates, len(res.Raw))
	}
	var got []string
	for _, tc := range res.Tests {
		got = append(got, tc.Input+" == "+tc.Expected+" x"+string(rune('0'+tc.Count)))
	}
	want := []string{"Add.add(1, 2) == 3 x2", "Add.add(0, 0) == 0 x1", "Add.add(1, 1) == 2 == true x1"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("tests %q, want %q", got, want)
	}
}
