package check

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ticoder/ticoder/internal/clip"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/progress"
)

// evalplus's time-limit policy (config.py): each input may take
// max(DefaultMinTimeLimit, DefaultTimeFactor × the reference's time on it).
const (
	DefaultMinTimeLimit = 4 * time.Second
	DefaultTimeFactor   = 4.0
	// recordLimit bounds the reference's time on one input while its
	// outputs are recorded.
	recordLimit = 60.0
)

// Statuses of a part of a sample's run, as evalplus names them.
const (
	StatusPass    = "pass"
	StatusFail    = "fail"
	StatusTimeout = "timeout"
)

// Failure describes the first input a sample failed on (of HumanEval+ or
// MBPP+), so that a user sees why.
type Failure struct {
	// Part is "base" or "plus"; Input the input's index within the part
	// (as evalplus's base_fail_tests and plus_fail_tests count).
	Part  string `json:"part"`
	Input int    `json:"input"`
	// Args is the input's argument list as JSON (cut to a few hundred bytes).
	Args string `json:"args"`
	// Expected and Got are bounded reprs of the reference's output and the
	// sample's (Got is empty when the sample raised or timed out).
	Expected string `json:"expected,omitempty"`
	Got      string `json:"got,omitempty"`
	// Why says what was wrong: a difference, an exception's name, a limit.
	Why string `json:"why"`
}

// PlusResult is what a sample's Result adds on HumanEval+ and MBPP+.
type PlusResult struct {
	// BaseStatus and PlusStatus are evalplus's statuses of the base and the
	// plus inputs: pass, fail or timeout (the part's whole run took too
	// long). PlusStatus is empty when the plus inputs were not run (the
	// base inputs had failed, and a run stops at its first failing input).
	BaseStatus string `json:"base_status"`
	PlusStatus string `json:"plus_status,omitempty"`
	// Failure is the first failing input, nil if none.
	Failure *Failure `json:"failure,omitempty"`
	// BaseFailed and PlusFailed list every failing input's index in its
	// part when every input was run (Options.AllInputs).
	BaseFailed []int `json:"base_fail_tests,omitempty"`
	PlusFailed []int `json:"plus_fail_tests,omitempty"`
}

// basePassed reports whether the base inputs passed.
func (r *PlusResult) basePassed() bool { return r != nil && r.BaseStatus == StatusPass }

// plusPassed reports evalplus's plus verdict: base and plus inputs passed.
func (r *PlusResult) plusPassed() bool {
	return r != nil && r.BaseStatus == StatusPass && r.PlusStatus == StatusPass
}

// isPlus reports whether ds is judged by evalplus's test inputs.
func isPlus(ds *dataset.Dataset) bool {
	return len(ds.Problems) > 0 && ds.Problems[0].Plus != nil
}

// PlusSuite returns the suite of p's base and plus inputs that records the
// reference's outputs (see Judged).
func PlusSuite(p dataset.Problem) *execute.Suite {
	pt := p.Plus
	s := &execute.Suite{Entry: p.EntryPoint, Base: pt.Base, Plus: pt.Plus, Atol: pt.Atol,
		Oracle: execute.OracleFor(pt.Family, p.EntryPoint)}
	if pt.Family == "mbpp" {
		s.Restore, s.Task = "mbpp", pt.Task
	}
	s.Limits = make([]float64, len(s.Inputs()))
	for i := range s.Limits {
		s.Limits[i] = recordLimit
	}
	s.Seal()
	return s
}

// Judged returns the suite that judges programs by rec's inputs against
// table, the reference's outputs that rec recorded: each input's limit is
// max(minLimit, factor × the reference's time on it); all runs every input.
func Judged(rec *execute.Suite, table []execute.Expected, minLimit time.Duration, factor float64, all bool) *execute.Suite {
	s := *rec
	s.Expected = table
	s.Limits = make([]float64, len(table))
	for i, e := range table {
		s.Limits[i] = max(minLimit.Seconds(), factor*e.Seconds)
	}
	s.All = all
	s.Seal()
	return &s
}

// SuiteTimeout is the time limit a job gives a suite test.
func SuiteTimeout(s *execute.Suite) time.Duration {
	return time.Duration(s.Budget() * float64(time.Second))
}

