package interact

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/session"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

// testPool returns a sandboxed pool shared by a test.
func testPool(t *testing.T) *execute.Pool { return testutil.Pool(t) }

// referenceValues returns the repr of the value the demo reference returns
// for each test's call.
func referenceValues(t *testing.T, r execute.Runner, p demo.Problem) []string {
	t.Helper()
	tests := make([]execute.Test, len(p.Tests))
	for j, tc := range p.Tests {
		tests[j] = tc.Test
	}
	m, err := r.Run(context.Background(), execute.Job{Programs: []string{p.Reference}, Tests: tests, TimePolicy: execute.Within(5 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(tests))
	for j, res := range m.Results[0] {
		out[j] = res.Value
	}
	return out
}

// answerByLabels plays a user who knows the intent: the author's labels say
// which tests are right. In Output mode a wrong test is corrected with the
// reference's value.
func answerByLabels(t *testing.T, ctx context.Context, c *Conversation, p demo.Problem, values []string) {
	t.Helper()
	for steps := 0; ; steps++ {
		q, ok := c.Question()
		if !ok {
			return
		}
		if steps > len(p.Tests) {
			t.Fatal("the session asks more questions than there are tests")
		}
		verdict, value := "pass", ""
		var err error
		switch {
		case q.Synthesized:
			// No label covers an input no test asked about: the reference answers.
			if verdict, value, err = p.AnswerCall(ctx, c.runner, "", q.Input, q.Expected, q.CanOutput); err != nil {
				t.Fatal(err)
			}
		case p.TestLabels[q.Test] == demo.Wrong:
			verdict = "fail"
			if q.CanOutput {
				verdict, value = "output", values[q.Test]
			}
		case p.TestLabels[q.Test] == demo.Undefined:
			verdict = "undefined"
		}
		if err := c.Answer(ctx, q.Test, verdict, value); err != nil {
			t.Fatalf("answer %s to %s: %v", verdict, q.Prompt, err)
		}
	}
}

func TestDemosEndWithCorrectCode(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	b := &Builder{Runner: pool}
	ps, err := demo.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []rank.Mode{rank.PassFail, rank.Output} {
		for _, p := range ps {
			if p.Language != "" {
				// The Java demos end to end: TestRunJavaDemos (cmd/ticoder)
				// and TestBrowserJavaDemo (server).
				continue
			}
			t.Run(mode.String()+"/"+p.Name, func(t *testing.T) {
				prep, err := b.Build(ctx, Source{Demo: p.Name}, Options{Mode: mode}, nil)
				if err != nil {
					t.Fatal(err)
				}
				c, err := Start(prep, pool)
				if err != nil {
					t.Fatal(err)
				}
				start := c.State("x")
				answerByLabels(t, ctx, c, p, referenceValues(t, pool, p))
				end := c.State("x")
				if end.Remaining.Samples >= start.Remaining.Samples {
					t.Errorf("remaining samples %d -> %d: answers pruned nothing", start.Remaining.Samples, end.Remaining.Samples)
				}
				ex, err := c.Export(ctx, -1, true)
				if err != nil {
					t.Fatal(err)
				}
				if l := p.CandidateLabels[ex.Candidate]; l != demo.Correct {
					t.Errorf("exported candidate %d is %s (%s) after %d answers:\n%s", ex.Candidate, l, p.CandidateNotes[ex.Candidate], len(end.History), ex.Code)
				}
				if !ex.Checked || !ex.Passed || ex.TestCount == 0 {
					t.Errorf("export check: checked %v passed %v, %d tests, failures %q\n%s", ex.Checked, ex.Passed, ex.TestCount, ex.Failures, ex.Tests)
				}
				if doc, _, ok := docstringOf(p.Stub, p.EntryPoint); !ok || !strings.Contains(ex.Code, doc) {
					t.Errorf("the exported code lacks the stub's docstring %q:\n%s", doc, ex.Code)
				}
			})
		}
	}
}

func TestBadAnswersChangeNothing(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	b := &Builder{Runner: pool}
	prep, err := b.Build(ctx, Source{Demo: "text_match"}, Options{Mode: rank.Output}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Start(prep, pool)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := c.Question()
	if err := c.Answer(ctx, q.Test, "pass", ""); err != nil {
		t.Fatal(err)
	}
	before := c.State("x")
	q2 := before.Question
	tests := []struct {
		name          string
		test          int
		verdict, val  string
		want          error
		wantInMessage string
	}{
		{"not asked", q.Test, "pass", "", session.ErrNotAsked, "no longer open"},
		{"unknown verdict", q2.Test, "maybe", "", session.ErrBadAnswer, "unknown answer"},
		{"value not Python", q2.Test, "output", "[1, 2", nil, "was never closed"},
		{"empty value", q2.Test, "output", "  ", ErrEmptyValue, "value is empty"},
		{"value is a name", q2.Test, "output", "undefined_name", ErrNotLiteral, "only literal values"},
		{"value is code", q2.Test, "output", "open('/etc/hostname').read()", ErrNotLiteral, "only literal values"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := c.Answer(ctx, tc.test, tc.verdict, tc.val)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.wantInMessage) {
				t.Errorf("error %q does not say %q", err, tc.wantInMessage)
			}
			if d := cmp.Diff(before, c.State("x")); d != "" {
				t.Errorf("state changed (-before +after):\n%s", d)
			}
		})
	}
	var se *SyntaxError
	if err := c.Answer(ctx, q2.Test, "output", "[1, 2"); !errors.As(err, &se) || se.Line != 1 {
		t.Errorf("error %v, want a *SyntaxError on line 1", err)
	}
}

// TestCheckValue: literal values of every kind pass; code, names and
// comments are refused with ErrNotLiteral, and text that is not Python is a
// *SyntaxError.
func TestCheckValue(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	tests := []struct {
		name, value string
		want        error // nil: accepted
		says        string
	}{
		{"int", "3", nil, ""},
		{"negative", "-1.5", nil, ""},
		{"complex", "-1+2j", nil, ""},
		{"string", `'a # b'`, nil, ""},
		{"bytes", `b"\x00"`, nil, ""},
		{"constants", "(True, False, None, ...)", nil, ""},
		{"containers", "[1, (2,), {'a': {3}}, set()]", nil, ""},
		{"multi-line", "[1,\n 2]", nil, ""},
		{"call", "open('/etc/machine-id').read()", ErrNotLiteral, `"open('/etc/machine-id').read()" is code`},
		{"import", "__import__('os').system('touch /tmp/x')", ErrNotLiteral, "only literal values"},
		{"nested call", "[1, len('ab')]", ErrNotLiteral, `"len('ab')" is code`},
		{"name", "x", ErrNotLiteral, `"x" is code`},
		{"arithmetic", "1+2", ErrNotLiteral, `"1+2" is code`},
		{"f-string", `f"{open('/etc/hostname').read()}"`, ErrNotLiteral, "is code"},
		{"lambda", "lambda: 1", ErrNotLiteral, "is code"},
		{"comprehension", "[i for i in range(3)]", ErrNotLiteral, "is code"},
		{"set of a list", "set([1])", ErrNotLiteral, "is code"},
		{"unhashable key", "{[1]: 2}", ErrNotLiteral, "unhashable"},
		{"comment", "1 # )", ErrNotLiteral, "comment"},
		{"NUL", "1\x00", ErrNotLiteral, "null bytes"},
		{"empty", " ", ErrEmptyValue, "value is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckValue(ctx, pool, tc.value)
			if tc.want == nil {
				if err != nil {
					t.Errorf("CheckValue(%q): %v, want nil", tc.value, err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("CheckValue(%q): %v, want %v saying %q", tc.value, err, tc.want, tc.says)
			}
		})
	}
	var se *SyntaxError
	if err := CheckValue(ctx, pool, "(1,"); !errors.As(err, &se) {
		t.Errorf("CheckValue((1,): %v, want a *SyntaxError", err)
	}
}

func TestPassFailRefusesOutput(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	prep, err := (&Builder{Runner: pool}).Build(ctx, Source{Demo: "median"}, Options{Mode: rank.PassFail}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := Start(prep, pool)
	q, _ := c.Question()
	if q.CanOutput {
		t.Error("CanOutput in PassFail mode")
	}
	err = c.Answer(ctx, q.Test, "output", "2")
	if !errors.Is(err, session.ErrBadAnswer) || !errors.Is(err, ErrNeedsOutputMode) || strings.Contains(err.Error(), "--") {
		t.Errorf("error %v: want ErrBadAnswer and ErrNeedsOutputMode, naming no flag", err)
	}
}

func TestUndoStopAndReload(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	prep, err := (&Builder{Runner: pool}).Build(ctx, Source{Demo: "first_missing"}, Options{Mode: rank.Output, MaxQuestions: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := Start(prep, pool)
	if err := c.Undo(); err == nil {
		t.Error("undo with no answer: no error")
	}
	s0 := c.State("x")
	q, _ := c.Question()
	if err := c.Answer(ctx, q.Test, "fail", ""); err != nil {
		t.Fatal(err)
	}
	s1 := c.State("x")
	if s1.Remaining.Samples >= s0.Remaining.Samples || len(s1.History) != 1 {
		t.Fatalf("after one answer: %+v", s1.Remaining)
	}
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := Load(data, pool)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(s1, c2.State("x")); d != "" {
		t.Errorf("reloaded state differs (-want +got):\n%s", d)
	}
	c2.Stop()
	if s := c2.State("x"); !s.Done || s.Stop != StopByUser || s.Question != nil {
		t.Errorf("after stop: done %v stop %q question %v", s.Done, s.Stop, s.Question)
	}
	if err := c2.Answer(ctx, q.Test, "pass", ""); !errors.Is(err, ErrFinished) {
		t.Errorf("answer after stop: %v, want ErrFinished", err)
	}
	if err := c2.Undo(); err != nil { // resumes
		t.Fatal(err)
	}
	if err := c2.Undo(); err != nil { // takes back the answer
		t.Fatal(err)
	}
	if d := cmp.Diff(s0, c2.State("x")); d != "" {
		t.Errorf("after undo (-want +got):\n%s", d)
	}
}

func TestStubs(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	tests := []struct {
		name, what, src string
		want            Stub
		wantLine        int
	}{
		{name: "demo stub", what: "spec", src: "import re\n\n\ndef f(x: int) -> int:\n    \"\"\"Add one.\"\"\"\n",
			want: Stub{Context: "import re", Signature: "def f(x: int) -> int:", Docstring: "Add one.", EntryPoint: "f"}},
		{name: "def line only", what: "spec", src: "def g(a, b):\n",
			want: Stub{Signature: "def g(a, b):", EntryPoint: "g"}},
		{name: "from prompt", what: "signature", src: StubFromPrompt("Return \"\"\"x\"\"\" twice.\nReally.", "def h(x: str) -> str"),
			want: Stub{Signature: "def h(x: str) -> str:", Docstring: "Return \"\"\"x\"\"\" twice.\nReally.", EntryPoint: "h"}},
		{name: "syntax error", what: "spec file s.py", src: "import re\n\ndef f(x)\n    \"\"\"Doc.\"\"\"\n", wantLine: 3},
		{name: "bad signature", what: "signature", src: StubFromPrompt("Doc.", "def f(x int)"), wantLine: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseStub(ctx, pool, tc.what, tc.src)
			if tc.wantLine > 0 {
				var se *SyntaxError
				if !errors.As(err, &se) || se.Line != tc.wantLine || !strings.Contains(err.Error(), tc.what) {
					t.Fatalf("error %v, want a syntax error on line %d naming %q", err, tc.wantLine, tc.what)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.want.Source = tc.src
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestBuildNeedsModel(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	b := &Builder{Runner: pool}
	_, err := b.Build(ctx, Source{Spec: "def f(x):\n    \"\"\"Double x.\"\"\"\n", SpecName: "f.py"}, Options{}, nil)
	if !errors.Is(err, ErrNoModel) {
		t.Errorf("spec without model: %v, want ErrNoModel", err)
	}
	_, err = b.Build(ctx, Source{Spec: "def f(x:\n", SpecName: "f.py"}, Options{}, nil)
	var se *SyntaxError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "spec file f.py") {
		t.Errorf("broken spec: %v, want a SyntaxError naming the file", err)
	}
	for _, src := range []Source{{}, {Demo: "median", Task: "mbpp/2"}, {Prompt: "x"}} {
		if _, err := b.Build(ctx, src, Options{}, nil); err == nil {
			t.Errorf("Build(%+v): no error", src)
		}
	}
}

func TestPytestFile(t *testing.T) {
	got, n := PytestFile("f", "f", []execute.Test{
		{Code: "assert f(1) == 2"},
		{Setup: "import math\nx = 2", Code: "assert f(x) == 3"},
	}, []execute.Test{{Code: "assert f(0) == 5"}})
	want := `"""Tests of f approved with ticoder."""
from f import *  # noqa: F401,F403


def test_f_1():
    assert f(1) == 2


def test_f_2():
    import math
    x = 2
    assert f(x) == 3


# Tests you rejected (they do not match your intent):
#   assert f(0) == 5
` + runWithoutPytest
	if n != 2 {
		t.Errorf("%d tests, want 2", n)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestPytestFileRunsWithoutPytest runs an exported test file with Debian's
// python3 and no pytest: its exit status says whether the tests pass.
func TestPytestFileRunsWithoutPytest(t *testing.T) {
	tests := []execute.Test{{Code: "assert f(1) == 2"}, {Code: "assert f(2) == 3"}}
	for _, c := range []struct {
		code, want string
		status     int
	}{
		{"def f(x):\n    return x + 1\n", "2 of 2 tests passed", 0},
		{"def f(x):\n    return 2\n", "1 of 2 tests passed", 1},
	} {
		dir := t.TempDir()
		src, _ := PytestFile("f", "f", tests, nil)
		if err := os.WriteFile(filepath.Join(dir, "f.py"), []byte(c.code), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "test_f.py"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("/usr/bin/python3", "test_f.py")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if status != c.status || !strings.Contains(string(out), c.want) {
			t.Errorf("python3 test_f.py: status %d, output %q; want %d and %q", status, out, c.status, c.want)
		}
	}
}

func TestTaskSourceNamesOnlyKnownDatasets(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/private.jsonl"
	if err := os.WriteFile(path, []byte(`{"task_id": "x/1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // "private.jsonl" is now a readable relative path
	b := &Builder{Runner: testPool(t)}
	_, err := b.Build(context.Background(), Source{Task: "private.jsonl/x/1"}, Options{Mode: rank.PassFail}, nil)
	if !errors.Is(err, ErrBadSource) || !strings.Contains(err.Error(), "unknown dataset") {
		t.Errorf("a web-style builder read a dataset file: %v", err)
	}
}
