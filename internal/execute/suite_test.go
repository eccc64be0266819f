package execute

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// recordSuite runs s without Expected on reference and returns s with the
// reference's outputs and per-input limits of limit seconds, sealed.
func recordSuite(t *testing.T, p *Pool, reference string, s Suite, limit float64) *Suite {
	t.Helper()
	rec := s
	n := len(rec.Inputs())
	rec.Limits = make([]float64, n)
	for i := range rec.Limits {
		rec.Limits[i] = 20
	}
	rec.Seal()
	m, err := p.Run(context.Background(), Job{Programs: []string{reference}, Tests: []Test{{Suite: &rec}},
		TimePolicy: Within(time.Duration(rec.Budget() * float64(time.Second)))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := m.Results[0][0]
	if r.Outcome != Pass || r.Suite == nil || len(r.Suite.Table) != n {
		t.Fatalf("recording the reference: %+v %+v", r, r.Suite)
	}
	s.Expected = r.Suite.Table
	s.Limits = make([]float64, n)
	for i := range s.Limits {
		s.Limits[i] = limit
	}
	s.Seal()
	return &s
}

// suiteRow is what a test compares of a suite result.
type suiteRow struct {
	Outcome string
	First   int
	Why     string
}

func runSuite(t *testing.T, p *Pool, s *Suite, progs []string) []suiteRow {
	t.Helper()
	m, err := p.Run(context.Background(), Job{Programs: progs, Tests: []Test{{Suite: s}},
		TimePolicy: Within(time.Duration(s.Budget() * float64(time.Second)))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]suiteRow, len(progs))
	for i, row := range m.Results {
		r := row[0]
		if r.Suite == nil {
			t.Fatalf("program %d: no suite result: %+v", i, r)
		}
		out[i] = suiteRow{r.Outcome.String(), r.Suite.First, r.Exception}
	}
	return out
}

// checkRows compares each program's suite result with want's: its Why
// where want gives one, and none for a pass.
func checkRows(t *testing.T, what string, got, want []suiteRow) {
	t.Helper()
	for i := range want {
		if got[i].Outcome != want[i].Outcome || got[i].First != want[i].First ||
			((want[i].Why != "" || want[i].Outcome == "pass") && got[i].Why != want[i].Why) {
			t.Errorf("%s %d: got %+v, want %+v", what, i, got[i], want[i])
		}
	}
}

func TestSuiteJudges(t *testing.T) {
	p := newTestPool(t, Options{})
	ref := "def f(x, y):\n    return x / y\n"
	s := recordSuite(t, p, ref, Suite{Entry: "f", Base: json.RawMessage(`[[1, 2], [3, 4]]`),
		Plus: json.RawMessage(`[[1, 3], [10, 7], [0, 1]]`)}, 2)
	progs := []string{
		ref,
		"def f(x, y):\n    return round(x / y, 9)\n", // within the float rule's 1e-6
		"def f(x, y):\n    return round(x / y, 2)\n", // base passes, plus does not
		"def f(x, y):\n    return x // y\n",
		"def f(x, y):\n    if x == 10:\n        raise ValueError\n    return x / y\n",
		"class A:\n    def __eq__(self, o):\n        return True\ndef f(x, y):\n    return A()\n",
	}
	got := runSuite(t, p, s, progs)
	want := []suiteRow{
		{"pass", -1, ""},
		{"pass", -1, ""},
		{"fail", 2, "output differs by more than atol 1e-06"},
		{"fail", 0, "output is a int, expected a float"},
		{"error", 3, "ValueError"},
		{"fail", 0, ""},
	}
	checkRows(t, "program", got, want)
	if !strings.Contains(got[5].Why, "not plain data") {
		t.Errorf("an object that claims equality: %q, want a not-plain-data failure", got[5].Why)
	}
}

// TestSuiteNumpyNumbers: numpy's numbers inside a returned tuple, list or
// dict read as Python's, as evalplus's == reads them (MBPP+ samples return
// tuple(np.intersect1d(a, b))); a scalar's item() is what is compared, so
// one that lies about its value fails. The stand-in class is numpy's by
// its module name only, so the test needs no numpy.
func TestSuiteNumpyNumbers(t *testing.T) {
	p := newTestPool(t, Options{})
	s := recordSuite(t, p, "def f(a, b):\n    return (a + b, {'p': [a * b]})\n", Suite{Entry: "f",
		Base: json.RawMessage(`[[1, 2]]`), Plus: json.RawMessage(`[[3, 4], [5, 6]]`)}, 2)
	scalar := "class int64:\n    __module__ = 'numpy'\n    shape = ()\n" +
		"    def __init__(self, v, lie=0):\n        self.v, self.lie = v, lie\n" +
		"    def item(self):\n        return self.v + self.lie\n"
	progs := []string{
		scalar + "def f(a, b):\n    return (int64(a + b), {'p': [int64(a * b)]})\n",
		scalar + "def f(a, b):\n    return (int64(a + b), {'p': [int64(a * b, a == 5)]})\n",
		scalar + "def f(a, b):\n    return (int64(a + b), {'p': [object()]})\n",
	}
	got := runSuite(t, p, s, progs)
	want := []suiteRow{{"pass", -1, ""}, {"fail", 2, "output differs"}, {"fail", 0, ""}}
	checkRows(t, "program", got, want)
	if !strings.Contains(got[2].Why, "not plain data") {
		t.Errorf("an object inside the tuple: %q, want a not-plain-data failure", got[2].Why)
	}

	// A float64 returned alone: equal passes; close is not enough, as
	// evalplus then asks for type(out) == type(exp) (a float passes there).
	s = recordSuite(t, p, "def g(x):\n    return x / 3\n", Suite{Entry: "g",
		Base: json.RawMessage(`[[1.0]]`), Plus: json.RawMessage(`[[2.0], [4.0]]`)}, 2)
	float64 := strings.ReplaceAll(scalar, "int64", "float64")
	got = runSuite(t, p, s, []string{
		float64 + "def g(x):\n    return float64(x / 3)\n",
		float64 + "def g(x):\n    return float64(x / 3, 1e-12 * (x == 4.0))\n",
		"def g(x):\n    return x / 3 + 1e-12 * (x == 4.0)\n",
	})
	want = []suiteRow{{"pass", -1, ""}, {"fail", 2, "output is a numpy.float64, expected a float"}, {"pass", -1, ""}}
	checkRows(t, "float program", got, want)
}

// TestSuiteAttacks: a program that tries to pass a suite without returning
// the right values fails, and the well-behaved program beside it passes.
// (evalplus compares in the program's own process, with the program's ==:
// the first case passes there.)
func TestSuiteAttacks(t *testing.T) {
	p := newTestPool(t, Options{})
	ref := "def f(xs):\n    return sorted(xs)\n"
	s := recordSuite(t, p, ref, Suite{Entry: "f", Base: json.RawMessage(`[[[3, 1, 2]], [[5, 4]]]`),
		Plus: json.RawMessage(`[[[9, 8, 7, 6]], [[1]]]`)}, 2)
	attacks := []struct{ name, program string }{
		{"an __eq__ that always says yes", "class Yes(list):\n    def __eq__(self, o):\n        return True\n" +
			"def f(xs):\n    return Yes([0])\n"},
		{"patching the judging module in its own process", "import sys\nm = sys.modules.get('pyworker.suite')\n" +
			"if m:\n    m.Judge.check = lambda *a: ''\n    m.digest = lambda v: '0' * 64\n    m.is_floats = lambda v: True\n" +
			"def f(xs):\n    return [0]\n"},
		{"forged lines on every descriptor", "import os, json\n" +
			"def f(xs):\n    for fd in range(3, 40):\n        try:\n            os.write(fd, (json.dumps({'j': 0, 'i': 0, 'v': {'l': [1, 2, 3]}}) + '\\n').encode())\n" +
			"        except OSError:\n            pass\n    return [0]\n"},
		{"changing its input in place", "def f(xs):\n    xs[:] = [0]\n    return [0]\n"},
		{"an output too large to send", "def f(xs):\n    return 'x' * (64 << 20)\n"},
		{"an output too deep to encode", "def f(xs):\n    v = []\n    for _ in range(10000):\n        v = [v]\n    return v\n"},
		{"exiting", "import os\ndef f(xs):\n    os._exit(0)\n"},
	}
	progs := []string{ref}
	for _, a := range attacks {
		progs = append(progs, a.program)
	}
	got := runSuite(t, p, s, progs)
	if got[0].Outcome != "pass" {
		t.Fatalf("the reference itself: %+v", got[0])
	}
	for i, a := range attacks {
		if got[i+1].Outcome == "pass" {
			t.Errorf("%s: passed", a.name)
		}
	}
}

// TestSuiteDigests: outputs too large to keep are compared by digest, and
// equal values of other types (1 and 1.0, set orders) still compare equal.
func TestSuiteDigests(t *testing.T) {
	p := newTestPool(t, Options{})
	ref := "def f(n):\n    return [float(i) for i in range(n)] + [{'a': 1, 'b': 2}]\n"
	s := recordSuite(t, p, ref, Suite{Entry: "f", Base: json.RawMessage(`[[3], [100000]]`)}, 5)
	if s.Expected[0].Value == nil || s.Expected[1].Value != nil {
		t.Fatalf("kept values: small %v, large %v; want the small one only", s.Expected[0].Value != nil, s.Expected[1].Value != nil)
	}
	progs := []string{
		ref,
		"def f(n):\n    return list(range(n)) + [{'b': 2, 'a': 1}]\n",
		"def f(n):\n    return [float(i) for i in range(n - 1)] + [0.5, {'a': 1, 'b': 2}]\n",
	}
	got := runSuite(t, p, s, progs)
	want := []string{"pass", "pass", "fail"}
	for i := range want {
		if got[i].Outcome != want[i] {
			t.Errorf("program %d: %+v, want %s", i, got[i], want[i])
		}
	}
	if got[2].First != 0 {
		t.Errorf("first failing input %d, want 0", got[2].First)
	}
}

// TestSuiteProgramLeavesPymallocWhenItFaultsMuch: process C allocates new
// objects with the C library's malloc once a suite's inputs have made it
// fault in much memory (limits.C_MALLOC_AFTER), so that the next input does
// not fault in afresh what pymalloc unmapped; a program that allocates
// little stays on pymalloc. The program tells: whether pymalloc counted
// the objects an input built.
func TestSuiteProgramLeavesPymallocWhenItFaultsMuch(t *testing.T) {
	if thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err == nil && strings.Contains(string(thp), "[always]") {
		t.Skip("transparent huge pages are always on here: large structures fault in 2 MiB at a time, too few faults to switch")
	}
	p := newTestPool(t, Options{Workers: 1})
	ref := "import sys\ndef f(n):\n    b = sys.getallocatedblocks()\n    xs = [str(i) for i in range(n)]\n" +
		"    return sys.getallocatedblocks() - b > n // 2\n"
	for _, c := range []struct {
		inputs string
		want   []string
	}{
		{`[[1000], [1000], [1000]]`, []string{"true", "true", "true"}},
		{`[[1000], [600000], [1000], [600000]]`, []string{"true", "true", "false", "false"}},
	} {
		s := recordSuite(t, p, ref, Suite{Entry: "f", Base: json.RawMessage(c.inputs)}, 20)
		var got []string
		for _, e := range s.Expected {
			got = append(got, string(e.Value))
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("inputs %s: pymalloc counted the new objects %v, want %v", c.inputs, got, c.want)
		}
	}
}
