package eval

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/testutil"
)

// recordingRunner is a real runner that records the programs of the jobs
// it runs.
type recordingRunner struct {
	execute.Runner
	mu  sync.Mutex
	ran []string
}

func (r *recordingRunner) Run(ctx context.Context, job execute.Job, each func(int, []execute.Result)) (*execute.Matrix, error) {
	r.mu.Lock()
	r.ran = append(r.ran, job.Programs...)
	r.mu.Unlock()
	return r.Runner.Run(ctx, job, each)
}

// TestRawCorrect counts the raw samples that pass the hidden test in the
// sandbox: what it may settle without running them (a candidate's text or,
// for Python, its key; no parse) and what it must run.
func TestRawCorrect(t *testing.T) {
	ctx := context.Background()
	p := fixtureProblem(t, "HumanEval/0")
	pool := testutil.Pool(t)
	right := p.Prompt + "    return any(abs(a - b) < threshold for i, a in enumerate(numbers) for b in numbers[i + 1:])\n"
	wrong := p.Prompt + "    return True\n"
	cands := []extract.Candidate{{Program: right, Count: 1}, {Program: wrong, Count: 1}}
	correct := []bool{true, false}
	hidden := execute.Test{Code: "assert has_close_elements([1.0, 2.0, 3.9], 0.3) == False\nassert has_close_elements([1.0, 2.8, 3.0], 0.3) == True"}
	// Each differs from a candidate only in what the key leaves out.
	rightSpelled := p.Prompt + "    # pairs after a\n\n    return any(abs(a-b) < threshold\n               for i, a in enumerate(numbers) for b in numbers[i+1:])  # done\n"
	wrongSpelled := wrong + "\n# the end\n"
	otherDoc := strings.Replace(right, "given threshold.", "given threshold! ", 1)
	// Each has a candidate's function but another key.
	rightJunk := right + "print('examples')\n"
	rightFailing := right + "assert False\n"
	broken := p.Prompt + "    return (\n"
	failRead := func(context.Context, []string) ([]extract.SourceKey, error) {
		return nil, errors.New("no parser")
	}
	tests := []struct {
		name string
		raw  []string
		read sourceReader
		want int
		ran  []string
	}{
		{"candidates' texts", []string{right + "\n\n", wrong, right}, pythonSources(pool), 2, nil},
		{"candidates' keys", []string{rightSpelled, wrongSpelled, rightSpelled + "\n", otherDoc}, pythonSources(pool), 3, nil},
		{"no parse", []string{broken, broken, right}, pythonSources(pool), 1, nil},
		{"other keys run, each once", []string{rightJunk, rightFailing, rightJunk}, pythonSources(pool), 2, []string{rightJunk, rightFailing}},
		{"without a reader every other text runs", []string{rightSpelled, broken, wrong}, nil, 1, []string{rightSpelled, broken}},
		{"a reader that fails", []string{rightSpelled, broken}, failRead, 1, []string{rightSpelled, broken}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recordingRunner{Runner: pool}
			g := Generated{Samples: len(tc.raw), Candidates: cands, Raw: tc.raw}
			n, err := rawCorrect(ctx, rec, g, correct, hidden, 2*time.Second, tc.read)
			if err != nil {
				t.Fatal(err)
			}
			if n != tc.want {
				t.Errorf("%d raw samples pass, want %d", n, tc.want)
			}
			slices.Sort(rec.ran)
			slices.Sort(tc.ran)
			if diff := cmp.Diff(tc.ran, rec.ran); diff != "" {
				t.Errorf("programs run (-want +got):\n%s", diff)
			}
		})
	}
}
