package dataset

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/testutil"
)

// loadKnown loads a known dataset from a data directory.
func loadKnown(t *testing.T, dir, name string) *Dataset {
	t.Helper()
	ds, err := Load(context.Background(), dir, name)
	if err != nil {
		t.Fatalf("Load(%q): %v", name, err)
	}
	return ds
}

func get(t *testing.T, ds *Dataset, id string) Problem {
	t.Helper()
	p, ok := ds.Get(id)
	if !ok {
		t.Fatalf("%s: no problem %q", ds.Name, id)
	}
	return p
}

// knownFiles lists the files of the known datasets.
func knownFiles() []string {
	var files []string
	for _, spec := range Known() {
		files = append(files, spec.File)
	}
	return files
}

func TestLoadKnownCounts(t *testing.T) {
	testutil.ForEachData(t, func(t *testing.T, d testutil.Data) {
		for _, spec := range Known() {
			t.Run(spec.Name, func(t *testing.T) { checkKnown(t, d, spec) })
		}
	}, knownFiles()...)
}

// checkKnown loads a known dataset from d and checks its size and that every
// problem is complete.
func checkKnown(t *testing.T, d testutil.Data, spec Spec) {
	t.Helper()
	ds := loadKnown(t, d.Dir, spec.Name)
	want := map[string]int{"humaneval": 164, "humaneval-noexamples": 164, "mbpp": 974, "mbpp-sanitized": 427, "mbjp": 966,
		"humanevalplus": 164, "mbppplus": 378}[spec.Name]
	if d.Full && (ds.Len() != want || spec.Rows != want) {
		t.Fatalf("%s: loaded %d problems, spec says %d, want %d", spec.Name, ds.Len(), spec.Rows, want)
	}
	if !d.Full && ds.Len() != len(testutil.FixtureTasks[spec.File]) {
		t.Fatalf("%s: loaded %d problems from the fixtures, want %d", spec.Name, ds.Len(), len(testutil.FixtureTasks[spec.File]))
	}
	if ds.Name != spec.Name {
		t.Errorf("Name = %q, want %q", ds.Name, spec.Name)
	}
	if ds.Language() == Java {
		checkJava(t, ds)
		return
	}
	for _, p := range ds.Problems {
		if p.Dataset != spec.Name || p.EntryPoint == "" || p.Description == "" || p.Reference == "" || p.Test == "" {
			t.Errorf("%s: incomplete problem: %+v", p.ID, p)
		}
		if !strings.HasPrefix(p.Prompt, p.Context+p.Signature) && spec.Name != "mbppplus" { // (MBPP+'s is a docstring)
			t.Errorf("%s: Prompt does not start with Context+Signature", p.ID)
		}
		if !regexp.MustCompile(`^\s*def\s+`+p.EntryPoint+`\s*\(`).MatchString(p.Signature) || !strings.HasSuffix(p.Signature, ":") {
			t.Errorf("%s: Signature %q is not the def line of %s", p.ID, p.Signature, p.EntryPoint)
		}
		if !strings.Contains(p.Reference, p.Signature) {
			t.Errorf("%s: Reference lacks the signature", p.ID)
		}
		if !strings.Contains(p.Stub(), p.Signature) || !strings.HasSuffix(p.Stub(), "pass\n") {
			t.Errorf("%s: bad stub %q", p.ID, p.Stub())
		}
	}
}

