package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/rank"
)

// reprComparer compares returned-value reprs with the answer's value as
// strings. It stands in for the sandbox in unit tests only.
type reprComparer struct {
	// values[program][input] is the repr the program's call returns.
	values map[string]map[string]string
}

func (rc reprComparer) Equal(_ context.Context, programs []string, test execute.Test, value string) ([]bool, error) {
	if value == "BAD" {
		return nil, ErrBadValue
	}
	out := make([]bool, len(programs))
	for i, p := range programs {
		v, ok := rc.values[p][test.Input]
		out[i] = ok && v == value
	}
	return out, nil
}

// build makes a spec from rows of cells (P, F, E, "F=v" for a failing call
// returning v, "P=v"); every test is a call f(j) == j.
func build(t *testing.T, mode rank.Mode, counts []int, rows ...string) (Spec, reprComparer) {
	t.Helper()
	rc := reprComparer{values: map[string]map[string]string{}}
	spec := Spec{Task: Task{ID: "t", EntryPoint: "f"}, Mode: mode, Select: "discr", Rank: "passing"}
	for c, row := range rows {
		prog := fmt.Sprintf("def f(x):\n    return %d\n", c)
		rc.values[prog] = map[string]string{}
		spec.Candidates = append(spec.Candidates, extract.Candidate{Program: prog, Count: counts[c], First: c})
		var rs []execute.Result
		for j, cell := range strings.Fields(row) {
			code, val, has := strings.Cut(cell, "=")
			r := execute.Result{Value: val, HasValue: has}
			switch code {
			case "P":
				r.Outcome = execute.Pass
			case "F":
				r.Outcome = execute.Fail
			case "E":
				r.Outcome = execute.Error
			default:
				t.Fatalf("bad cell %q", cell)
			}
			rs = append(rs, r)
			input := fmt.Sprintf("f(%d)", j)
			if has {
				rc.values[prog][input] = val
			}
			if c == 0 {
				spec.Tests = append(spec.Tests, extract.Test{Test: execute.Test{
					Code: fmt.Sprintf("assert %s == %d", input, j), Input: input, Expected: fmt.Sprint(j),
				}, Count: 1, First: j})
			}
		}
		spec.Results = append(spec.Results, rs)
	}
	return spec, rc
}

