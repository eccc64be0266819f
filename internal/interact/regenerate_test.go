package interact

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
)

// fakeModel is a Generator and Regenerator: Generate gives wrong
// candidates of `f`, Regenerate the programs of again (or err) and
// records the tests the code had to pass.
type fakeModel struct {
	again []string
	err   error
	asked [][]string
}

func (m *fakeModel) Generate(_ context.Context, p dataset.Problem, _, _ int, _ progress.Reporter) ([]extract.Candidate, []extract.Test, error) {
	return []extract.Candidate{
			{Program: p.Prompt + "    return x * 2 + 1\n", Count: 2},
			{Program: p.Prompt + "    return x * 2 + 2\n", Count: 1, First: 2},
		}, []extract.Test{
			{Test: execute.Test{Code: "assert f(1) == 3", Input: "f(1)", Expected: "3"}, Count: 1},
			{Test: execute.Test{Code: "assert f(2) == 6", Input: "f(2)", Expected: "6"}, Count: 1},
		}, nil
}

func (m *fakeModel) Regenerate(_ context.Context, p dataset.Problem, mustPass []string, _ int, _ progress.Reporter) ([]extract.Candidate, error) {
	m.asked = append(m.asked, slices.Clone(mustPass))
	if m.err != nil {
		return nil, m.err
	}
	var out []extract.Candidate
	for i, body := range m.again {
		out = append(out, extract.Candidate{Program: p.Prompt + body, Count: 1, First: i})
	}
	return out, nil
}

// doubleCall reads a call f(N).
var doubleCall = regexp.MustCompile(`^f\((-?\d+)\)$`)

// answerDouble answers every question as a user who wants x doubled: the
// right value of f(N), undefined for any other input.
func answerDouble(t *testing.T, ctx context.Context, c *Conversation) {
	t.Helper()
	for range 50 {
		q, ok := c.Question()
		if !ok {
			return
		}
		m := doubleCall.FindStringSubmatch(q.Input)
		verdict, value := "undefined", ""
		if m != nil {
			n, _ := strconv.Atoi(m[1])
			verdict, value = "output", strconv.Itoa(2*n)
		}
		if err := c.Answer(ctx, q.Test, verdict, value); err != nil {
			t.Fatalf("answer %s: %v", q.Prompt, err)
		}
	}
	t.Fatal("the questions do not end")
}

// TestRegenerate: every candidate of the model is wrong, so the first
// answer leaves none that agrees with it. With rounds to spare the model
// is asked again with the approved tests in the prompt; its new candidates
// are run on every test and synthesized question, judged by the answers,
// and the session ends with the right one, which passes the approved
// tests. Without rounds, a model, or a model that answers, the closest
// candidates remain and the state says so, never "start again".
func TestRegenerate(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	stub := "def f(x: int) -> int:\n    \"\"\"Return x doubled.\"\"\"\n"
	right := "    return x * 2\n"
	cases := []struct {
		name       string
		rounds     int
		use        bool
		again      []string
		err        error
		questions  session.Questions
		wantRounds int
		wantRight  bool
		says       string
	}{
		{name: "tests and inputs", rounds: 2, use: true, again: []string{"    return  x * 2 + 1\n", right}, wantRounds: 1, wantRight: true, says: "the model wrote 1 new candidate"},
		{name: "tests only", rounds: 2, use: true, again: []string{right}, questions: session.TestsOnly, wantRounds: 1, wantRight: true, says: "the model wrote 1 new candidate"},
		{name: "nothing new", rounds: 2, use: true, again: []string{"    return x * 2 + 1\n"}, wantRounds: 2, says: "(2 rounds, 0 new candidates so far); none agrees"},
		{name: "model fails", rounds: 1, use: true, err: errors.New("the model is down"), wantRounds: 1, says: "failed (the model is down)"},
		{name: "no rounds", rounds: 0, use: true, again: []string{right}, says: "keep the closest candidate"},
		{name: "no builder", rounds: 2, again: []string{right}, says: "keep the closest candidate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			model := &fakeModel{again: tc.again, err: tc.err}
			b := &Builder{Runner: pool, Generator: model}
			prep, err := b.Build(ctx, Source{Spec: stub, SpecName: "f.py"}, Options{Mode: rank.Output, Regenerate: tc.rounds, Questions: tc.questions}, nil)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Start(prep, pool)
			if err != nil {
				t.Fatal(err)
			}
			if tc.use {
				c.UseBuilder(b, nil)
			}
			answerDouble(t, ctx, c)
			st := c.State("x")
			if len(model.asked) != tc.wantRounds || st.Regenerated != tc.wantRounds {
				t.Fatalf("the model was asked %d times (state: %d rounds), want %d", len(model.asked), st.Regenerated, tc.wantRounds)
			}
			for _, asked := range model.asked {
				if len(asked) == 0 || !strings.HasPrefix(asked[0], "assert f(") || !strings.Contains(asked[0], " == ") {
					t.Errorf("the model was asked with the approved tests %q", asked)
				}
			}
			if !strings.Contains(st.ConflictMessage, tc.says) || strings.Contains(st.ConflictMessage+st.StopMessage, "start again") {
				t.Errorf("conflict message %q (stop: %q), want one that says %q", st.ConflictMessage, st.StopMessage, tc.says)
			}
			if (st.Conflict == 0) != tc.wantRight {
				t.Errorf("conflict %d, want a candidate that agrees with all answers: %v", st.Conflict, tc.wantRight)
			}
			ex, err := c.Export(ctx, -1, true)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.HasSuffix(ex.Code, right); got != tc.wantRight || ex.Passed != tc.wantRight {
				t.Errorf("exported (right %v, tests pass %v), want %v:\n%s\n%s", got, ex.Passed, tc.wantRight, ex.Code, strings.Join(ex.Failures, "\n"))
			}
			// The conversation, new candidates and rounds included, survives
			// its encoding.
			data, err := c.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			again, err := Load(data, pool)
			if err != nil {
				t.Fatal(err)
			}
			if got := again.State("x"); fmt.Sprint(got) != fmt.Sprint(st) {
				t.Errorf("reloaded state differs:\n%+v\nwant\n%+v", got, st)
			}
		})
	}
}

