package interact

import (
	"context"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
)

// TestSynthesizedQuestionsRevealHiddenBugs: digit_sum's tests never try a
// negative number, so they leave its hidden bugs in one class with the
// correct candidates. Asked only tests, the session cannot tell them apart;
// with synthesized questions it asks about an input no test tries, and the
// exported code is correct, with the approved question among its tests.
func TestSynthesizedQuestionsRevealHiddenBugs(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	b := &Builder{Runner: pool}
	p, err := demo.Get("digit_sum")
	if err != nil {
		t.Fatal(err)
	}
	values := referenceValues(t, pool, p)
	for _, mode := range []rank.Mode{rank.PassFail, rank.Output} {
		t.Run(mode.String(), func(t *testing.T) {
			prep, err := b.Build(ctx, Source{Demo: p.Name}, Options{Mode: mode, Questions: session.TestsOnly}, nil)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Start(prep, pool)
			if err != nil {
				t.Fatal(err)
			}
			answerByLabels(t, ctx, c, p, values)
			hidden := false
			for _, cand := range c.Candidates() {
				hidden = hidden || p.CandidateLabels[cand.Index] == demo.HiddenBug
			}
			if !hidden {
				t.Errorf("tests alone told the hidden bugs apart: %+v", c.Candidates())
			}

			prep, err = b.Build(ctx, Source{Demo: p.Name}, Options{Mode: mode}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c, err = Start(prep, pool); err != nil {
				t.Fatal(err)
			}
			answerByLabels(t, ctx, c, p, values)
			end := c.State("x")
			var asked []string
			for _, h := range end.History {
				if h.Test >= len(p.Tests) {
					asked = append(asked, h.Code)
				}
			}
			if len(asked) == 0 {
				t.Fatalf("no synthesized question asked: %+v", end.History)
			}
			ex, err := c.Export(ctx, -1, true)
			if err != nil {
				t.Fatal(err)
			}
			if l := p.CandidateLabels[ex.Candidate]; l != demo.Correct {
				t.Errorf("exported candidate %d is %s (%s):\n%s", ex.Candidate, l, p.CandidateNotes[ex.Candidate], ex.Code)
			}
			if !ex.Passed || !strings.Contains(ex.Tests, "digit_sum(-") {
				t.Errorf("exported tests (passed %v) lack the synthesized question on a negative number %q:\n%s", ex.Passed, asked, ex.Tests)
			}
		})
	}
}
