package demo

import (
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/lang/java"
)

func TestListShape(t *testing.T) {
	ps, err := List()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 8 {
		t.Fatalf("%d demo problems, want at least 8", len(ps))
	}
	for _, p := range ps {
		t.Run(p.Name, func(t *testing.T) {
			if p.Title == "" || p.Summary == "" {
				t.Errorf("title %q, summary %q: both must be set", p.Title, p.Summary)
			}
			if strings.Contains(p.Stub, ">>>") {
				t.Errorf("stub gives examples away:\n%s", p.Stub)
			}
			if p.Language == "java" {
				if !strings.Contains(p.Stub, "static ") || !strings.Contains(p.Stub, " "+p.EntryPoint+"(") || !strings.Contains(p.Stub, "/**") {
					t.Errorf("Java stub lacks the static method or its Javadoc:\n%s", p.Stub)
				}
			} else if !strings.Contains(p.Stub, "def "+p.EntryPoint+"(") || !strings.Contains(p.Stub, `"""`) {
				t.Errorf("stub lacks the def line or docstring:\n%s", p.Stub)
			}
			if n := len(p.Candidates); n < 9 {
				t.Errorf("%d candidates, want about 10", n)
			}
			if n := len(p.Tests); n < 18 {
				t.Errorf("%d tests, want about 20", n)
			}
			counts := map[Label]int{}
			for _, l := range append(append([]Label{}, p.CandidateLabels...), p.TestLabels...) {
				counts[l]++
			}
			for _, l := range []Label{Correct, Buggy, Wrong, Undefined} {
				if counts[l] == 0 {
					t.Errorf("no candidate or test labelled %s", l)
				}
			}
			multi := false
			for i, c := range p.Candidates {
				if c.Count > 1 {
					multi = true
				}
				if !strings.Contains(c.Program, "def "+p.EntryPoint+"(") && !strings.Contains(c.Program, " "+p.EntryPoint+"(") {
					t.Errorf("candidate %d does not define %s", i, p.EntryPoint)
				}
			}
			if !multi {
				t.Error("no candidate has a multiplicity above 1")
			}
			for j, tc := range p.Tests {
				if call := strings.TrimPrefix(tc.Input, java.FirstClass(p.Stub)+"."); !strings.HasPrefix(call, p.EntryPoint+"(") {
					t.Errorf("test %d %q: input %q does not call %s", j, tc.Code, tc.Input, p.EntryPoint)
				}
			}
			d := p.Dataset()
			if d.Signature == "" || d.Description == "" || len(d.Asserts) == 0 {
				t.Errorf("Dataset() = signature %q, description %q, %d asserts", d.Signature, d.Description, len(d.Asserts))
			}
		})
	}
}

func TestGetUnknown(t *testing.T) {
	_, err := Get("no_such_problem")
	if !errors.Is(err, ErrUnknown) {
		t.Fatalf("Get(no_such_problem) error = %v, want ErrUnknown", err)
	}
	if !strings.Contains(err.Error(), "text_match") {
		t.Errorf("error %q does not list the choices", err)
	}
}

func TestSplitAssert(t *testing.T) {
	tests := []struct {
		line, call, expected string
		ok                   bool
	}{
		{"assert f(1) == 2", "f(1)", "2", true},
		{`assert f("a == b") == "=="`, `f("a == b")`, `"=="`, true},
		{`assert f([1, 2] == [1]) == True`, `f([1, 2] == [1])`, "True", true},
		{`assert f('it\'s') == 'x'  # comment`, `f('it\'s')`, "'x'", true},
		{"assert f(1) != 2", "", "", false},
		{"assert f(1) <= 2", "", "", false},
		{"assert f(1)", "", "", false},
		{"f(1) == 2", "", "", false},
		{"assert f(1 == 2", "", "", false},
		{`assert f("x) == 2`, "", "", false},
		{`assert f(f"{d["=="]}") == 1`, `f(f"{d["=="]}")`, "1", true},
		{`assert f("a") == "b"  # == c`, `f("a")`, `"b"`, true},
		{`assert f("""a\""" == """) == 2`, `f("""a\""" == """)`, "2", true},
		{"assert f(1 # x) == 2", "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			call, expected, ok := SplitAssert(tc.line)
			got := []any{call, expected, ok}
			want := []any{tc.call, tc.expected, tc.ok}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("SplitAssert(%q) (-want +got):\n%s", tc.line, d)
			}
		})
	}
}

func FuzzSplitAssert(f *testing.F) {
	for _, s := range []string{"assert f(1) == 2", `assert g("==") == "a"`, "assert ((", "assert x == == y", `assert f('\'') == 1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		call, expected, ok := SplitAssert(line)
		if !ok {
			return
		}
		if call == "" || expected == "" {
			t.Fatalf("SplitAssert(%q) = %q, %q, true: empty part", line, call, expected)
		}
		if !strings.Contains(line, call) || !strings.Contains(line, expected) {
			t.Fatalf("SplitAssert(%q) = %q, %q: parts not from the line", line, call, expected)
		}
	})
}

// TestSplitMatchesPython checks every demo test's split against Python's own
// parser (the demo data is trusted, so it is parsed outside the sandbox).
func TestSplitMatchesPython(t *testing.T) {
	ps, err := List()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	var want [][2]string
	for _, p := range ps {
		if p.Language != "" {
			continue // not Python
		}
		for _, tc := range p.Tests {
			lines = append(lines, tc.Code)
			want = append(want, [2]string{tc.Input, tc.Expected})
		}
	}
	in, _ := json.Marshal(lines)
	script := `import ast, json, sys
out = []
for line in json.load(sys.stdin):
    c = ast.parse(line).body[0].test
    assert isinstance(c, ast.Compare) and len(c.ops) == 1 and isinstance(c.ops[0], ast.Eq), line
    out.append([ast.unparse(c.left), ast.unparse(c.comparators[0])])
json.dump(out, sys.stdout)`
	cmd := exec.Command("/usr/bin/python3", "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	var py [][2]string
	if err := json.Unmarshal(out, &py); err != nil {
		t.Fatal(err)
	}
	// ast.unparse normalises quotes and spacing, so compare normalised forms.
	norm := func(s string) string { return strings.NewReplacer(" ", "", `'`, `"`).Replace(s) }
	for i := range want {
		if norm(want[i][0]) != norm(py[i][0]) || norm(want[i][1]) != norm(py[i][1]) {
			t.Errorf("%s: split %q, Python %q", lines[i], want[i], py[i])
		}
	}
}
