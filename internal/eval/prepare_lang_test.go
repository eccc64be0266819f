package eval

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestRunInMBJPReplay runs TiCoder's evaluation on MBJP tasks with the
// recorded Codestral samples of the fixture (replay, no tests): the
// candidates that pass the hidden test are those whose raw samples pass it
// when run on their own, the reference answers synthesized questions about
// the prompt's examples and their mutations, and in Output mode no answer
// prunes every correct candidate.
func TestRunInMBJPReplay(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	ctx := context.Background()
	ds, err := dataset.Load(ctx, testutil.Fixtures(t), "mbjp")
	if err != nil {
		t.Fatal(err)
	}
	prov, err := llm.OpenReplay(filepath.Join(testutil.Fixtures(t), "samples", "mbjp-codestral22b"), nil)
	if err != nil {
		t.Fatal(err)
	}
	jp, err := jvm.NewPool(ctx, execute.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer jp.Close()
	cfg := Config{Modes: []rank.Mode{rank.PassFail, rank.Output}, Selectors: []string{"infogain"}, Rankers: []string{"codet"}, Protect: []bool{false}, MaxQuestions: 3, Ks: []int{1}, BaselineKs: []int{1}}
	for _, id := range []string{"MBJP/1", "MBJP/40"} {
		t.Run(id, func(t *testing.T) {
			p, ok := ds.Get(id)
			if !ok {
				t.Fatalf("no %s in the fixture", id)
			}
			l, te, ok := OwnLanguage(p.Language)
			if !ok {
				t.Fatal("Java is not its own language")
			}
			g, err := GenerateIn(ctx, prov, l, te, p, llm.Params{}, 10, 0)
			if err != nil {
				t.Fatal(err)
			}
			// The raw samples with the hidden test, one by one.
			m, err := jp.Run(ctx, execute.Job{Programs: g.Raw, Tests: []execute.Test{{Code: p.Test, Trusted: true}}, TimePolicy: execute.Within(10 * time.Second)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for _, row := range m.Results {
				if row[0].Outcome == execute.Pass {
					want++
				}
			}
			prob, err := PrepareIn(ctx, jp, l, p, g, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if prob.Inputs == 0 || prob.Generated != 0 || len(prob.Tests) != prob.Inputs {
				t.Errorf("%d inputs, %d generated, %d tests: want synthesized questions only", prob.Inputs, prob.Generated, len(prob.Tests))
			}
			r, err := Simulate(ctx, prob, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if r.Samples != 10 || r.CorrectSamples != want || prob.RawCorrect != want {
				t.Errorf("samples %d, correct after extraction %d, raw correct %d; want 10, %d, %d", r.Samples, r.CorrectSamples, prob.RawCorrect, want, want)
			}
			if len(r.Runs) != 2 {
				t.Fatalf("%d runs, want one per mode", len(r.Runs))
			}
			for _, run := range r.Runs {
				if want > 0 && run.Lost != 0 {
					t.Errorf("%s: answer %d pruned every correct candidate", run.Mode, run.Lost)
				}
				if last := run.PassAt[1][len(run.PassAt[1])-1]; want > 0 && last < run.PassAt[1][0] {
					t.Errorf("%s: pass@1 fell from %.2f to %.2f", run.Mode, run.PassAt[1][0], last)
				}
			}
			t.Logf("%s: %d of 10 samples correct, %d candidates, %d questions in the pool; pass@1@m %v", id, want, len(prob.Candidates), prob.Inputs, r.Runs[0].PassAt[1])
		})
	}
}
