package demo

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

// TestLabelsHoldInSandbox runs every demo test on the reference and on every
// candidate with the real execution engine and checks the author's labels:
// the reference passes the correct tests, fails the wrong ones and raises on
// the undefined ones; correct candidates agree with the reference on every
// test in the domain, buggy ones differ on at least one; and the tests split
// the candidates into several behaviour classes.
func TestLabelsHoldInSandbox(t *testing.T) {
	ctx := context.Background()
	pool, err := execute.NewPool(ctx, execute.Options{Workers: 2})
	if err != nil {
		t.Fatalf("NewPool: %v", err)
	}
	defer pool.Close()
	ps, err := List()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Run(p.Name, func(t *testing.T) {
			programs := []string{p.Reference}
			for _, c := range p.Candidates {
				programs = append(programs, c.Program)
			}
			tests := make([]execute.Test, len(p.Tests))
			for j, tc := range p.Tests {
				tests[j] = tc.Test
			}
			m, err := pool.Run(ctx, execute.Job{Programs: programs, Tests: tests, Timeout: 5 * time.Second}, nil)
			if err != nil {
				t.Fatal(err)
			}
			ref := m.Results[0]
			for j, l := range p.TestLabels {
				got := ref[j].Outcome
				ok := got == execute.Pass && l == Correct || got == execute.Fail && l == Wrong || got == execute.Error && l == Undefined
				if !ok {
					t.Errorf("reference on %s (%s): %s %s", p.Tests[j].Code, l, got, ref[j].Exception)
				}
			}
			classes := map[string]bool{}
			for i := range p.Candidates {
				row := m.Results[i+1]
				differs := []string{}
				key := ""
				for j, r := range row {
					key += r.Outcome.String() + r.Value + "|"
					if p.TestLabels[j] != Undefined && r.Outcome != ref[j].Outcome {
						differs = append(differs, p.Tests[j].Code)
					}
				}
				classes[key] = true
				switch l := p.CandidateLabels[i]; {
				case l == Correct && len(differs) > 0:
					t.Errorf("correct candidate %d differs from the reference on %q", i, differs)
				case l == Buggy && len(differs) == 0:
					t.Errorf("buggy candidate %d (%s) never differs from the reference", i, p.CandidateNotes[i])
				}
			}
			if len(classes) < 4 {
				t.Errorf("%d behaviour classes, want at least 4", len(classes))
			}
		})
	}
}