// RecordExpected runs each problem's reference on its inputs (once: the
// results are cached by content) and returns the judging suites by task.
func RecordExpected(ctx context.Context, runner execute.Runner, problems []dataset.Problem, opts Options,
	rep progress.Reporter) (map[string]*execute.Suite, error) {
	out := map[string]*execute.Suite{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, len(problems))
	sem := make(chan struct{}, 16)
	rep = progress.OrNop(rep)
	rep.Start("computing expected outputs", len(problems))
	defer rep.Finish()
	for _, p := range problems {
		wg.Add(1)
		sem <- struct{}{}
		go func(p dataset.Problem) {
			defer wg.Done()
			defer func() { <-sem }()
			defer rep.Add(1)
			s, err := HiddenSuite(ctx, runner, p, opts.MinTimeLimit, opts.TimeFactor, opts.AllInputs)
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			out[p.ID] = s
			mu.Unlock()
		}(p)
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	return out, nil
}

// HiddenSuite runs p's reference on p's base and plus inputs (once: the
// result is cached by content) and returns the suite that judges programs
// against its outputs (see Judged).
func HiddenSuite(ctx context.Context, runner execute.Runner, p dataset.Problem, minLimit time.Duration, factor float64, all bool) (*execute.Suite, error) {
	if p.Plus == nil {
		return nil, fmt.Errorf("%s has no evalplus test inputs", p.ID)
	}
	rec := PlusSuite(p)
	job := execute.Job{Programs: []string{p.Reference}, Tests: []execute.Test{{Suite: rec}}, TimePolicy: execute.Within(SuiteTimeout(rec))}
	m, err := runner.Run(ctx, job, nil)
	if err != nil {
		return nil, fmt.Errorf("record the expected outputs of %s: %w", p.ID, err)
	}
	r := m.Results[0][0]
	if r.Outcome != execute.Pass || r.Suite == nil || r.Suite.Table == nil {
		return nil, fmt.Errorf("record the expected outputs of %s: the reference solution %s", p.ID, referenceFailure(rec, r))
	}
	if minLimit <= 0 {
		minLimit = DefaultMinTimeLimit
	}
	if factor <= 0 {
		factor = DefaultTimeFactor
	}
	return Judged(rec, r.Suite.Table, minLimit, factor, all), nil
}

// referenceFailure says how a reference's recording run failed.
func referenceFailure(s *execute.Suite, r execute.Result) string {
	what := r.Outcome.String()
	if r.Exception != "" {
		what += " (" + r.Exception + ")"
	}
	if r.Suite != nil && r.Suite.First >= 0 {
		part, i := partOf(s, r.Suite.First)
		return fmt.Sprintf("ended with %s on %s input %d", what, part, i)
	}
	return "ended with " + what
}

// partOf returns the part ("base" or "plus") and the index within it of
// input i of s.
func partOf(s *execute.Suite, i int) (string, int) {
	if b := s.BaseCount(); i >= b {
		return "plus", i - b
	}
	return "base", i
}

// plusVerdict reads a suite test's result.
func plusVerdict(s *execute.Suite, r execute.Result) *PlusResult {
	out := &PlusResult{BaseStatus: StatusPass, PlusStatus: StatusPass}
	sr := r.Suite
	if sr == nil { // the program's process could not run it at all
		out.BaseStatus, out.PlusStatus = StatusFail, ""
		out.Failure = &Failure{Part: "base", Why: verdictText(r)}
		return out
	}
	failed := sr.Failed
	if !s.All && sr.First >= 0 {
		failed = []int{sr.First}
	}
	for _, i := range failed {
		part, k := partOf(s, i)
		if part == "base" {
			out.BaseStatus = StatusFail
			out.BaseFailed = append(out.BaseFailed, k)
		} else {
			out.PlusStatus = StatusFail
			out.PlusFailed = append(out.PlusFailed, k)
		}
	}
	if sr.First >= 0 {
		part, k := partOf(s, sr.First)
		if sr.WholeRun {
			if part == "base" {
				out.BaseStatus = StatusTimeout
			} else {
				out.PlusStatus = StatusTimeout
			}
		}
		if part == "base" && !s.All {
			out.PlusStatus = "" // not run
		}
		inputs := s.Inputs()
		f := &Failure{Part: part, Input: k, Expected: sr.Expected, Got: r.Value, Why: verdictText(r)}
		if sr.First < len(inputs) {
			f.Args = clip.Text(shownArgs(inputs[sr.First]), 400)
		}
		out.Failure = f
	}
	if !s.All {
		out.BaseFailed, out.PlusFailed = nil, nil
	}
	return out
}

// verdictText says why a suite result failed.
func verdictText(r execute.Result) string {
	switch r.Outcome {
	case execute.Error:
		return "raised " + r.Exception
	case execute.Crash:
		return "crashed (" + r.Exception + ")"
	default:
		if r.Exception != "" {
			return r.Exception
		}
		return r.Outcome.String()
	}
}

// shownArgs is an input's JSON as a user reads it: Python's NaN and
// Infinity as they are written.
func shownArgs(raw json.RawMessage) string {
	return strings.NewReplacer(`"\u0000ticoder:nan"`, "NaN", `"\u0000ticoder:inf"`, "Infinity",
		`"\u0000ticoder:-inf"`, "-Infinity").Replace(string(raw))
}

// plusResultText renders a sample's verdict on HumanEval+ or MBPP+ in
// human-eval's style.
func plusResultText(p *PlusResult) string {
	if p.plusPassed() {
		return "passed"
	}
	if p.Failure == nil {
		return "failed"
	}
	f := p.Failure
	return fmt.Sprintf("failed: %s input %d: %s", f.Part, f.Input, f.Why)
}