func TestHumanEvalFields(t *testing.T) {
	dir := testutil.Fixtures(t)
	ds := loadKnown(t, dir, "humaneval")
	p := get(t, ds, "HumanEval/0")
	row := rawRow(t, dir, "humaneval", 0)
	want := Problem{
		ID:          "HumanEval/0",
		Dataset:     "humaneval",
		Prompt:      row["prompt"],
		Description: "Check if in given list of numbers, are any two numbers closer to each other than\ngiven threshold.\n>>> has_close_elements([1.0, 2.0, 3.0], 0.5)\nFalse\n>>> has_close_elements([1.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3)\nTrue",
		Context:     "from typing import List\n\n\n",
		Signature:   "def has_close_elements(numbers: List[float], threshold: float) -> bool:",
		EntryPoint:  "has_close_elements",
		Reference:   row["prompt"] + row["canonical_solution"],
		Test:        row["test"] + "\ncheck(has_close_elements)\n",
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("HumanEval/0 (-want +got):\n%s", diff)
	}

	// A helper function before the entry point stays in the context.
	p38 := get(t, ds, "HumanEval/38")
	if !strings.Contains(p38.Context, "def encode_cyclic(s: str):") || p38.Signature != "def decode_cyclic(s: str):" {
		t.Errorf("HumanEval/38: Context %q, Signature %q", p38.Context, p38.Signature)
	}
	// The docstring follows an import inside the function.
	p115 := get(t, ds, "HumanEval/115")
	if !strings.HasPrefix(p115.Description, "You are given a rectangular grid of wells.") {
		t.Errorf("HumanEval/115: Description %q", p115.Description)
	}
	// Short ids find the dataset's own.
	if q, ok := ds.Get("0"); !ok || q.ID != "HumanEval/0" {
		t.Errorf(`Get("0") = %q, %v`, q.ID, ok)
	}
	if _, ok := ds.Get("HumanEval/999"); ok {
		t.Errorf(`Get("HumanEval/999") found a problem`)
	}
}

func TestHumanEvalNoExamplesStubMatchesCodeT(t *testing.T) {
	testPrompts := testutil.Recorded + "/test-prompts.jsonl"
	testutil.ForEachData(t, func(t *testing.T, d testutil.Data) {
		want := 164
		if !d.Full {
			want = len(testutil.FixtureTasks[testPrompts])
		}
		checkStubsMatchCodeT(t, d.Dir, want)
	}, "humaneval/HumanEval-noexamples.jsonl", testPrompts)
}

