package eval

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ticoder/ticoder/internal/check"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/inputs"
	"github.com/ticoder/ticoder/internal/oracle"
	"github.com/ticoder/ticoder/internal/session"
)

// Generated is what generation and extraction produced for one problem.
type Generated struct {
	// Samples is the number of raw code samples (n of pass@k).
	Samples int `json:"samples"`
	// Candidates are the distinct extracted programs.
	Candidates []extract.Candidate `json:"candidates"`
	// Tests are the distinct extracted tests.
	Tests []extract.Test `json:"tests"`
	// Raw are the raw code samples as complete programs, as `ticoder check`
	// runs them (prompt + completion); nil when the samples are not
	// continuations of the prompt.
	Raw []string `json:"raw,omitempty"`
}

// Prepare executes everything one problem's simulation needs, in the
// sandbox through runner (whose cache makes reruns cheap):
//
//  1. the reference solution on every generated test and on the hidden tests
//     (its outcomes answer the questions; its times scale the limits),
//     guarded by the problem's input contract where it has one (see
//     userReference);
//  2. every candidate on every generated test and on the hidden tests (the
//     matrix and the hidden verdicts). Tests that share a call (same setup
//     and CALL, another EXPECTED) run the call alike: where the first such
//     test timed out on a candidate, the others are recorded as timed out
//     without running (a looping candidate would otherwise cost the time
//     limit once per test); timeouts are found with a short first pass and
//     confirmed (see Limits);
//  3. for the tests the reference fails with a value V, `assert CALL == V` on
//     every candidate and on the reference (Output-mode answers, compared
//     with Python's ==), in the same matrix as step 2 and sharing its calls:
//     where a candidate's call timed out, so does the comparison;
//  4. the problem's input pool (package inputs, at most MaxInputs calls) on
//     the reference and every candidate, in the same runs as steps 1 and 2
//     and with the same time limits as a generated test (the call matrix),
//     and the synthesized questions built from it (see synthesize). The
//     candidates run the pool last, smallest calls first
//     (inputs.RunOrder); one that timed out on inputs.MaxTimeouts calls
//     in the first pass is not called on the rest, which are recorded as
//     timeouts (execute.NotRun), as in a live session.
func Prepare(ctx context.Context, runner execute.Runner, p dataset.Problem, g Generated, lim Limits) (Problem, error) {
	lim = lim.WithDefaults()
	nt := len(g.Tests)
	tests := make([]execute.Test, nt)
	for j, t := range g.Tests {
		tests[j] = t.Test
		tests[j].Entry = p.EntryPoint // even if a builtin's name (MBPP's sum)
	}
	pool, err := inputs.Collect(ctx, runner, inputs.Request{Entry: p.EntryPoint, Prompt: p.Prompt, Signature: p.Signature, Tests: tests, MaxInputs: MaxInputs})
	if err != nil {
		return Problem{}, fmt.Errorf("inputs of %s: %w", p.ID, err)
	}
	ins := pool.Inputs
	// Columns: the tests, the inputs (the call matrix), the hidden tests.
	for _, in := range ins {
		tests = append(tests, in.Test())
	}
	nt += len(ins)
	hidden, err := hiddenTest(ctx, runner, p)
	if err != nil {
		return Problem{}, err
	}
	all := append(slices.Clone(tests), hidden)
	refLimits := make([]time.Duration, len(all))
	for j := range refLimits {
		refLimits[j] = lim.Reference
	}
	refLimits[nt] = lim.HiddenReference
	if hidden.Suite != nil {
		refLimits[nt] = check.SuiteTimeout(hidden.Suite)
	}
	if lim.Timeout > 0 {
		for j := range refLimits {
			refLimits[j] = max(refLimits[j], lim.Timeout)
		}
	}
	user, ref, err := userReference(ctx, runner, p, all, refLimits)
	if err != nil {
		return Problem{}, err
	}
	// The candidates run the tests, the `assert CALL == V` comparisons of
	// the Output mode (sharing their calls with the tests) and the hidden
	// tests, in one matrix.
	ng := len(g.Tests)
	eq, from := oracle.EqualTests(tests[:ng], ref[:ng])
	all = append(append(append([]execute.Test{}, tests...), eq...), all[nt])
	timeouts := make([]time.Duration, len(all))
	for j := range tests {
		timeouts[j] = lim.scaled(ref[j], lim.Floor, lim.Cap)
	}
	for k, j := range from {
		timeouts[nt+k] = timeouts[j]
	}
	timeouts[len(all)-1] = lim.scaled(ref[nt], lim.HiddenFloor, time.Duration(math.MaxInt64))
	if hidden.Suite != nil { // its limits are per input, evalplus's
		timeouts[len(all)-1] = check.SuiteTimeout(hidden.Suite)
	}
	programs := make([]string, len(g.Candidates))
	for i, c := range g.Candidates {
		programs[i] = c.Program
	}
	out := Problem{
		ID: p.ID, Samples: g.Samples, Candidates: g.Candidates, Tests: g.Tests, Generated: len(g.Tests),
		Task:    session.Task{ID: p.ID, Prompt: p.Prompt, Description: p.Description, Signature: p.Signature, EntryPoint: p.EntryPoint},
		Results: make([][]execute.Result, len(programs)), Correct: make([]bool, len(programs)),
	}
	t0 := time.Now()
	// The job runs the input pool last, smallest calls first, so that a
	// candidate that timed out on inputs.MaxTimeouts of them is not called
	// on the rest (execute.TimePolicy.SkipAfter).
	perm := make([]int, 0, len(all)) // perm[k]: the column of all that runs k-th
	for j := range ng {
		perm = append(perm, j)
	}
	for k := range eq {
		perm = append(perm, nt+k)
	}
	perm = append(perm, len(all)-1)
	skipFrom := len(perm)
	for _, k := range inputs.RunOrder(ins) {
		perm = append(perm, ng+k)
	}
	run, runTimeouts := make([]execute.Test, len(all)), make([]time.Duration, len(all))
	for k, j := range perm {
		run[k], runTimeouts[k] = all[j], timeouts[j]
	}
	ran, err := runMatrix(ctx, runner, programs, run, runTimeouts, lim, skipFrom-1, skipFrom)
	if err != nil {
		return Problem{}, fmt.Errorf("run the candidates of %s: %w", p.ID, err)
	}
	matrix := make([][]execute.Result, len(ran))
	for i, row := range ran {
		matrix[i] = make([]execute.Result, len(all))
		for k, j := range perm {
			matrix[i][j] = row[k]
		}
	}
	eqResults := make([][]execute.Result, len(programs)+1)
	for i, row := range matrix {
		out.Results[i] = row[:nt]
		eqResults[i] = row[nt : nt+len(eq)]
		out.Correct[i] = row[len(all)-1].Outcome == execute.Pass
	}
	slog.Debug("matrix", "task", p.ID, "candidates", len(programs), "tests", nt, "comparisons", len(eq),
		"seconds", time.Since(t0).Seconds(), "timeouts", countTimeouts(matrix))
	calls := make([][]execute.Result, len(programs))
	for i := range calls {
		calls[i] = make([]execute.Result, len(eq))
		for k, j := range from {
			calls[i][k] = out.Results[i][j]
		}
	}
	oracle.SettleTimeouts(eq, eqResults[:len(programs)], calls)
	eqResults[len(programs)] = make([]execute.Result, len(eq))
	if len(eq) > 0 {
		m, err := runner.Run(ctx, execute.Job{Programs: []string{user}, Tests: eq, TimePolicy: execute.PerTest(timeouts[nt : nt+len(eq)])}, nil)
		if err != nil {
			return Problem{}, fmt.Errorf("compare outputs of %s: %w", p.ID, err)
		}
		eqResults[len(programs)] = m.Results[0]
	}
	if out.RawCorrect, err = rawCorrect(ctx, runner, g, out.Correct, all[len(all)-1], timeouts[len(all)-1]); err != nil {
		return Problem{}, fmt.Errorf("run the raw samples of %s: %w", p.ID, err)
	}
	eqPrograms := append(append([]string{}, programs...), user)
	tab, usable := oracle.NewTable(eqPrograms, eq, eqResults, len(programs), tests[:ng], ref[:ng])
	out.Comparer = tab
	out.User = &oracle.User{Key: p.ID, Tests: tests[:ng], Reference: ref[:ng], Usable: usable}
	if err := out.synthesize(ctx, runner, ins, pool, ref[:nt], tab); err != nil {
		return Problem{}, fmt.Errorf("synthesized questions of %s: %w", p.ID, err)
	}
	return out, nil
}

