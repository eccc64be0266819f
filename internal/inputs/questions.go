package inputs

import (
	"context"
	"fmt"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/session"
)

// TestCalls returns, for each distinct call (with its setup) of the tests
// of the form `assert CALL == EXPECTED`, the index of the first test that
// makes it: the calls that synthesized questions ask about as they are.
func TestCalls(tests []execute.Test) []int {
	var out []int
	seen := map[string]bool{}
	for j, t := range tests {
		k := t.Setup + "\x00" + t.Input
		if t.Input == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, j)
	}
	return out
}

// Runner is what Synthesize needs from the execution engine.
type Runner interface {
	Caller
	Run(ctx context.Context, job execute.Job, each func(program int, results []execute.Result)) (*execute.Matrix, error)
}

// CallTimeout bounds one call of the input pool in Synthesize; after
// degradeAfter timeouts, a program's other calls get degradeLimit.
const (
	CallTimeout  = time.Second
	degradeAfter = 2
	degradeLimit = 100 * time.Millisecond
)

// Synthesize adds synthesized questions to a session spec whose tests and
// results are set (session.Spec.AddSynthesized): one per distinct call of
// its tests (TestCalls; their values are already in the results), then one
// per input of the pool that req describes (req.Tests is taken from the
// spec), which it runs on every candidate: one job, smallest calls first
// (RunOrder), each call limited to min(timeout, CallTimeout); a program that
// timed out twice gets 100 ms for the rest (execute.Job.DegradeAfter), and
// one that timed out MaxTimeouts times is not called on the rest (recorded
// as timeouts, execute.NotRun). Values are numbered by Python's
// == (Classes). It is safe for concurrent use if r is.
func Synthesize(ctx context.Context, r Runner, spec *session.Spec, req Request, timeout time.Duration) error {
	tests := make([]execute.Test, len(spec.Tests))
	for j, t := range spec.Tests {
		tests[j] = t.Test
	}
	req.Tests = tests
	ins, err := Generate(ctx, r, req)
	if err != nil {
		return err
	}
	calls := TestCalls(tests)
	var qs []extract.Test
	for _, j := range calls {
		qs = append(qs, session.SynthesizedTest(tests[j].Setup, tests[j].Input))
	}
	job := execute.Job{Programs: make([]string, len(spec.Candidates)), Timeout: min(timeout, CallTimeout),
		DegradeAfter: degradeAfter, DegradeLimit: degradeLimit, SkipAfter: MaxTimeouts}
	if job.Timeout <= 0 {
		job.Timeout = CallTimeout
	}
	for i, c := range spec.Candidates {
		job.Programs[i] = c.Program
	}
	for _, in := range ins {
		qs = append(qs, session.SynthesizedTest("", in.Call))
	}
	order := RunOrder(ins)
	for _, k := range order {
		job.Tests = append(job.Tests, ins[k].Test())
	}
	results := make([][]execute.Result, len(spec.Candidates))
	for c, row := range spec.Results {
		for _, j := range calls {
			results[c] = append(results[c], row[j])
		}
	}
	if len(ins) > 0 && len(spec.Candidates) > 0 {
		m, err := r.Run(ctx, job, nil)
		if err != nil {
			return fmt.Errorf("run %d inputs on %d candidates: %w", len(ins), len(spec.Candidates), err)
		}
		for c := range results {
			row := make([]execute.Result, len(ins))
			for b, k := range order {
				row[k] = m.Results[c][b]
			}
			results[c] = append(results[c], row...)
		}
	}
	var reprs []string
	for _, row := range spec.Results {
		for _, res := range row {
			if res.HasValue {
				reprs = append(reprs, res.Value)
			}
		}
	}
	for _, row := range results {
		for _, res := range row {
			if res.HasValue {
				reprs = append(reprs, res.Value)
			}
		}
	}
	classes, _, err := Classes(ctx, r, dedupe(reprs))
	if err != nil {
		return err
	}
	first := len(spec.Tests) // the first question AddSynthesized adds
	if err := spec.AddSynthesized(qs, results, classes); err != nil {
		return err
	}
	for i, in := range ins {
		if in.Atypical {
			if spec.Atypical == nil {
				spec.Atypical = make([]bool, len(spec.Tests))
			}
			spec.Atypical[first+len(calls)+i] = true
		}
	}
	return nil
}

// dedupe returns the distinct strings of xs in order.
func dedupe(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
