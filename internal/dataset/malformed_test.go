package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ticoder/ticoder/internal/testutil"
)

// heRow is a valid HumanEval-style row for the entry point f.
const heRow = `{"task_id": "T/%s", "prompt": "def f(x):\n    \"\"\"Return x.\"\"\"\n", "entry_point": "f", "canonical_solution": "    return x\n", "test": "def check(c):\n    assert c(1) == 1\n"}`

func row(id string) string { return strings.ReplaceAll(heRow, "%s", id) }

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadMalformed(t *testing.T) {
	mbppOK := `{"task_id": 7, "text": "Add.", "code": "def add(a, b):\r\n  return a + b", "test_list": ["assert add(1, 2) == 3"], "test_setup_code": ""}`
	tests := []struct {
		name, file, content string
		wantLine            int // 0: the file as a whole
		want                string
	}{
		{"invalid JSON", "x.jsonl", row("0") + "\n" + row("1") + "\n{not json}\n", 3, "invalid JSON"},
		{"truncated last line", "x.jsonl", row("0") + "\n" + row("1")[:40], 2, "looks truncated"},
		{"empty file", "x.jsonl", "\n  \n", 0, "empty file"},
		{"missing field", "x.jsonl", row("0") + "\n" + strings.Replace(row("1"), `"test":`, `"tests":`, 1) + "\n", 2, `missing field "test"`},
		{"missing task_id", "x.jsonl", `{"prompt": "def f(): pass"}` + "\n", 1, `missing field "task_id"`},
		{"wrong type", "x.jsonl", strings.Replace(row("0"), `"entry_point": "f"`, `"entry_point": 3`, 1), 1, `field "entry_point": want a string, got a number`},
		{"entry point not defined", "x.jsonl", strings.Replace(row("0"), `"entry_point": "f"`, `"entry_point": "g"`, 1), 1, `no "def g(...):" line`},
		{"empty entry point", "x.jsonl", strings.Replace(row("0"), `"entry_point": "f"`, `"entry_point": " "`, 1), 1, `"entry_point" is empty`},
		{"duplicate id", "x.jsonl", row("0") + "\n\n" + row("0") + "\n", 3, `duplicate task_id "T/0" (first on line 1)`},
		{"null row", "x.jsonl", "null\n", 1, "want a JSON object"},
		{"array of numbers", "x.jsonl", "[1]\n", 1, "want a JSON object, got number"},
		{"mbpp missing code", "m.jsonl", strings.Replace(mbppOK, `"code"`, `"kode"`, 1), 1, `missing field "code"`},
		{"mbpp empty tests", "m.jsonl", strings.Replace(mbppOK, `["assert add(1, 2) == 3"]`, `[]`, 1), 1, `"test_list" is empty`},
		{"mbpp tests not strings", "m.jsonl", strings.Replace(mbppOK, `["assert add(1, 2) == 3"]`, `[1]`, 1), 1, `field "test_list": want a list of strings`},
		{"mbpp unknown function", "m.jsonl", strings.Replace(mbppOK, `assert add(`, `assert plus(`, 1), 1, "cannot tell the function under test"},
		{"array element not object", "a.json", "[\n" + mbppOK + ",\n 5\n]", 3, "want a JSON object, got number"},
		{"array bad element", "a.json", "[\n" + mbppOK + ",\n" + strings.Replace(mbppOK, `"code"`, `"kode"`, 1) + "\n]", 3, `missing field "code"`},
		{"array syntax error", "a.json", "[\n" + mbppOK + ",\n\n {\"task_id\": 8,, }\n]", 4, "invalid JSON"},
		{"array truncated", "a.json", "[\n" + mbppOK + ",\n" + mbppOK[:30], 3, "looks truncated"},
		{"array trailing data", "a.json", "[\n" + mbppOK + "\n]\n[]", 4, "after the JSON array"},
		{"bad gzip", "x.jsonl.gz", "\x1f\x8bnot gzip at all", 0, "invalid gzip data"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.file, tc.content)
			ds, err := Load(context.Background(), "", path)
			if err == nil {
				t.Fatalf("Load succeeded with %d problems, want an error", ds.Len())
			}
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %v is not a *LineError", err)
			}
			if le.Path != path || le.Line != tc.wantLine {
				t.Errorf("error at %s:%d, want %s:%d (%v)", le.Path, le.Line, path, tc.wantLine, err)
			}
			prefix := "load " + baseName(path) + ": " + path
			if tc.wantLine > 0 {
				prefix += ":" + strconv.Itoa(tc.wantLine)
			}
			if !strings.HasPrefix(err.Error(), prefix+": ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want prefix %q and %q", err, prefix, tc.want)
			}
		})
	}
}

