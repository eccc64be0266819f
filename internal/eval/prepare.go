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
//     guarded by the problem's input contract where it has one, and
//     EvalPlus's corrected reference, which answers instead where the
//     problem has one that passes the hidden tests (see userReference);
//  2. every candidate on every generated test and on the hidden tests (the
//     matrix and the hidden verdicts). Tests that share a call (same setup
//     and CALL, another EXPECTED) run the call once per candidate and are
//     each decided on its value; where it timed out, they all did (a
//     looping candidate would otherwise cost the time limit once per
//     test); timeouts are found with a short first pass and confirmed, a
//     candidate whose confirmation finishes being rerun at the full limit
//     until it times out inputs.MaxTimeouts times more (see Limits);
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
	tests, pool, err := questionTests(ctx, runner, p, g.Tests)
	if err != nil {
		return Problem{}, err
	}
	hidden, err := hiddenTest(ctx, runner, p)
	if err != nil {
		return Problem{}, err
	}
	all := append(slices.Clone(tests), hidden)
	user, ref, timing, err := userReference(ctx, runner, p, all, referenceLimits(lim, len(tests), hidden))
	if err != nil {
		return Problem{}, err
	}
	cols := newCandidateColumns(lim, tests, len(g.Tests), hidden, ref, timing)
	out := newProblem(p, g)
	programs := candidatePrograms(g.Candidates)
	t0 := time.Now()
	matrix, err := runCandidates(ctx, runner, programs, cols, pool.Inputs, lim)
	if err != nil {
		return Problem{}, fmt.Errorf("run the candidates of %s: %w", p.ID, err)
	}
	eqResults := out.splitMatrix(matrix, cols)
	slog.Debug("matrix", "task", p.ID, "candidates", len(programs), "tests", cols.nt, "comparisons", len(cols.eq),
		"seconds", time.Since(t0).Seconds(), "timeouts", countTimeouts(matrix))
	if eqResults, err = compareOutputs(ctx, runner, user, cols, out.Results, eqResults); err != nil {
		return Problem{}, fmt.Errorf("compare outputs of %s: %w", p.ID, err)
	}
	if out.RawCorrect, err = rawCorrect(ctx, runner, g, out.Correct, cols.hiddenTest(), cols.hiddenTimeout(), pythonSources(runner)); err != nil {
		return Problem{}, fmt.Errorf("run the raw samples of %s: %w", p.ID, err)
	}
	ng := cols.ng
	tab, usable := oracle.NewTable(append(slices.Clone(programs), user), cols.eq, eqResults, len(programs), tests[:ng], ref[:ng])
	out.Comparer = tab
	out.User = &oracle.User{Key: p.ID, Tests: tests[:ng], Reference: ref[:ng], Usable: usable}
	if err := out.synthesize(ctx, runner, pool.Inputs, pool, ref[:cols.nt], tab); err != nil {
		return Problem{}, fmt.Errorf("synthesized questions of %s: %w", p.ID, err)
	}
	return out, nil
}

// questionTests returns the columns the questions come from: the
// generated tests (calling p's entry point even where it is a builtin's
// name, as MBPP's sum), then a test per call of p's input pool (package
// inputs, at most MaxInputs calls), and the pool itself.
func questionTests(ctx context.Context, runner execute.Runner, p dataset.Problem, generated []extract.Test) ([]execute.Test, inputs.Pool, error) {
	tests := make([]execute.Test, len(generated))
	for j, t := range generated {
		tests[j] = t.Test
		tests[j].Entry = p.EntryPoint
	}
	pool, err := inputs.Collect(ctx, runner, inputs.Request{Entry: p.EntryPoint, Prompt: p.Prompt, Signature: p.Signature, Tests: tests, MaxInputs: MaxInputs})
	if err != nil {
		return nil, inputs.Pool{}, fmt.Errorf("inputs of %s: %w", p.ID, err)
	}
	for _, in := range pool.Inputs {
		tests = append(tests, in.Test())
	}
	return tests, pool, nil
}

// referenceLimits returns the time limits of the reference's run on nt
// tests and then the hidden test: lim.Reference for a test,
// lim.HiddenReference (or a suite's own limit) for the hidden test, and
// never less than lim.Timeout where that is set.
func referenceLimits(lim Limits, nt int, hidden execute.Test) []time.Duration {
	limits := make([]time.Duration, nt+1)
	for j := range limits {
		limits[j] = lim.Reference
	}
	limits[nt] = lim.HiddenReference
	if hidden.Suite != nil {
		limits[nt] = check.SuiteTimeout(hidden.Suite)
	}
	if lim.Timeout > 0 {
		for j := range limits {
			limits[j] = max(limits[j], lim.Timeout)
		}
	}
	return limits
}