func start(t *testing.T, spec Spec, cmp Comparer) *Session {
	t.Helper()
	s, err := New(spec, cmp)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func ask(t *testing.T, s *Session) Question {
	t.Helper()
	q, ok := s.Next()
	if !ok {
		t.Fatalf("no question; status %v", s.Status())
	}
	return q
}

func TestPruning(t *testing.T) {
	// Test 0 is the only splitting test. Candidates: 0 passes, 1 fails
	// returning 5, 2 fails returning 7, 3 errs, 4 fails returning 5.
	rows := []string{"P=0 P", "F=5 P", "F=7 P", "E P", "F=5 P"}
	tests := []struct {
		name    string
		mode    rank.Mode
		answer  Answer
		protect bool
		want    []int
	}{
		{"pass keeps passing", rank.PassFail, Answer{Verdict: Pass}, false, []int{0}},
		{"fail drops passing", rank.PassFail, Answer{Verdict: Fail}, false, []int{1, 2, 3, 4}},
		{"undefined keeps all", rank.PassFail, Answer{Verdict: Undefined}, false, []int{0, 1, 2, 3, 4}},
		{"output keeps equal values", rank.Output, Answer{Verdict: Output, Value: "5"}, false, []int{1, 4}},
		{"output of the expected value", rank.Output, Answer{Verdict: Output, Value: "0"}, false, []int{0}},
		// No candidate agrees: the answer is kept as evidence, and all
		// remain, each disagreeing with one answer (Conflict).
		{"output nobody returns", rank.Output, Answer{Verdict: Output, Value: "9"}, false, []int{0, 1, 2, 3, 4}},
		{"pass in output mode", rank.Output, Answer{Verdict: Pass}, false, []int{0}},
		{"protect-correct keeps correct", rank.PassFail, Answer{Verdict: Pass}, true, []int{0, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec, rc := build(t, tc.mode, []int{1, 1, 1, 1, 1}, rows...)
			if tc.protect {
				spec.ProtectCorrect = true
				spec.Correct = []bool{false, false, true, false, false}
			}
			s := start(t, spec, rc)
			q := ask(t, s)
			if q.Test != 0 {
				t.Fatalf("asked test %d, want 0", q.Test)
			}
			if err := s.Answer(context.Background(), q.Test, tc.answer); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, s.Alive()); diff != "" {
				t.Errorf("remaining (-want +got):\n%s", diff)
			}
			if want := map[bool]int{true: 1}[tc.answer.Value == "9"]; s.Conflict() != want {
				t.Errorf("conflict %d, want %d", s.Conflict(), want)
			}
			if diff := cmp.Diff([]int{1}, s.Unasked()); diff != "" {
				t.Errorf("unasked (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAnswerErrors(t *testing.T) {
	ctx := context.Background()
	spec, rc := build(t, rank.PassFail, []int{1, 1}, "P F", "F P")
	spec.Tests[1].Input, spec.Tests[1].Expected = "", ""
	s := start(t, spec, rc)
	if err := s.Answer(ctx, 0, Answer{Verdict: Pass}); !errors.Is(err, ErrNotAsked) {
		t.Errorf("answer before any question: %v, want ErrNotAsked", err)
	}
	q := ask(t, s)
	if err := s.Answer(ctx, q.Test+1, Answer{Verdict: Pass}); !errors.Is(err, ErrNotAsked) {
		t.Errorf("answer to another test: %v, want ErrNotAsked", err)
	}
	if err := s.Answer(ctx, q.Test, Answer{Verdict: Output, Value: "1"}); !errors.Is(err, ErrBadAnswer) {
		t.Errorf("output in PassFail mode: %v, want ErrBadAnswer", err)
	}
	if err := s.Undo(); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("undo with no answers: %v, want ErrNothingToUndo", err)
	}

	spec.Mode = rank.Output
	s = start(t, spec, rc)
	q = ask(t, s)
	if err := s.Answer(ctx, q.Test, Answer{Verdict: Output, Value: "BAD"}); !errors.Is(err, ErrBadValue) {
		t.Errorf("unusable value: %v, want ErrBadValue", err)
	}
	if err := s.Answer(ctx, q.Test, Answer{Verdict: Undefined}); err != nil {
		t.Fatal(err)
	}
	// Test 1 is not a call: output is refused.
	s = start(t, spec, rc)
	s.pending = &Question{Test: 1}
	if err := s.Answer(ctx, 1, Answer{Verdict: Output, Value: "1"}); !errors.Is(err, ErrBadAnswer) {
		t.Errorf("output for a non-call test: %v, want ErrBadAnswer", err)
	}
	if len(s.History()) != 0 || len(s.Alive()) != 2 {
		t.Error("a refused answer changed the session")
	}
}

func encode(t *testing.T, s *Session) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestUndoRestoresExactly(t *testing.T) {
	ctx := context.Background()
	spec, rc := build(t, rank.Output, []int{3, 1, 2, 1}, "P F=1 P", "F=2 P F=1", "P P E", "F=2 F=3 P")
	s := start(t, spec, rc)
	q1 := ask(t, s)
	before1 := encode(t, s)
	if err := s.Answer(ctx, q1.Test, Answer{Verdict: Output, Value: "2"}); err != nil {
		t.Fatal(err)
	}
	q2 := ask(t, s)
	before2 := encode(t, s)
	if err := s.Answer(ctx, q2.Test, Answer{Verdict: Fail}); err != nil {
		t.Fatal(err)
	}
	if err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before2, encode(t, s)); diff != "" {
		t.Errorf("after one undo (-want +got):\n%s", diff)
	}
	ask(t, s) // the pending question again; a new Next must not change it
	if err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before1, encode(t, s)); diff != "" {
		t.Errorf("after two undos (-want +got):\n%s", diff)
	}
	if s.Asked() != 0 {
		t.Errorf("Asked = %d after undoing everything", s.Asked())
	}
}

func TestStops(t *testing.T) {
	ctx := context.Background()
	t.Run("max questions", func(t *testing.T) {
		spec, rc := build(t, rank.PassFail, []int{1, 1, 1, 1}, "P P", "P F", "F P", "F F")
		spec.MaxQuestions = 1
		s := start(t, spec, rc)
		q := ask(t, s)
		if err := s.Answer(ctx, q.Test, Answer{Verdict: Undefined}); err != nil {
			t.Fatal(err)
		}
		if _, ok := s.Next(); ok || s.Status() != MaxQuestions {
			t.Errorf("status %v, want max-questions", s.Status())
		}
	})
	t.Run("one class", func(t *testing.T) {
		spec, rc := build(t, rank.PassFail, []int{1, 1, 1}, "P P", "F P", "F P")
		s := start(t, spec, rc)
		q := ask(t, s)
		if err := s.Answer(ctx, q.Test, Answer{Verdict: Fail}); err != nil {
			t.Fatal(err)
		}
		if _, ok := s.Next(); ok || s.Status() != OneClass {
			t.Errorf("status %v, want one-class", s.Status())
		}
	})
	t.Run("no split", func(t *testing.T) {
		// Two classes that differ only by an error vs a fail: no test splits.
		spec, rc := build(t, rank.PassFail, []int{1, 1}, "F P", "E P")
		s := start(t, spec, rc)
		if _, ok := s.Next(); ok || s.Status() != NoSplit {
			t.Errorf("status %v, want no-split", s.Status())
		}
	})
	t.Run("empty", func(t *testing.T) {
		spec, rc := build(t, rank.PassFail, []int{1, 1}, "P", "F")
		s := start(t, spec, rc)
		q := ask(t, s)
		if err := s.Answer(ctx, q.Test, Answer{Verdict: Output, Value: "x"}); err == nil {
			t.Fatal("output accepted in PassFail mode")
		}
		s.spec.Mode = rank.Output
		if err := s.Answer(ctx, q.Test, Answer{Verdict: Output, Value: "nothing"}); err != nil {
			t.Fatal(err)
		}
		// Nobody returns it: both remain, each against one answer.
		if s.Status() != NoSplit || len(s.Suggestions()) != 2 || s.Conflict() != 1 {
			t.Errorf("status %v with %d suggestions, conflict %d; want no-split, 2, 1", s.Status(), len(s.Suggestions()), s.Conflict())
		}
	})
	t.Run("tests but no candidates", func(t *testing.T) {
		spec, _ := build(t, rank.Output, []int{1}, "P F=1")
		spec.Candidates, spec.Results = nil, nil
		s := start(t, spec, nil)
		if _, ok := s.Next(); ok || s.Status() != OneClass || len(s.Suggestions()) != 0 || len(s.Unasked()) != 2 {
			t.Errorf("status %v, %d suggestions, %d unasked; want one-class, none, 2", s.Status(), len(s.Suggestions()), len(s.Unasked()))
		}
	})
}

func TestJSONRoundTripMidway(t *testing.T) {
	ctx := context.Background()
	spec, rc := build(t, rank.Output, []int{2, 1, 1, 4, 1}, "P F=1 P P", "F=2 P F=1 P", "P P E F=9", "F=2 F=3 P P", "P P P P")
	spec.Select, spec.Rank, spec.Seed, spec.MaxQuestions = "random", "codet", 7, 4
	s := start(t, spec, rc)
	q := ask(t, s)
	if err := s.Answer(ctx, q.Test, Answer{Verdict: Pass}); err != nil {
		t.Fatal(err)
	}
	ask(t, s) // pending question travels too
	data := encode(t, s)
	r, err := Load([]byte(data), rc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(data, encode(t, r)); diff != "" {
		t.Fatalf("re-encoded session differs (-want +got):\n%s", diff)
	}
	// Both continue identically.
	for _, x := range []*Session{s, r} {
		q, _ := x.Next()
		if err := x.Answer(ctx, q.Test, Answer{Verdict: Fail}); err != nil {
			t.Fatal(err)
		}
		x.Next()
	}
	if diff := cmp.Diff(encode(t, s), encode(t, r)); diff != "" {
		t.Errorf("resumed session diverged (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(s.Suggestions(), r.Suggestions()); diff != "" {
		t.Errorf("suggestions differ (-want +got):\n%s", diff)
	}
	if _, err := Load([]byte(`{"version":99}`), rc); err == nil {
		t.Error("Load accepted an unknown version")
	}
	if _, err := Load([]byte(strings.Replace(data, `"alive":[`, `"alive":[77,`, 1)), rc); err == nil {
		t.Error("Load accepted a corrupt set of candidates")
	}
}

func TestApprovedRejected(t *testing.T) {
	ctx := context.Background()
	spec, rc := build(t, rank.Output, []int{1, 1, 1, 1}, "P P F=1", "F=1 P P", "P F=4 P", "E F=4 F=2")
	spec.Select = "infogain"
	s := start(t, spec, rc)
	answers := map[int]Answer{0: {Verdict: Pass}, 1: {Verdict: Output, Value: "4"}, 2: {Verdict: Fail}}
	var order []int
	for {
		q, ok := s.Next()
		if !ok {
			break
		}
		order = append(order, q.Test)
		if err := s.Answer(ctx, q.Test, answers[q.Test]); err != nil {
			t.Fatal(err)
		}
	}
	var approved, rejected []string
	for _, x := range s.Approved() {
		approved = append(approved, x.Code)
	}
	for _, x := range s.Rejected() {
		rejected = append(rejected, x.Code)
	}
	var wantA, wantR []string
	for _, j := range order {
		switch answers[j].Verdict {
		case Pass:
			wantA = append(wantA, fmt.Sprintf("assert f(%d) == %d", j, j))
		case Output:
			wantA = append(wantA, fmt.Sprintf("assert f(%d) == %s", j, answers[j].Value))
			wantR = append(wantR, fmt.Sprintf("assert f(%d) == %d", j, j))
		case Fail:
			wantR = append(wantR, fmt.Sprintf("assert f(%d) == %d", j, j))
		}
	}
	if diff := cmp.Diff(wantA, approved); diff != "" {
		t.Errorf("approved (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantR, rejected); diff != "" {
		t.Errorf("rejected (-want +got):\n%s", diff)
	}
}

func TestParseAnswer(t *testing.T) {
	tests := []struct {
		in      string
		want    Answer
		wantErr bool
	}{
		{"pass", Answer{Verdict: Pass}, false},
		{" Y ", Answer{Verdict: Pass}, false},
		{"no", Answer{Verdict: Fail}, false},
		{"undefined", Answer{Verdict: Undefined}, false},
		{"output [1, 2]", Answer{Verdict: Output, Value: "[1, 2]"}, false},
		{"o 'a b'", Answer{Verdict: Output, Value: "'a b'"}, false},
		{"output", Answer{}, true},
		{"pass now", Answer{}, true},
		{"maybe", Answer{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseAnswer(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{"pass", "fail", "undefined", "output 1", "o  [1,\n2]", "", "output"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAnswer(s)
		if err != nil {
			return
		}
		b, err := ParseAnswer(a.String())
		if err != nil || b != a {
			t.Errorf("ParseAnswer(%q) = %v, which reads back as %v, %v", s, a, b, err)
		}
	})
}

// TestAnswersAreEvidence: an answer that no remaining candidate agrees with
// does not empty the pool; the candidates that agree with the most answers
// remain (here one pruned by the first answer comes back), Conflict counts
// the answers they disagree with, Undo and a JSON round trip keep it all,
// and a session written before answers were kept as evidence still loads.
func TestAnswersAreEvidence(t *testing.T) {
	ctx := context.Background()
	// Tests f(0) == 0 and f(1) == 1. Candidate 0 returns 9 and 1, 1 and 2
	// return 0 and then 5 or 6, 3 returns 8 and 7.
	spec, rc := build(t, rank.Output, []int{1, 1, 1, 1}, "F=9 P=1", "P=0 F=5", "P=0 F=6", "F=8 F=7")
	s := start(t, spec, rc)
	askTest := func(test int) {
		q := s.question(test, 0, "")
		s.pending = &q
	}
	askTest(0)
	if err := s.Answer(ctx, 0, Answer{Verdict: Pass}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1, 2}, s.Alive()); diff != "" || s.Conflict() != 0 {
		t.Fatalf("after a consistent answer: remaining (-want +got):\n%s conflict %d", diff, s.Conflict())
	}
	askTest(1)
	if err := s.Answer(ctx, 1, Answer{Verdict: Output, Value: "1"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{0, 1, 2}, s.Alive()); diff != "" || s.Conflict() != 1 {
		t.Errorf("after a contradicting answer: remaining (-want +got):\n%s conflict %d, want 1", diff, s.Conflict())
	}
	if got := len(s.Approved()); got != 2 {
		t.Errorf("%d approved tests, want both answers", got)
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Load(data, rc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s.Alive(), r.Alive()); diff != "" || r.Conflict() != 1 {
		t.Errorf("loaded: remaining (-want +got):\n%s conflict %d", diff, r.Conflict())
	}
	if err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1, 2}, s.Alive()); diff != "" || s.Conflict() != 0 {
		t.Errorf("after undo: remaining (-want +got):\n%s conflict %d", diff, s.Conflict())
	}

	// The same history as an older ticoder wrote it: no Agree, and the
	// pool that pruning left.
	var st map[string]any
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	for _, h := range st["history"].([]any) {
		delete(h.(map[string]any), "agree")
	}
	st["history"] = st["history"].([]any)[:1]
	st["alive"] = []int{1, 2}
	st["pending"] = nil
	old, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	o, err := Load(old, rc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1, 2}, o.Alive()); diff != "" || o.Conflict() != 0 {
		t.Errorf("old session: remaining (-want +got):\n%s conflict %d", diff, o.Conflict())
	}
	q := o.question(1, 0, "")
	o.pending = &q
	if err := o.Answer(ctx, 1, Answer{Verdict: Output, Value: "5"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1}, o.Alive()); diff != "" {
		t.Errorf("old session answered: remaining (-want +got):\n%s", diff)
	}
}

// TestAddCandidates: candidates added after a conflict are judged by every
// answer so far, as if they had been there all along; one that agrees with
// all of them is then the only one left, and Undo keeps it.
func TestAddCandidates(t *testing.T) {
	ctx := context.Background()
	spec, rc := build(t, rank.Output, []int{1, 1, 1}, "P=0 F=5", "P=0 F=6", "F=8 F=7")
	s := start(t, spec, rc)
	for _, a := range []struct {
		test   int
		answer Answer
	}{{0, Answer{Verdict: Pass}}, {1, Answer{Verdict: Output, Value: "1"}}} {
		q := s.question(a.test, 0, "")
		s.pending = &q
		if err := s.Answer(ctx, a.test, a.answer); err != nil {
			t.Fatal(err)
		}
	}
	if s.Conflict() != 1 {
		t.Fatalf("conflict %d, want 1", s.Conflict())
	}
	more, _ := build(t, rank.Output, []int{2, 1}, "P=0 P=1", "F=3 P=1")
	for i := range more.Candidates {
		more.Candidates[i].Program = fmt.Sprintf("def f(x):\n    return %d\n", 10+i)
		rc.values[more.Candidates[i].Program] = map[string]string{"f(0)": "0", "f(1)": "1"}
	}
	rc.values[more.Candidates[1].Program]["f(0)"] = "3"
	if err := s.AddCandidates(ctx, more.Candidates, more.Results[:1], nil); err == nil {
		t.Error("rows missing: accepted")
	}
	if err := s.AddCandidates(ctx, more.Candidates, more.Results, nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{3}, s.Alive()); diff != "" || s.Conflict() != 0 {
		t.Errorf("remaining (-want +got):\n%s conflict %d, want 0", diff, s.Conflict())
	}
	if err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{0, 1, 3}, s.Alive()); diff != "" {
		t.Errorf("after undo: remaining (-want +got):\n%s", diff)
	}
}