func TestLoadMissingAndUnknown(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(context.Background(), dir, "humaneval")
	if err == nil || !strings.Contains(err.Error(), `run "ticoder data fetch humaneval"`) || !strings.Contains(err.Error(), filepath.Join(dir, "humaneval", "HumanEval.jsonl.gz")) {
		t.Errorf("missing file: %v", err)
	}
	_, err = Load(context.Background(), dir, "no-such-dataset")
	if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "humaneval-noexamples") {
		t.Errorf("unknown name: %v", err)
	}
}

func TestLoadGenericAndGzip(t *testing.T) {
	// A multi-line signature with colons in defaults and annotations, a
	// decorator-free helper, and a raw docstring with quotes.
	prompt := "import math\n\n\ndef helper(x):\n    return x\n\n\ndef f(a: int,\n      b: str = \":\",\n      ) -> dict[str, int]:\n    r'''Doc with \"quotes\" and \\d.\n\n    More.\n    '''\n"
	rows := []map[string]string{
		{"task_id": "G/0", "prompt": prompt, "entry_point": "f", "canonical_solution": "    return {}\n", "test": "def check(c):\n    assert c(1) == {}\n"},
		{"task_id": "G/1", "prompt": "def g():\n    \"\"\"G.\"\"\"\n", "entry_point": "g", "canonical_solution": "    return 1\n", "test": "def check(c):\n    pass\n"},
	}
	var jsonl bytes.Buffer
	for _, r := range rows {
		jsonl.WriteString(mustJSON(t, r) + "\n")
	}
	plain := writeFile(t, "generic.jsonl", jsonl.String())
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(jsonl.Bytes())
	zw.Close()
	// Named without .gz: gzip is detected by content.
	zipped := writeFile(t, "generic.jsonl.gz", gz.String())

	want := []Problem{{
		ID: "G/0", Dataset: "generic", Prompt: prompt,
		Description: "Doc with \"quotes\" and \\d.\n\nMore.",
		Context:     "import math\n\n\ndef helper(x):\n    return x\n\n\n",
		Signature:   "def f(a: int,\n      b: str = \":\",\n      ) -> dict[str, int]:",
		EntryPoint:  "f",
		Reference:   prompt + "    return {}\n",
		Test:        "def check(c):\n    assert c(1) == {}\n\ncheck(f)\n",
	}, {
		ID: "G/1", Dataset: "generic", Prompt: "def g():\n    \"\"\"G.\"\"\"\n", Description: "G.",
		Signature: "def g():", EntryPoint: "g", Reference: "def g():\n    \"\"\"G.\"\"\"\n    return 1\n",
		Test: "def check(c):\n    pass\n\ncheck(g)\n",
	}}
	for _, path := range []string{plain, zipped} {
		ds, err := Load(context.Background(), "", path)
		if err != nil {
			t.Fatal(err)
		}
		if ds.Name != "generic" || ds.Path != path {
			t.Errorf("Name, Path = %q, %q", ds.Name, ds.Path)
		}
		if diff := cmp.Diff(want, ds.Problems, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
}

func TestLoadGzipKnown(t *testing.T) {
	// HumanEval.jsonl.gz (the published file in the full data) and its
	// decompressed copy load the same.
	testutil.ForEachData(t, func(t *testing.T, d testutil.Data) {
		ds := loadKnown(t, d.Dir, "humaneval")
		data, err := readFile(ds.Path)
		if err != nil {
			t.Fatal(err)
		}
		plain := writeFile(t, "HumanEval.jsonl", string(data))
		ds2, err := LoadFile(context.Background(), "humaneval", plain)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(ds.Problems, ds2.Problems); diff != "" {
			t.Errorf("gz vs plain (-gz +plain):\n%s", diff)
		}
	}, "humaneval/HumanEval.jsonl.gz")
}

func TestLoadCancelled(t *testing.T) {
	var b strings.Builder
	for i := range 600 {
		b.WriteString(row(strconv.Itoa(i)) + "\n")
	}
	path := writeFile(t, "big.jsonl", b.String())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, "", path); !errors.Is(err, context.Canceled) {
		t.Errorf("Load with a cancelled context: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(row("0") + "\n" + row("1")))
	f.Add([]byte(`[{"task_id": 1, "prompt": "P", "code": "def a(x):\n  return x", "test_list": ["assert a(1) == 1"], "test_imports": []}]`))
	f.Add([]byte(`{"task_id": 2, "text": "T", "code": "class C:\n  pass\ndef b(): pass", "test_list": ["assert b() is None"]}`))
	f.Add([]byte("[\n{\"task_id\": 1,"))
	f.Add([]byte("\ufeff\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ds, err := decode(context.Background(), "fuzz", "fuzz.jsonl", data)
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %v is not a *LineError", err)
			}
			return
		}
		for _, p := range ds.Problems {
			if !strings.HasPrefix(p.Prompt, p.Context+p.Signature) && p.Asserts == nil {
				t.Errorf("%s: Prompt does not start with Context+Signature", p.ID)
			}
			_ = p.Stub()
		}
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