// candidateColumns are the columns of the candidates' matrix, in order:
// the nt tests (the ng generated tests, then the input pool's calls), the
// `assert CALL == V` comparisons of the Output mode (eq; eq[k] shares its
// call with test from[k]), and the hidden test; timeouts holds each
// column's time limit.
type candidateColumns struct {
	tests    []execute.Test
	timeouts []time.Duration
	ng, nt   int
	eq       []execute.Test
	from     []int
}

// newCandidateColumns lays out the candidates' columns from the tests, the
// simulated user's results on them (user, the hidden test last), whose
// values the comparisons ask about, and the dataset reference's (timing):
// a test's limit is scaled from the dataset reference's time, a
// comparison's is that of the test it shares its call with, and the hidden
// test's is scaled with lim.HiddenFloor and no ceiling (a suite keeps its
// own, per input, as evalplus does).
func newCandidateColumns(lim Limits, tests []execute.Test, ng int, hidden execute.Test, user, timing []execute.Result) candidateColumns {
	nt := len(tests)
	eq, from := oracle.EqualTests(tests[:ng], user[:ng])
	all := append(append(append([]execute.Test{}, tests...), eq...), hidden)
	timeouts := make([]time.Duration, len(all))
	for j := range tests {
		timeouts[j] = lim.scaled(timing[j], lim.Floor, lim.Cap)
	}
	for k, j := range from {
		timeouts[nt+k] = timeouts[j]
	}
	timeouts[len(all)-1] = lim.scaled(timing[nt], lim.HiddenFloor, time.Duration(math.MaxInt64))
	if hidden.Suite != nil {
		timeouts[len(all)-1] = check.SuiteTimeout(hidden.Suite)
	}
	return candidateColumns{tests: all, timeouts: timeouts, ng: ng, nt: nt, eq: eq, from: from}
}

// hidden returns the column of the hidden test (the last).
func (c candidateColumns) hidden() int { return len(c.tests) - 1 }

// hiddenTest returns the hidden test.
func (c candidateColumns) hiddenTest() execute.Test { return c.tests[c.hidden()] }

// hiddenTimeout returns the hidden test's time limit.
func (c candidateColumns) hiddenTimeout() time.Duration { return c.timeouts[c.hidden()] }

// eqTimeouts returns the comparisons' time limits.
func (c candidateColumns) eqTimeouts() []time.Duration { return c.timeouts[c.nt : c.nt+len(c.eq)] }

// runOrder returns the order in which the job runs the columns (perm[k]:
// the column that runs k-th) and where the input pool starts in it: the
// generated tests, the comparisons and the hidden test, then the input
// pool last, smallest calls first (inputs.RunOrder), so that a candidate
// that timed out on inputs.MaxTimeouts of them is not called on the rest
// (execute.TimePolicy.SkipAfter).
func (c candidateColumns) runOrder(ins []inputs.Input) (perm []int, skipFrom int) {
	perm = make([]int, 0, len(c.tests))
	for j := range c.ng {
		perm = append(perm, j)
	}
	for k := range c.eq {
		perm = append(perm, c.nt+k)
	}
	perm = append(perm, c.hidden())
	skipFrom = len(perm)
	for _, k := range inputs.RunOrder(ins) {
		perm = append(perm, c.ng+k)
	}
	return perm, skipFrom
}

// candidatePrograms returns the candidates' programs.
func candidatePrograms(cands []extract.Candidate) []string {
	programs := make([]string, len(cands))
	for i, c := range cands {
		programs[i] = c.Program
	}
	return programs
}

// newProblem returns the Problem of p and g before anything has run: its
// results and verdicts are to be filled in.
func newProblem(p dataset.Problem, g Generated) Problem {
	return Problem{
		ID: p.ID, Samples: g.Samples, Candidates: g.Candidates, Tests: g.Tests, Generated: len(g.Tests),
		Task:    session.Task{ID: p.ID, Prompt: p.Prompt, Description: p.Description, Signature: p.Signature, EntryPoint: p.EntryPoint},
		Results: make([][]execute.Result, len(g.Candidates)), Correct: make([]bool, len(g.Candidates)),
	}
}

