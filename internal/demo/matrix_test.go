package demo

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
	"github.com/ticoder/ticoder/internal/inputs"
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
			var runner execute.Runner = pool
			if p.Language == "java" {
				runner = javaPool(t)
			}
			programs := []string{p.Reference}
			for _, c := range p.Candidates {
				programs = append(programs, c.Program)
			}
			tests := make([]execute.Test, len(p.Tests))
			for j, tc := range p.Tests {
				tests[j] = tc.Test
			}
			m, err := runner.Run(ctx, execute.Job{Programs: programs, Tests: tests, TimePolicy: execute.Within(5 * time.Second)}, nil)
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
				case l == HiddenBug && len(differs) > 0:
					t.Errorf("hidden bug %d (%s) differs from the reference on %q: a test reveals it", i, p.CandidateNotes[i], differs)
				case l == HiddenBug:
					hiddenRevealed(t, pool, p, i)
				}
			}
			if len(classes) < 4 {
				t.Errorf("%d behaviour classes, want at least 4", len(classes))
			}
		})
	}
}

// hiddenRevealed checks that some input of the problem's input pool (package
// inputs: what a synthesized question asks) makes hidden bug i return
// another value than the reference, where the reference returns one.
func hiddenRevealed(t *testing.T, pool *execute.Pool, p Problem, i int) {
	t.Helper()
	ctx := context.Background()
	d := p.Dataset()
	tests := make([]execute.Test, len(p.Tests))
	for j, tc := range p.Tests {
		tests[j] = tc.Test
	}
	ins, err := inputs.Generate(ctx, pool, inputs.Request{Entry: p.EntryPoint, Prompt: d.Prompt, Signature: d.Signature, Tests: tests})
	if err != nil {
		t.Fatal(err)
	}
	job := execute.Job{Programs: []string{p.Reference, p.Candidates[i].Program}, TimePolicy: execute.Within(5 * time.Second)}
	for _, in := range ins {
		job.Tests = append(job.Tests, in.Test())
	}
	m, err := pool.Run(ctx, job, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, ref := range m.Results[0] {
		if got := m.Results[1][k]; ref.HasValue && (!got.HasValue || got.Value != ref.Value) {
			return
		}
	}
	t.Errorf("hidden bug %d (%s): no input of the pool tells it from the reference", i, p.CandidateNotes[i])
}

func TestAnswerCall(t *testing.T) {
	ctx := context.Background()
	pool, err := execute.NewPool(ctx, execute.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	p, err := Get("digit_sum")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		call, shown    string
		output         bool
		verdict, value string
	}{
		{"digit_sum(-12)", "3", true, "pass", ""},
		{"digit_sum(-12)", "3.0", false, "pass", ""}, // Python's ==
		{"digit_sum(-12)", "0", true, "output", "3"},
		{"digit_sum(-12)", "0", false, "fail", ""},
		{"digit_sum('x')", "0", true, "undefined", ""},
	}
	for _, tc := range tests {
		v, val, err := p.AnswerCall(ctx, pool, "", tc.call, tc.shown, tc.output)
		if err != nil || v != tc.verdict || val != tc.value {
			t.Errorf("AnswerCall(%s, %s) = %s %q %v; want %s %q", tc.call, tc.shown, v, val, err, tc.verdict, tc.value)
		}
	}
}

// javaPool returns a Java pool closed at the test's end; it skips where the
// machine has no JDK.
func javaPool(t *testing.T) *jvm.Pool {
	t.Helper()
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	jp, err := jvm.NewPool(context.Background(), execute.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = jp.Close() })
	return jp
}