// userReference returns the program the simulated user answers from and
// its results on tests, whose last is the hidden test: the reference
// guarded by the problem's input contract (dataset.Problem.Guarded), so
// that the user calls an input the function is not meant for invalid
// (the reference raises: an undefined answer) instead of answering with
// whatever the reference does there; or the reference itself where the
// problem has no contract, or where the guarded reference fails the hidden
// test (a contract stricter than the benchmark's own tests).
func userReference(ctx context.Context, runner execute.Runner, p dataset.Problem, tests []execute.Test, limits []time.Duration) (string, []execute.Result, error) {
	hidden := len(tests) - 1
	if guarded, ok := p.Guarded(); ok {
		m, err := runner.Run(ctx, execute.Job{Programs: []string{guarded}, Tests: tests, TimePolicy: execute.PerTest(limits)}, nil)
		if err != nil {
			return "", nil, fmt.Errorf("run the reference of %s: %w", p.ID, err)
		}
		if r := m.Results[0]; r[hidden].Outcome == execute.Pass {
			return guarded, r, nil
		}
		slog.Debug("contract left out: the guarded reference fails the hidden test", "task", p.ID,
			"outcome", m.Results[0][hidden].Outcome, "exception", m.Results[0][hidden].Exception)
	}
	m, err := runner.Run(ctx, execute.Job{Programs: []string{p.Reference}, Tests: tests, TimePolicy: execute.PerTest(limits)}, nil)
	if err != nil {
		return "", nil, fmt.Errorf("run the reference of %s: %w", p.ID, err)
	}
	r := m.Results[0]
	if r[hidden].Outcome != execute.Pass {
		return "", nil, fmt.Errorf("the reference solution of %s fails its hidden tests (%s %s): %w", p.ID, r[hidden].Outcome, r[hidden].Exception, ErrReferenceFails)
	}
	return p.Reference, r, nil
}