// runCandidates runs every column on every program in the order runOrder
// gives (see runMatrix) and returns the matrix in column order.
func runCandidates(ctx context.Context, runner execute.Runner, programs []string, cols candidateColumns, ins []inputs.Input, lim Limits) ([][]execute.Result, error) {
	perm, skipFrom := cols.runOrder(ins)
	run, runTimeouts := make([]execute.Test, len(cols.tests)), make([]time.Duration, len(cols.tests))
	for k, j := range perm {
		run[k], runTimeouts[k] = cols.tests[j], cols.timeouts[j]
	}
	ran, err := runMatrix(ctx, runner, programs, run, runTimeouts, lim, skipFrom-1, skipFrom)
	if err != nil {
		return nil, err
	}
	matrix := make([][]execute.Result, len(ran))
	for i, row := range ran {
		matrix[i] = make([]execute.Result, len(cols.tests))
		for k, j := range perm {
			matrix[i][j] = row[k]
		}
	}
	return matrix, nil
}

// splitMatrix fills in p's results on the tests and its hidden verdicts
// from the candidates' matrix, and returns their results on the
// comparisons, with a row left for the simulated user's (see
// compareOutputs).
func (p *Problem) splitMatrix(matrix [][]execute.Result, cols candidateColumns) [][]execute.Result {
	eqResults := make([][]execute.Result, len(p.Results)+1)
	for i, row := range matrix {
		p.Results[i] = row[:cols.nt]
		eqResults[i] = row[cols.nt : cols.nt+len(cols.eq)]
		p.Correct[i] = row[cols.hidden()].Outcome == execute.Pass
	}
	return eqResults
}

// compareOutputs completes the comparisons' results (eqResults, one row
// per candidate and a last for user): a candidate's comparison times out
// where its call did in the test it shares (results, oracle.SettleTimeouts),
// and user, the program the simulated user answers from, runs them.
func compareOutputs(ctx context.Context, runner execute.Runner, user string, cols candidateColumns, results, eqResults [][]execute.Result) ([][]execute.Result, error) {
	n := len(results)
	calls := make([][]execute.Result, n)
	for i := range calls {
		calls[i] = make([]execute.Result, len(cols.eq))
		for k, j := range cols.from {
			calls[i][k] = results[i][j]
		}
	}
	oracle.SettleTimeouts(cols.eq, eqResults[:n], calls)
	eqResults[n] = make([]execute.Result, len(cols.eq))
	if len(cols.eq) > 0 {
		m, err := runner.Run(ctx, execute.Job{Programs: []string{user}, Tests: cols.eq, TimePolicy: execute.PerTest(cols.eqTimeouts())}, nil)
		if err != nil {
			return nil, err
		}
		eqResults[n] = m.Results[0]
	}
	return eqResults, nil
}

