package samples

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/testutil"
)

// load loads a known dataset from a data directory.
func load(t *testing.T, dir, name string) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.Load(context.Background(), dir, name)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// codes is the recorded CodeGen-16B samples file inside a data directory.
const codes = testutil.Recorded + "/codes.jsonl"

func TestCodeTCodesMapToNoExamples(t *testing.T) {
	testutil.ForEachData(t, func(t *testing.T, d testutil.Data) {
		tasks := 164
		if !d.Full {
			tasks = len(testutil.FixtureTasks[codes])
		}
		checkCodeTCodes(t, d.Dir, tasks)
	}, "humaneval/HumanEval-noexamples.jsonl", codes)
}

// checkCodeTCodes reads the recorded samples in dir, 100 for each of tasks
// problems, against HumanEval-noexamples.
func checkCodeTCodes(t *testing.T, dir string, tasks int) {
	t.Helper()
	ds := load(t, dir, "humaneval-noexamples")
	path := filepath.Join(dir, filepath.FromSlash(codes))
	got, err := Read(context.Background(), path, ds)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != tasks*100 {
		t.Fatalf("%d samples, want %d", len(got), tasks*100)
	}
	perTask := map[string]int{}
	for i, s := range got {
		if s.Err != "" {
			t.Fatalf("sample %d: %s", i, s.Err)
		}
		p, ok := ds.Get(s.TaskID)
		if !ok {
			t.Fatalf("sample %d: task %q not in the dataset", i, s.TaskID)
		}
		if s.Index != perTask[s.TaskID] || s.Format != CodeT || s.Line != i/100+1 {
			t.Fatalf("sample %d: index %d, format %v, line %d", i, s.Index, s.Format, s.Line)
		}
		perTask[s.TaskID]++
		if s.Program != p.Prompt+s.Completion {
			t.Fatalf("sample %d: program is not prompt + completion", i)
		}
	}
	if len(perTask) != tasks {
		t.Errorf("%d tasks, want %d", len(perTask), tasks)
	}
	for id, n := range perTask {
		if n != 100 {
			t.Errorf("%s: %d samples, want 100", id, n)
		}
	}
	if got[0].TaskID != "HumanEval/0" || !strings.HasPrefix(got[0].Completion, "    for i in range(len(numbers)):") {
		t.Errorf("first sample %+v", got[0])
	}
}

func TestCodeTAgainstOriginalHumanEval(t *testing.T) {
	// CodeT's prompts are HumanEval-noexamples prompts: against the original
	// HumanEval only the problems whose docstrings had no examples match; the
	// other rows' samples carry an error that says which dataset to use.
	// Of the fixtures' problems, none has the same prompt in both.
	dir := testutil.FullData(t, "humaneval/HumanEval.jsonl.gz", "humaneval/HumanEval-noexamples.jsonl", codes)
	path := filepath.Join(dir, filepath.FromSlash(codes))
	noex := load(t, dir, "humaneval-noexamples")
	orig := load(t, dir, "humaneval")
	same := 0
	for _, p := range orig.Problems {
		if q, _ := noex.Get(p.ID); q.Prompt == p.Prompt {
			same++
		}
	}
	got, err := Read(context.Background(), path, orig)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, s := range got {
		if s.Err != "" {
			bad++
			if s.TaskID != "" || !strings.Contains(s.Err, "use humaneval-noexamples") || !strings.HasPrefix(s.Err, path+":") {
				t.Fatalf("sample %+v", s)
			}
		}
	}
	if len(got) != 16400 || bad != (164-same)*100 || same == 0 || same == 164 {
		t.Errorf("%d samples, %d with errors; %d prompts are the same in both datasets", len(got), bad, same)
	}
}

