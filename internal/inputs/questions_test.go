package inputs

import (
	"context"
	"strings"
	"testing"
	"time"

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
	if len(spec.Synthesized) != len(spec.Tests) || len(spec.Atypical) != len(spec.Tests) {
		t.Fatalf("%d tests, %d synthesized flags, %d atypical flags", len(spec.Tests), len(spec.Synthesized), len(spec.Atypical))
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
		}
	}
	if timedOut != MaxTimeouts || notRun == 0 {
		t.Errorf("the looping candidate timed out on %d calls and skipped %d; want %d and some", timedOut, notRun, MaxTimeouts)
	}
	if negative == 0 {
		t.Errorf("no negated example among %d questions", len(spec.Tests))
	}
}