// userReference returns the program the simulated user answers from, its
// results on tests, whose last is the hidden test, and the results of the
// dataset's reference (timing): the candidates' limits scale with its
// times, whichever program answers.
//
// The dataset's reference is run guarded by the problem's input contract
// (dataset.Problem.Guarded), so that the user calls an input the function
// is not meant for invalid (the reference raises: an undefined answer)
// instead of answering with whatever the reference does there; unguarded
// where the problem has no contract or where the guarded reference fails
// the hidden test (a contract stricter than the benchmark's own tests).
// Where the problem has EvalPlus's corrected reference
// (dataset.Problem.Solution) that passes the hidden test, guarded or else
// unguarded, the user answers by it instead.
func userReference(ctx context.Context, runner execute.Runner, p dataset.Problem, tests []execute.Test, limits []time.Duration) (user string, answers, timing []execute.Result, err error) {
	hidden := len(tests) - 1
	// first returns the first of progs that passes the hidden test, with
	// its results, and the last failure of the hidden test.
	first := func(progs ...string) (string, []execute.Result, execute.Result, error) {
		var last execute.Result
		for _, prog := range progs {
			if prog == "" {
				continue
			}
			m, err := runner.Run(ctx, execute.Job{Programs: []string{prog}, Tests: tests, TimePolicy: execute.PerTest(limits)}, nil)
			if err != nil {
				return "", nil, last, fmt.Errorf("run the reference of %s: %w", p.ID, err)
			}
			if r := m.Results[0]; r[hidden].Outcome == execute.Pass {
				return prog, r, last, nil
			}
			last = m.Results[0][hidden]
			slog.Debug("reference left out: it fails the hidden test", "task", p.ID, "outcome", last.Outcome, "exception", last.Exception)
		}
		return "", nil, last, nil
	}
	guarded, _ := p.Guarded()
	user, timing, last, err := first(guarded, p.Reference)
	if err != nil {
		return "", nil, nil, err
	}
	if user == "" {
		return "", nil, nil, fmt.Errorf("the reference solution of %s fails its hidden tests (%s %s): %w", p.ID, last.Outcome, last.Exception, ErrReferenceFails)
	}
	answers = timing
	if p.Solution != "" && p.Solution != p.Reference {
		guarded, _ := p.Guard(p.Solution)
		corrected, r, _, err := first(guarded, p.Solution)
		if err != nil {
			return "", nil, nil, err
		}
		if corrected != "" {
			user, answers = corrected, r
		}
	}
	return user, answers, timing, nil
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
// white space) shares its verdict. Where read is not nil (Python), so does
// one that normalises to a candidate's key as extraction normalises samples
// (extract.SourceKey: they differ only in comments, blank lines, spelling
// or docstrings), and one that Python cannot parse fails, as it would when
// run; the others run, each distinct one once.
func rawCorrect(ctx context.Context, runner execute.Runner, g Generated, correct []bool, hidden execute.Test, limit time.Duration, read sourceReader) (int, error) {
	if g.Raw == nil {
		return -1, nil
	}
	known := map[string]bool{}
	for i, c := range g.Candidates {
		known[trimEnd(c.Program)] = correct[i]
	}
	n := 0
	copies := map[string]int{} // raw samples of each program to run, by trimmed text
	var run []string
	for _, raw := range g.Raw {
		t := trimEnd(raw)
		if ok, seen := known[t]; seen {
			if ok {
				n++
			}
			continue
		}
		if copies[t] == 0 {
			run = append(run, raw)
		}
		copies[t]++
	}
	if read != nil && len(run) > 0 {
		run, n = readRaw(ctx, read, g.Candidates, correct, run, copies, n)
	}
	if len(run) == 0 {
		return n, nil
	}
	m, err := runner.Run(ctx, execute.Job{Programs: run, Tests: []execute.Test{hidden}, TimePolicy: execute.Within(limit)}, nil)
	if err != nil {
		return 0, err
	}
	for i, row := range m.Results {
		if row[0].Outcome == execute.Pass {
			n += copies[trimEnd(run[i])]
		}
	}
	return n, nil
}

// trimEnd returns a program without its trailing white space, by which
// rawCorrect matches raw programs.
func trimEnd(program string) string { return strings.TrimRight(program, " \t\r\n") }

// pythonSources reads Python programs in runner's sandbox.
func pythonSources(runner execute.Runner) sourceReader {
	return func(ctx context.Context, programs []string) ([]extract.SourceKey, error) {
		return extract.SourceKeys(ctx, runner, programs)
	}
}

// sourceReader reads programs without running them (extract.SourceKeys).
type sourceReader func(ctx context.Context, programs []string) ([]extract.SourceKey, error)

// readRaw settles what it can of the raw programs run (copies counts the
// samples of each, by trimmed text) by reading them with the candidates:
// one with a candidate's key adds that candidate's verdict to n,
// one that does not parse fails. It returns the programs left to run and
// the new n; where the programs cannot be read, all of them are left.
func readRaw(ctx context.Context, read sourceReader, cands []extract.Candidate, correct []bool, run []string, copies map[string]int, n int) ([]string, int) {
	keys, err := read(ctx, append(candidatePrograms(cands), run...))
	if err != nil || len(keys) != len(cands)+len(run) {
		slog.Debug("raw samples not read, all of them run", "err", err)
		return run, n
	}
	verdict := map[string]bool{}
	for i, k := range keys[:len(cands)] {
		if _, dup := verdict[k.Key]; k.Key != "" && !dup {
			verdict[k.Key] = correct[i]
		}
	}
	var left []string
	for j, raw := range run {
		k := keys[len(cands)+j]
		ok, same := verdict[k.Key]
		switch {
		case k.Syntax:
		case k.Key != "" && same:
			if ok {
				n += copies[trimEnd(raw)]
			}
		default:
			left = append(left, raw)
		}
	}
	return left, n
}