// checkStubsMatchCodeT compares the stubs of HumanEval-noexamples with
// CodeT's test prompts in dir, which must cover want problems.
func checkStubsMatchCodeT(t *testing.T, dir string, want int) {
	t.Helper()
	ds := loadKnown(t, dir, "humaneval-noexamples")
	if p := get(t, ds, "HumanEval/0"); strings.Contains(p.Prompt, ">>>") || p.Description != "Check if in given list of numbers, are any two numbers closer to each other than\ngiven threshold." {
		t.Errorf("HumanEval/0: Description %q", p.Description)
	}
	// CodeT's test prompts are the stub + "\n# check the correctness of NAME\nassert ".
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(testutil.Recorded), "test-prompts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var row struct {
			TaskID string `json:"task_id"`
			Prompt string `json:"prompt"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		p := get(t, ds, row.TaskID)
		want := strings.TrimSuffix(row.Prompt, "\n# check the correctness of "+p.EntryPoint+"\nassert ")
		if diff := cmp.Diff(want, p.Stub()); diff != "" {
			t.Errorf("%s: Stub (-CodeT +got):\n%s", row.TaskID, diff)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Errorf("compared %d stubs, want %d", n, want)
	}
}

func TestMBPPFields(t *testing.T) {
	dir := testutil.Fixtures(t)
	full := loadKnown(t, dir, "mbpp")
	p := get(t, full, "Mbpp/2")
	want := Problem{
		ID:          "Mbpp/2",
		Dataset:     "mbpp",
		Prompt:      "def similar_elements(test_tup1, test_tup2):\n    \"\"\" Write a function to find the similar elements from the given two tuple lists.\n    \"\"\"\n",
		Description: "Write a function to find the similar elements from the given two tuple lists.",
		Context:     "",
		Signature:   "def similar_elements(test_tup1, test_tup2):",
		EntryPoint:  "similar_elements",
		Reference:   "def similar_elements(test_tup1, test_tup2):\n  res = tuple(set(test_tup1) & set(test_tup2))\n  return (res) ",
		Test: "assert similar_elements((3, 4, 5, 6),(5, 7, 4, 10)) == (4, 5)\n" +
			"assert similar_elements((1, 2, 3, 4),(5, 4, 3, 7)) == (3, 4)\n" +
			"assert similar_elements((11, 12, 14, 13),(17, 15, 14, 13)) == (13, 14)\n",
		Asserts: []string{
			"assert similar_elements((3, 4, 5, 6),(5, 7, 4, 10)) == (4, 5)",
			"assert similar_elements((1, 2, 3, 4),(5, 4, 3, 7)) == (3, 4)",
			"assert similar_elements((11, 12, 14, 13),(17, 15, 14, 13)) == (13, 14)",
		},
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("Mbpp/2 (-want +got):\n%s", diff)
	}

	tests := []struct {
		ds                          *Dataset
		id, entry, context, setupIn string
	}{
		// Constants before the function stay in the context; CRLF becomes LF.
		{ds: full, id: "Mbpp/1", entry: "min_cost", context: "R = 3\nC = 3\n"},
		// A class the test setup needs stays in the context.
		{ds: full, id: "Mbpp/367", entry: "is_tree_balanced", setupIn: "root = Node(1)"},
	}
	san := loadKnown(t, dir, "mbpp-sanitized")
	tests = append(tests, []struct {
		ds                          *Dataset
		id, entry, context, setupIn string
	}{
		// The first call in "assert set(similar_elements(...))" is set: skip it.
		{ds: san, id: "Mbpp/2", entry: "similar_elements"},
		// A helper function before the entry point is left out of the prompt.
		{ds: san, id: "Mbpp/751", entry: "check_min_heap", context: ""},
		// test_imports become the setup.
		{ds: san, id: "Mbpp/82", entry: "volume_sphere", context: "import math\n", setupIn: "import math"},
	}...)
	for _, tc := range tests {
		t.Run(tc.ds.Name+"/"+tc.id, func(t *testing.T) {
			p := get(t, tc.ds, tc.id)
			if p.EntryPoint != tc.entry {
				t.Errorf("EntryPoint = %q, want %q", p.EntryPoint, tc.entry)
			}
			if tc.context != "" || tc.id == "Mbpp/751" {
				if p.Context != tc.context {
					t.Errorf("Context = %q, want %q", p.Context, tc.context)
				}
			}
			if !strings.Contains(p.TestSetup, tc.setupIn) || !strings.HasPrefix(p.Test, p.TestSetup) {
				t.Errorf("TestSetup = %q, Test = %q", p.TestSetup, p.Test)
			}
			if strings.Contains(p.Reference, "\r") || strings.Contains(p.Test, "\r") {
				t.Errorf("carriage returns left in Reference or Test")
			}
		})
	}
	if p := get(t, san, "Mbpp/2"); len(p.Asserts) != 3 || p.Asserts[0] != "assert set(similar_elements((3, 4, 5, 6),(5, 7, 4, 10))) == set((4, 5))" {
		t.Errorf("sanitized Mbpp/2 asserts: %q", p.Asserts)
	}
}

// rawRow returns row i of a known JSONL dataset in dir as strings.
func rawRow(t *testing.T, dir, name string, i int) map[string]string {
	t.Helper()
	spec, _ := Lookup(name)
	data, err := readFile(spec.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var row map[string]string
	if err := json.Unmarshal([]byte(lines[i]), &row); err != nil {
		t.Fatal(err)
	}
	return row
}

func TestDataDir(t *testing.T) {
	tests := []struct{ name, flag, env, want string }{
		{"flag wins", "/flag", "/env", "/flag"},
		{"env", "", "/env", "/env"},
		{"default", "", "", "data"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvDataDir, tc.env)
			if got := DataDir(tc.flag); got != tc.want {
				t.Errorf("DataDir(%q) = %q, want %q", tc.flag, got, tc.want)
			}
		})
	}
}

func TestSelect(t *testing.T) {
	ds, err := New("toy", []Problem{{ID: "T/1"}, {ID: "T/2"}, {ID: "T/3"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		ids     []string
		want    []string
		wantErr string
	}{
		{nil, []string{"T/1", "T/2", "T/3"}, ""},
		{[]string{"T/3", " T/1"}, []string{"T/1", "T/3"}, ""}, // dataset order
		{[]string{"T/9"}, nil, `toy has no problem "T/9": use task ids such as T/1`},
	}
	for _, c := range cases {
		got, err := ds.Select(c.ids)
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("Select(%v) error = %v, want %q", c.ids, err, c.wantErr)
			}
			continue
		}
		var ids []string
		for _, p := range got {
			ids = append(ids, p.ID)
		}
		if diff := cmp.Diff(c.want, ids); diff != "" {
			t.Errorf("Select(%v) (-want +got):\n%s", c.ids, diff)
		}
	}
}