func TestFormats(t *testing.T) {
	ds := load(t, testutil.Fixtures(t), "humaneval")
	p0, _ := ds.Get("HumanEval/0")
	p1, _ := ds.Get("HumanEval/1")
	mbpp := load(t, testutil.Fixtures(t), "mbpp-sanitized")
	m2, _ := mbpp.Get("Mbpp/2")
	// A trimmed CodeT prompt still matches.
	trimmed := strings.TrimSpace(p1.Prompt)

	tests := []struct {
		name    string
		ds      *dataset.Dataset
		content string
		want    []Sample
	}{
		{
			name: "human-eval",
			ds:   ds,
			content: `{"task_id": "HumanEval/0", "completion": "    return True\n"}` + "\n" +
				`{"task_id": "HumanEval/1", "completion": "    return []\n"}` + "\n" +
				`{"task_id": "HumanEval/0", "completion": "    return False\n"}` + "\n",
			want: []Sample{
				{TaskID: "HumanEval/0", Index: 0, Completion: "    return True\n", Program: p0.Prompt + "    return True\n", Format: HumanEval, Line: 1},
				{TaskID: "HumanEval/1", Index: 0, Completion: "    return []\n", Program: p1.Prompt + "    return []\n", Format: HumanEval, Line: 2},
				{TaskID: "HumanEval/0", Index: 1, Completion: "    return False\n", Program: p0.Prompt + "    return False\n", Format: HumanEval, Line: 3},
			},
		},
		{
			name:    "evalplus",
			ds:      mbpp,
			content: `{"task_id": "Mbpp/2", "solution": "def similar_elements(a, b):\n    return tuple(set(a) & set(b))\n"}`,
			want: []Sample{{TaskID: "Mbpp/2", Completion: "def similar_elements(a, b):\n    return tuple(set(a) & set(b))\n",
				Program: "def similar_elements(a, b):\n    return tuple(set(a) & set(b))\n", Format: EvalPlus, Line: 1}},
		},
		{
			name:    "integer task id and MBPP prompt",
			ds:      mbpp,
			content: `{"task_id": 2, "completion": "    return ()\n"}`,
			want:    []Sample{{TaskID: "Mbpp/2", Completion: "    return ()\n", Program: m2.Prompt + "    return ()\n", Format: HumanEval, Line: 1, NumericID: true}},
		},
		{
			name: "codet exact and trimmed, mixed with human-eval",
			ds:   ds,
			content: mustJSON(t, map[string]any{"prompt": p0.Prompt, "samples": []string{"    a\n", "    b\n"}}) + "\n\n" +
				`{"task_id": "HumanEval/0", "completion": "    c\n"}` + "\n" +
				mustJSON(t, map[string]any{"prompt": trimmed, "samples": []string{"\n    d\n"}}) + "\n",
			want: []Sample{
				{TaskID: "HumanEval/0", Index: 0, Completion: "    a\n", Program: p0.Prompt + "    a\n", Format: CodeT, Line: 1},
				{TaskID: "HumanEval/0", Index: 1, Completion: "    b\n", Program: p0.Prompt + "    b\n", Format: CodeT, Line: 1},
				{TaskID: "HumanEval/0", Index: 2, Completion: "    c\n", Program: p0.Prompt + "    c\n", Format: HumanEval, Line: 3},
				{TaskID: "HumanEval/1", Index: 0, Completion: "\n    d\n", Program: trimmed + "\n    d\n", Format: CodeT, Line: 4},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(context.Background(), strings.NewReader(tc.content), "s.jsonl", tc.ds)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestBadLinesKeepTheRest(t *testing.T) {
	ds := load(t, testutil.Fixtures(t), "humaneval")
	content := `{"task_id": "HumanEval/0", "completion": "    return 1\n"}` + "\n" +
		`{"task_id": "HumanEval/999", "completion": "    x\n"}` + "\n" +
		`not json` + "\n" +
		`{"task_id": "HumanEval/0", "completion": 5}` + "\n" +
		`{"prompt": "def nothing_like_it():\n", "samples": ["    pass\n"]}` + "\n" +
		`{"foo": 1}` + "\n" +
		`{"task_id": "HumanEval/1", "completion": "    return 2\n"}` + "\n" +
		`{"task_id": "HumanEval/0", "completion": "    return [x for x in`
	got, err := Parse(context.Background(), strings.NewReader(content), "s.jsonl", ds)
	if err != nil {
		t.Fatal(err)
	}
	type brief struct {
		TaskID string
		Index  int
		Line   int
		Err    string
	}
	var gotBrief []brief
	for _, s := range got {
		gotBrief = append(gotBrief, brief{s.TaskID, s.Index, s.Line, s.Err})
	}
	want := []brief{
		{"HumanEval/0", 0, 1, ""},
		{"HumanEval/999", 0, 2, `s.jsonl:2: unknown task "HumanEval/999": dataset humaneval has no such problem (ids look like "HumanEval/0")`},
		{"", 0, 3, "s.jsonl:3: invalid JSON: invalid character 'o' in literal null (expecting 'u')"},
		{"HumanEval/0", 1, 4, `s.jsonl:4: field "completion": want a string, got number`},
		{"", 0, 5, "s.jsonl:5: the prompt matches no problem of dataset humaneval (CodeT rows are matched by prompt text; CodeT's HumanEval files use humaneval-noexamples)"},
		{"", 0, 6, `s.jsonl:6: unknown sample format: want {"task_id", "completion"} (human-eval), {"task_id", "solution"} (evalplus) or {"prompt", "samples": [...]} (CodeT)`},
		{"HumanEval/1", 0, 7, ""},
		{"HumanEval/0", 2, 8, "s.jsonl:8: invalid JSON (the line is cut off; was the file truncated?): unexpected end of JSON input"},
	}
	if diff := cmp.Diff(want, gotBrief); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, s := range got {
		if (s.Err == "") == (s.Program == "") {
			t.Errorf("line %d: Err %q with Program %q", s.Line, s.Err, s.Program)
		}
	}
}

func TestFileErrors(t *testing.T) {
	ds := load(t, testutil.Fixtures(t), "humaneval")
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name, path string
		want       string
	}{
		{"missing", filepath.Join(dir, "nope.jsonl"), "no such file"},
		{"empty", write("empty.jsonl", "\n \n"), "the file is empty"},
		{"nothing usable", write("bad.jsonl", `{"task_id": "Mbpp/2", "completion": "x"}`+"\n"), `bad.jsonl:1: unknown task "Mbpp/2"`},
		{"bad gzip", write("bad.jsonl.gz", "\x1f\x8bxx"), "invalid gzip data"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Read(context.Background(), tc.path, ds)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Read = %d samples, %v; want an error containing %q", len(got), err, tc.want)
			}
			if noSamples := tc.name == "empty" || tc.name == "nothing usable"; errors.Is(err, ErrNoSamples) != noSamples {
				t.Errorf("errors.Is(%v, ErrNoSamples) = %v, want %v", err, !noSamples, noSamples)
			}
		})
	}
	if _, err := Parse(context.Background(), strings.NewReader("{}"), "x", nil); err == nil {
		t.Error("Parse with a nil dataset succeeded")
	}
}

func TestGzip(t *testing.T) {
	ds := load(t, testutil.Fixtures(t), "humaneval")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(`{"task_id": "HumanEval/3", "completion": "    return 0\n"}` + "\n"))
	zw.Close()
	got, err := Parse(context.Background(), &buf, "s.jsonl.gz", ds)
	if err != nil || len(got) != 1 || got[0].TaskID != "HumanEval/3" || got[0].Err != "" {
		t.Errorf("Parse gz: %+v, %v", got, err)
	}
}