// hiddenTest is p's hidden test: the dataset's test program, or on
// HumanEval+ and MBPP+ the suite of base and plus inputs, judged as evalplus
// judges with its default limits (the reference's outputs are recorded
// first, once).
func hiddenTest(ctx context.Context, runner execute.Runner, p dataset.Problem) (execute.Test, error) {
	if p.Plus == nil {
		return execute.Test{Setup: p.HiddenTestSetup(), Code: p.Test, Trusted: true, Entry: p.EntryPoint}, nil
	}
	s, err := check.HiddenSuite(ctx, runner, p, 0, 0, false)
	if err != nil {
		return execute.Test{}, err
	}
	return execute.Test{Suite: s}, nil
}

// rawCorrect counts the raw samples that pass the hidden test, or returns -1
// without raw samples. A raw program equal to a candidate's (up to trailing
// white space) shares its verdict; the others run.
func rawCorrect(ctx context.Context, runner execute.Runner, g Generated, correct []bool, hidden execute.Test, limit time.Duration) (int, error) {
	if g.Raw == nil {
		return -1, nil
	}
	known := map[string]bool{}
	for i, c := range g.Candidates {
		known[strings.TrimRight(c.Program, " \t\r\n")] = correct[i]
	}
	n := 0
	var run []string
	for _, raw := range g.Raw {
		ok, seen := known[strings.TrimRight(raw, " \t\r\n")]
		switch {
		case !seen:
			run = append(run, raw)
		case ok:
			n++
		}
	}
	if len(run) == 0 {
		return n, nil
	}
	m, err := runner.Run(ctx, execute.Job{Programs: run, Tests: []execute.Test{hidden}, TimePolicy: execute.Within(limit)}, nil)
	if err != nil {
		return 0, err
	}
	for _, row := range m.Results {
		if row[0].Outcome == execute.Pass {
			n++
		}
	}
	return n, nil
}
