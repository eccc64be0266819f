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
// timed out twice gets 100 ms for the rest (execute.TimePolicy.DegradeAfter), and
// one that timed out MaxTimeouts times is not called on the rest (recorded
// as timeouts, execute.NotRun). Values are numbered by Python's
// == (Classes). It is safe for concurrent use if r is.
func Synthesize(ctx context.Context, r Runner, spec *session.Spec, req Request, timeout time.Duration) error {
	tests := make([]execute.Test, len(spec.Tests))
	for j, t := range spec.Tests {
		tests[j] = t.Test
	}
	req.Tests = tests
	pool, err := Collect(ctx, r, req)
	if err != nil {
		return err
	}
	ins := pool.Inputs
	calls := TestCalls(tests)
	var qs []extract.Test
	for _, j := range calls {
		qs = append(qs, session.SynthesizedTest(tests[j].Setup, tests[j].Input))
	}
	programs := make([]string, len(spec.Candidates))
	for i, c := range spec.Candidates {
		programs[i] = c.Program
	}
	job := callJob(programs, timeout)
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
	classes, err := valueClasses(ctx, r, spec.Results, results)
	if err != nil {
		return err
	}
	first := len(spec.Tests) // the first question AddSynthesized adds
	if err := spec.AddSynthesized(qs, results, classes); err != nil {
		return err
	}
	markQuestions(spec, pool, calls, first)
	return nil
}

// markQuestions sets the Atypical flags and Traits of the spec's tests
// from what Collect found (see Marks); flags set before are kept.
func markQuestions(spec *session.Spec, pool Pool, calls []int, first int) {
	atypical, traits := Marks(pool, len(spec.Tests), calls, first)
	if spec.Atypical != nil {
		if atypical == nil {
			atypical = make([]bool, len(spec.Tests))
		}
		for t, a := range spec.Atypical {
			atypical[t] = atypical[t] || a
		}
	}
	spec.Atypical, spec.Traits = atypical, traits
}

// Marks returns the atypical flags and the traits of n questions: the
// generated tests [0, first), then one question about the call of each test
// calls[k] (at first+k), then one per input of pool.Inputs. A test whose
// call is unlike most examples (Pool.Unlike) and the question about its
// call are atypical, and so is each atypical input; each question has its
// call's traits. Either is nil where no question has any.
func Marks(pool Pool, n int, calls []int, first int) (atypical []bool, traits [][]string) {
	atypical, traits = make([]bool, n), make([][]string, n)
	someAtypical, someTraits := false, false
	set := func(t int, unlike bool, tr []string) {
		atypical[t] = atypical[t] || unlike
		traits[t] = tr
		someAtypical = someAtypical || unlike
		someTraits = someTraits || len(tr) > 0
	}
	for j := range min(first, len(pool.Unlike)) {
		var tr []string
		if j < len(pool.Traits) {
			tr = pool.Traits[j]
		}
		set(j, pool.Unlike[j], tr)
	}
	for k, j := range calls {
		set(first+k, atypical[j], traits[j])
	}
	for i, in := range pool.Inputs {
		set(first+len(calls)+i, in.Atypical, in.Traits)
	}
	if !someAtypical {
		atypical = nil
	}
	if !someTraits {
		traits = nil
	}
	return atypical, traits
}

// callJob is the job that runs calls of the input pool on programs, under
// callPolicy. The caller adds the tests.
func callJob(programs []string, timeout time.Duration) execute.Job {
	return execute.Job{Programs: programs, TimePolicy: callPolicy(timeout)}
}

// callPolicy is the time policy of calls of the input pool: each call
// limited to min(timeout, CallTimeout) (CallTimeout when timeout is not
// positive), a program's later calls to degradeLimit once degradeAfter
// have timed out, and none run once MaxTimeouts have.
func callPolicy(timeout time.Duration) execute.TimePolicy {
	limit := min(timeout, CallTimeout)
	if limit <= 0 {
		limit = CallTimeout
	}
	return execute.TimePolicy{Timeout: limit, DegradeAfter: degradeAfter, DegradeLimit: degradeLimit, SkipAfter: MaxTimeouts}
}

// valueClasses numbers every value of the result matrices by Python's ==
// (Classes).
func valueClasses(ctx context.Context, r Caller, matrices ...[][]execute.Result) (map[string]int32, error) {
	var reprs []string
	for _, m := range matrices {
		for _, row := range m {
			for _, res := range row {
				if res.HasValue {
					reprs = append(reprs, res.Value)
				}
			}
		}
	}
	classes, _, err := Classes(ctx, r, dedupe(reprs))
	return classes, err
}

// Rows returns the results of programs that join a spec whose synthesized
// questions Synthesize made (new candidates, say), one row per program in
// the columns of spec.Results: tested[i] holds programs[i]'s results on
// the spec's tests that are not synthesized, in order. A synthesized
// question about a test's call takes that test's result, as in Synthesize;
// every other one runs its call as Synthesize ran the input pool's (one
// job, the same limits). classes numbers every value of the spec and of
// the rows by Python's == (Classes), for session.Session.AddCandidates. It
// is safe for concurrent use if r is.
func Rows(ctx context.Context, r Runner, spec *session.Spec, programs []string, tested [][]execute.Result, timeout time.Duration) (rows [][]execute.Result, classes map[string]int32, err error) {
	if len(tested) != len(programs) {
		return nil, nil, fmt.Errorf("results of new programs: %d rows for %d programs", len(tested), len(programs))
	}
	synthesized := func(j int) bool { return spec.Synthesized != nil && spec.Synthesized[j] }
	written := map[string]int{} // a test's call (with its setup): its column among the tested ones
	column := make([]int, len(spec.Tests))
	n := 0
	for j, t := range spec.Tests {
		if synthesized(j) {
			continue
		}
		column[j] = n
		if k := t.Setup + "\x00" + t.Input; t.Input != "" {
			if _, ok := written[k]; !ok {
				written[k] = n
			}
		}
		n++
	}
	for i, row := range tested {
		if len(row) != n {
			return nil, nil, fmt.Errorf("results of new programs: program %d has %d results for %d tests", i, len(row), n)
		}
	}
	job := callJob(programs, timeout)
	var calls []int // the synthesized questions that are run
	for j, t := range spec.Tests {
		if !synthesized(j) {
			continue
		}
		if k, ok := written[t.Setup+"\x00"+t.Input]; ok {
			column[j] = k
			continue
		}
		column[j] = -1 - len(calls)
		calls = append(calls, j)
		job.Tests = append(job.Tests, Input{Call: t.Input}.Test())
	}
	var m *execute.Matrix
	if len(calls) > 0 && len(programs) > 0 {
		if m, err = r.Run(ctx, job, nil); err != nil {
			return nil, nil, fmt.Errorf("run %d inputs on %d new programs: %w", len(calls), len(programs), err)
		}
	}
	rows = make([][]execute.Result, len(programs))
	for i := range rows {
		rows[i] = make([]execute.Result, len(spec.Tests))
		for j, k := range column {
			if k >= 0 {
				rows[i][j] = tested[i][k]
			} else {
				rows[i][j] = m.Results[i][-1-k]
			}
		}
	}
	if spec.ValueClass == nil {
		return rows, nil, nil
	}
	if classes, err = valueClasses(ctx, r, spec.Results, rows); err != nil {
		return nil, nil, err
	}
	return rows, classes, nil
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