// TestByteOrderMark: a UTF-8 BOM before the first line (plain or inside
// gzip) does not cost the first sample.
func TestByteOrderMark(t *testing.T) {
	ds := load(t, testutil.Fixtures(t), "humaneval")
	content := "\ufeff" + `{"task_id": "HumanEval/3", "completion": "    return 0\n"}` + "\n" +
		`{"task_id": "HumanEval/0", "completion": "    return 0\n"}` + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(content))
	zw.Close()
	for name, r := range map[string]io.Reader{"plain": strings.NewReader(content), "gzip": &gz} {
		got, err := Parse(context.Background(), r, "s.jsonl", ds)
		if err != nil || len(got) != 2 || got[0].TaskID != "HumanEval/3" || got[0].Err != "" || got[1].Err != "" {
			t.Errorf("%s: Parse = %+v, %v; want both samples", name, got, err)
		}
	}
}

func TestLongLine(t *testing.T) {
	// A line far longer than the reader's buffer.
	ds := load(t, testutil.Fixtures(t), "humaneval")
	body := strings.Repeat("    x = 1\n", 50000)
	got, err := Parse(context.Background(), strings.NewReader(mustJSON(t, map[string]string{"task_id": "HumanEval/0", "completion": body})), "s.jsonl", ds)
	if err != nil || len(got) != 1 || got[0].Completion != body {
		t.Errorf("long line: %d samples, %v", len(got), err)
	}
}

// TestNumericIDNote: a task_id given as a JSON number is read as the
// problem whose id ends in /NUMBER, and the note says so with what to do;
// string ids, and numbers that match nothing, get no note.
func TestNumericIDNote(t *testing.T) {
	ds := load(t, testutil.Fixtures(t), "humaneval")
	body := `, "completion": "    return 0\n"}` + "\n"
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"strings", `{"task_id": "HumanEval/0"` + body + `{"task_id": "0"` + body, nil},
		{"a zero", `{"task_id": "HumanEval/3"` + body + `{"task_id": 0` + body,
			[]string{"1 sample gives task_id as a JSON number", "line 2: 0 is HumanEval/0", "1 problem in all", `"task_id": "HumanEval/0"`}},
		{"several", `{"task_id": 0` + body + `{"task_id": 0` + body + `{"task_id": 3` + body,
			[]string{"3 samples give", "line 1: 0 is HumanEval/0", "2 problems in all", "a field left at 0"}},
		{"unknown number", `{"task_id": "HumanEval/0"` + body + `{"task_id": 99999` + body, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			smp, err := Parse(context.Background(), strings.NewReader(tc.file), "s.jsonl", ds)
			if err != nil {
				t.Fatal(err)
			}
			note := NumericIDNote(smp)
			if (note == "") != (tc.want == nil) {
				t.Fatalf("NumericIDNote = %q, want a note: %v", note, tc.want != nil)
			}
			for _, w := range tc.want {
				if !strings.Contains(note, w) {
					t.Errorf("NumericIDNote = %q, want it to say %q", note, w)
				}
			}
		})
	}
}