// fixedModel generates the same candidates and tests for any problem.
type fixedModel struct {
	bodies []string
	tests  []extract.Test
}

func (m fixedModel) Generate(_ context.Context, p dataset.Problem, _, _ int, _ progress.Reporter) ([]extract.Candidate, []extract.Test, error) {
	var out []extract.Candidate
	for i, b := range m.bodies {
		out = append(out, extract.Candidate{Program: p.Prompt + b, Count: 1, First: i})
	}
	return out, m.tests, nil
}

// TestFallbackCandidate: the answer to f(1) rules out the candidate that
// raises there only to rank it last, as a fallback the user can still
// take; the one that returns another value elsewhere is ruled out.
func TestFallbackCandidate(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	stub := "def f(x: int) -> int:\n    \"\"\"Return x doubled.\"\"\"\n"
	raises := "    if x == 1:\n        raise ValueError(x)\n    return x * 2\n"
	other := "    return x * 3\n"
	model := fixedModel{
		bodies: []string{"    return 2 if x == 1 else x * 3\n", raises, other},
		tests:  []extract.Test{{Test: execute.Test{Code: "assert f(1) == 2", Input: "f(1)", Expected: "2"}, Count: 1}},
	}
	b := &Builder{Runner: pool, Generator: model}
	prep, err := b.Build(ctx, Source{Spec: stub, SpecName: "f.py"}, Options{Mode: rank.Output, Questions: session.TestsOnly}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Start(prep, pool)
	if err != nil {
		t.Fatal(err)
	}
	answerDouble(t, ctx, c)
	st := c.State("x")
	if len(st.History) != 1 {
		t.Fatalf("%d questions asked, want 1 (f(1))", len(st.History))
	}
	var crashes []int
	fallback := -1
	for _, cand := range st.Candidates {
		crashes = append(crashes, cand.Crashes)
		if strings.HasSuffix(cand.Program, raises) {
			fallback = cand.Index
		}
		if strings.HasSuffix(cand.Program, other) {
			t.Errorf("the candidate that returns 3 for f(1) is still offered: rank %d", cand.Rank)
		}
	}
	if !slices.Equal(crashes, []int{0, 1}) || fallback < 0 || st.Candidates[1].Index != fallback || st.Candidates[1].Rank != 2 {
		t.Fatalf("candidates %+v, want the one that agrees, then the fallback", st.Candidates)
	}
	if st.Remaining.Samples != 1 || st.Conflict != 0 {
		t.Errorf("remaining %+v conflict %d, want 1 sample and none", st.Remaining, st.Conflict)
	}
	ex, err := c.Export(ctx, fallback, true)
	if err != nil {
		t.Fatalf("export the fallback: %v", err)
	}
	if !strings.HasSuffix(ex.Code, raises) || ex.Passed || len(ex.Failures) == 0 {
		t.Errorf("exported fallback (passed %v, failures %q):\n%s", ex.Passed, ex.Failures, ex.Code)
	}
}
