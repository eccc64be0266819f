package execute

import (
	"context"
	"encoding/json"
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
		Timeout: time.Duration(rec.Budget() * float64(time.Second))}, nil)
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
		Timeout: time.Duration(s.Budget() * float64(time.Second))}, nil)
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
	for i := range want {
		if got[i].Outcome != want[i].Outcome || got[i].First != want[i].First ||
			(want[i].Why != "" && got[i].Why != want[i].Why) {
			t.Errorf("program %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if !strings.Contains(got[5].Why, "not plain data") {
		t.Errorf("an object that claims equality: %q, want a not-plain-data failure", got[5].Why)
	}
}
