package inputs

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/session"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestSynthesize builds the synthesized questions of a live session: a
// candidate that loops on small inputs is called on MaxTimeouts of them and
// not on the rest (timeouts, execute.NotRun); the other candidate answers
// every call; the negated mutations of positive examples are atypical.
func TestSynthesize(t *testing.T) {
	one := func(v string) []execute.Result {
		return []execute.Result{{Outcome: execute.Pass, Value: v, HasValue: true}}
	}
	spec := session.Spec{
		Candidates: []extract.Candidate{
			{Program: "def f(x):\n    while x < 2:\n        pass\n    return x\n", Count: 1},
			{Program: "def f(x):\n    return x\n", Count: 1, First: 1},
		},
		Tests:   []extract.Test{{Test: execute.Test{Code: "assert f(3) == 3", Input: "f(3)", Expected: "3"}, Count: 1}},
		Results: [][]execute.Result{one("3"), one("3")},
	}
	req := Request{Entry: "f", Prompt: ">>> f(5)\n5\n>>> f(7)\n7\n", MaxInputs: 30}
	if err := Synthesize(context.Background(), testutil.Pool(t), &spec, req, 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if len(spec.Synthesized) != len(spec.Tests) || len(spec.Atypical) != len(spec.Tests) || len(spec.Traits) != len(spec.Tests) {
		t.Fatalf("%d tests, %d synthesized flags, %d atypical flags, %d trait lists", len(spec.Tests), len(spec.Synthesized), len(spec.Atypical), len(spec.Traits))
	}
	timedOut, notRun, negative := 0, 0, 0
	for j, test := range spec.Tests {
		if !spec.Synthesized[j] {
			continue
		}
		if r := spec.Results[1][j]; !r.HasValue {
			t.Errorf("%s on the identity: %v %s", test.Input, r.Outcome, r.Exception)
		}
		switch r := spec.Results[0][j]; {
		case r.Outcome == execute.Timeout && r.Exception == execute.NotRun:
			notRun++
		case r.Outcome == execute.Timeout:
			timedOut++
		}
		if strings.HasPrefix(test.Input, "f(-") {
			negative++
			if !spec.Atypical[j] {
				t.Errorf("%s is not atypical", test.Input)
			}
			if !slices.Contains(spec.Traits[j], "0:-nonneg") {
				t.Errorf("%s: traits %q lack 0:-nonneg", test.Input, spec.Traits[j])
			}
		}
	}
	if timedOut != MaxTimeouts || notRun == 0 {
		t.Errorf("the looping candidate timed out on %d calls and skipped %d; want %d and some", timedOut, notRun, MaxTimeouts)
	}
	if negative == 0 {
		t.Errorf("no negated example among %d questions", len(spec.Tests))
	}
}

// TestRows: a new program's row has Synthesize's result on every
// synthesized question (the identity's row equals its own), a question
// about a test's call takes the given result on that test, and the value
// classes number the new values too.
func TestRows(t *testing.T) {
	one := func(v string) []execute.Result {
		return []execute.Result{{Outcome: execute.Pass, Value: v, HasValue: true}}
	}
	identity := "def f(x):\n    return x\n"
	spec := session.Spec{
		Candidates: []extract.Candidate{{Program: identity, Count: 1}},
		Tests:      []extract.Test{{Test: execute.Test{Code: "assert f(3) == 3", Input: "f(3)", Expected: "3"}, Count: 1}},
		Results:    [][]execute.Result{one("3")},
	}
	ctx := context.Background()
	pool := testutil.Pool(t)
	req := Request{Entry: "f", Prompt: ">>> f(5)\n5\n", MaxInputs: 8}
	if err := Synthesize(ctx, pool, &spec, req, time.Second); err != nil {
		t.Fatal(err)
	}
	negate := "def f(x):\n    return -x\n"
	tested := [][]execute.Result{spec.Results[0][:1], {{Outcome: execute.Fail, Value: "-3", HasValue: true}}}
	rows, classes, err := Rows(ctx, pool, &spec, []string{identity, negate}, tested, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || len(rows[0]) != len(spec.Tests) || len(rows[1]) != len(spec.Tests) {
		t.Fatalf("rows %d×%d, want 2×%d", len(rows), len(rows[0]), len(spec.Tests))
	}
	for j, test := range spec.Tests {
		got, want := rows[0][j], spec.Results[0][j]
		if got.Value != want.Value || got.HasValue != want.HasValue {
			t.Errorf("identity on %s: %q (%v), Synthesize gave %q (%v)", test.Input, got.Value, got.HasValue, want.Value, want.HasValue)
		}
		neg := rows[1][j]
		if !neg.HasValue {
			t.Errorf("negation on %s: no value (%v %s)", test.Input, neg.Outcome, neg.Exception)
			continue
		}
		if _, ok := classes[neg.Value]; !ok {
			t.Errorf("no value class for %q", neg.Value)
		}
		if test.Input == "f(3)" && neg.Value != "-3" {
			t.Errorf("negation on %s (synthesized %v): %q, want the tested -3", test.Input, spec.Synthesized[j], neg.Value)
		}
	}
	if _, _, err := Rows(ctx, pool, &spec, []string{negate}, nil, time.Second); err == nil {
		t.Error("Rows without the tested results succeeded")
	}
}

// TestMarkQuestions: a generated test whose call is unlike the examples,
// and the question about its call, are atypical, and every question has its
// call's traits; flags set before are kept.
func TestMarkQuestions(t *testing.T) {
	spec := session.Spec{Tests: make([]extract.Test, 2+2+1), Atypical: []bool{false, false, false, false, true}}
	pool := Pool{
		Unlike: []bool{false, true},
		Traits: [][]string{nil, {"0:char"}},
		Inputs: []Input{{Call: "f(-1)", Atypical: true, Traits: []string{"0:-nonneg"}}},
	}
	// Questions 2 and 3 ask about the calls of tests 0 and 1; 4 is the input.
	markQuestions(&spec, pool, []int{0, 1}, 2)
	if d := cmp.Diff([]bool{false, true, false, true, true}, spec.Atypical); d != "" {
		t.Errorf("atypical (-want +got):\n%s", d)
	}
	if d := cmp.Diff([][]string{nil, {"0:char"}, nil, {"0:char"}, {"0:-nonneg"}}, spec.Traits); d != "" {
		t.Errorf("traits (-want +got):\n%s", d)
	}
	plain := session.Spec{Tests: make([]extract.Test, 2)}
	markQuestions(&plain, Pool{Unlike: []bool{false}}, []int{0}, 1)
	if plain.Atypical != nil || plain.Traits != nil {
		t.Errorf("nothing unlike, no traits: got %v and %v, want nil", plain.Atypical, plain.Traits)
	}
}
