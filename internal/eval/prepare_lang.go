package eval

import (
	"context"
	"fmt"
	"time"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/lang/langs"
	"github.com/ticoder/ticoder/internal/langgen"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/oracle"
	"github.com/ticoder/ticoder/internal/session"
)

// OwnLanguage returns a problem's language when it reads its own programs,
// tests and inputs (Java), so that GenerateIn and PrepareIn apply instead of
// the Python pipeline (package extract, package inputs).
func OwnLanguage(name string) (lang.Language, lang.TestExtractor, bool) {
	l, ok := langs.Get(name)
	if !ok {
		return nil, nil, false
	}
	te, ok := l.(lang.TestExtractor)
	return l, te, ok
}

// GenerateIn generates one problem's candidates and tests in language l
// (package langgen); a replay without recorded tests gives none.
func GenerateIn(ctx context.Context, prov llm.Provider, l lang.Language, te lang.TestExtractor, p dataset.Problem, params llm.Params, codes, tests int) (Generated, error) {
	res, err := langgen.Generate(ctx, prov, l, te, p, params, codes, tests)
	if err != nil {
		return Generated{}, fmt.Errorf("generate %s: %w", p.ID, err)
	}
	return Generated{Samples: len(res.Raw), Candidates: res.Candidates, Tests: res.Tests, Raw: res.Raw}, nil
}

// PrepareIn is Prepare for a problem in language l, run on runner (the
// language's pool):
//
//  1. the columns: the generated tests; a synthesized question per call of
//     the question pool (the generated tests' calls, the calls of the
//     prompt's examples and the inputs l derives from them, at most
//     MaxInputs in all), run without an expected value; and the hidden test
//     (run first);
//  2. the reference on every column (it must pass the hidden test; its
//     results answer the questions), then every candidate, with limits
//     scaled from the reference's times as Prepare's;
//  3. Output answers compare values as the runner renders them (plain
//     data), so the simulated user's value is the reference's rendering.
func PrepareIn(ctx context.Context, runner execute.Runner, l lang.Language, p dataset.Problem, g Generated, lim Limits) (Problem, error) {
	lim = lim.WithDefaults()
	if p.Reference == "" {
		return Problem{}, fmt.Errorf("%s has no reference solution to answer the questions (the dataset gives none)", p.ID)
	}
	calls := questionCalls(l, p, g.Tests)
	all := columnsIn(l, p, g.Tests, calls)
	hidden, ref, err := referenceIn(ctx, runner, p, all, lim)
	if err != nil {
		return Problem{}, err
	}
	timeouts := make([]time.Duration, len(all))
	timeouts[0] = lim.scaled(hidden, lim.HiddenFloor, time.Duration(1<<62))
	for j := range ref {
		timeouts[j+1] = lim.scaled(ref[j], lim.Floor, lim.Cap)
	}
	programs := candidatePrograms(g.Candidates)
	out := newProblemIn(p, g, calls)
	if len(programs) > 0 {
		m, err := runner.Run(ctx, execute.Job{Programs: programs, Tests: all, TimePolicy: execute.PerTest(timeouts)}, nil)
		if err != nil {
			return Problem{}, fmt.Errorf("run the candidates of %s: %w", p.ID, err)
		}
		for i, row := range m.Results {
			out.Results[i] = row[1:]
			out.Correct[i] = row[0].Outcome == execute.Pass
		}
	}
	if out.RawCorrect, err = rawCorrect(ctx, runner, g, out.Correct, all[0], timeouts[0], nil); err != nil {
		return Problem{}, fmt.Errorf("run the raw samples of %s: %w", p.ID, err)
	}
	usable := make([]bool, len(ref))
	for j := range usable {
		usable[j] = ref[j].HasValue
	}
	out.User = &oracle.User{Key: p.ID, Tests: all[1:], Reference: ref, Usable: usable, Synthesized: out.Synthesized}
	out.Comparer = renderedComparer(programs, all[1:], out.Results)
	return out, nil
}

// questionCalls returns the question pool's calls, distinct and at most
// MaxInputs: those of the generated tests without a setup, of the
// prompt's examples (lang.ExampleParser), then the inputs l derives from
// them (lang.InputHarvester).
func questionCalls(l lang.Language, p dataset.Problem, tests []extract.Test) []string {
	var calls []string
	seen := map[string]bool{}
	add := func(c string) {
		if c != "" && !seen[c] && len(calls) < MaxInputs {
			seen[c] = true
			calls = append(calls, c)
		}
	}
	for _, t := range tests {
		if t.Setup == "" {
			add(t.Input)
		}
	}
	if ep, ok := l.(lang.ExampleParser); ok {
		for _, e := range ep.Examples(p.Prompt, p.EntryPoint) {
			add(e.Call)
		}
	}
	if h, ok := l.(lang.InputHarvester); ok {
		for _, c := range h.Inputs(p.Prompt, p.EntryPoint, MaxInputs) {
			add(c)
		}
	}
	return calls
}

// columnsIn returns the columns PrepareIn runs. Column 0 is the hidden
// test, first so that a call that breaks the runner's JVM again and again
// (the JVM pool gives up on a program after a few) cannot take the hidden
// verdict with it; then the generated tests and a value test per call.
func columnsIn(l lang.Language, p dataset.Problem, tests []extract.Test, calls []string) []execute.Test {
	all := make([]execute.Test, 0, len(tests)+len(calls)+1)
	all = append(all, execute.Test{Code: p.Test, Trusted: true})
	for _, t := range tests {
		all = append(all, t.Test)
	}
	for _, c := range calls {
		all = append(all, l.ValueTest(c, ""))
	}
	return all
}

// referenceIn runs p's reference on the columns all (the hidden test
// first) and returns its result on the hidden test, which it must pass,
// and on the others.
func referenceIn(ctx context.Context, runner execute.Runner, p dataset.Problem, all []execute.Test, lim Limits) (execute.Result, []execute.Result, error) {
	limits := make([]time.Duration, len(all))
	for j := range limits {
		limits[j] = max(lim.Reference, lim.Timeout)
	}
	limits[0] = max(lim.HiddenReference, lim.Timeout)
	m, err := runner.Run(ctx, execute.Job{Programs: []string{p.Reference}, Tests: all, TimePolicy: execute.PerTest(limits)}, nil)
	if err != nil {
		return execute.Result{}, nil, fmt.Errorf("run the reference of %s: %w", p.ID, err)
	}
	hidden, ref := m.Results[0][0], m.Results[0][1:]
	if hidden.Outcome != execute.Pass {
		return execute.Result{}, nil, fmt.Errorf("the reference solution of %s fails its hidden tests (%s %s): %w", p.ID, hidden.Outcome, hidden.Exception, ErrReferenceFails)
	}
	return hidden, ref, nil
}

// newProblemIn returns PrepareIn's Problem before the candidates run: the
// generated tests, then a synthesized question per call.
func newProblemIn(p dataset.Problem, g Generated, calls []string) Problem {
	ng, nt := len(g.Tests), len(g.Tests)+len(calls)
	out := Problem{
		ID: p.ID, Samples: g.Samples, Candidates: g.Candidates, Generated: ng, Inputs: len(calls),
		Task:    session.Task{ID: p.ID, Prompt: p.Prompt, Description: p.Description, Signature: p.Signature, EntryPoint: p.EntryPoint},
		Results: make([][]execute.Result, len(g.Candidates)), Correct: make([]bool, len(g.Candidates)),
		Tests: append([]extract.Test{}, g.Tests...), Synthesized: make([]bool, nt), RawCorrect: -1,
	}
	for k, c := range calls {
		out.Tests = append(out.Tests, session.SynthesizedTest("", c))
		out.Synthesized[ng+k] = true
	}
	return out
}

// renderedComparer decides Output answers from the matrix: a program's call
// returns the value if the runner rendered the same value for it.
type renderedTable struct {
	program map[string]int
	column  map[string]int
	results [][]execute.Result
}

func renderedComparer(programs []string, tests []execute.Test, results [][]execute.Result) session.Comparer {
	t := renderedTable{program: map[string]int{}, column: map[string]int{}, results: results}
	for i, p := range programs {
		t.program[p] = i
	}
	for j, test := range tests {
		if _, ok := t.column[test.Input]; !ok && test.Input != "" && test.Setup == "" {
			t.column[test.Input] = j
		}
	}
	return t
}

// Equal implements session.Comparer.
func (t renderedTable) Equal(_ context.Context, programs []string, test execute.Test, value string) ([]bool, error) {
	j, ok := t.column[test.Input]
	if !ok {
		return nil, fmt.Errorf("compare outputs: %s was not run", test.Input)
	}
	out := make([]bool, len(programs))
	for k, p := range programs {
		i, ok := t.program[p]
		if !ok {
			return nil, fmt.Errorf("compare outputs: a program that is no candidate")
		}
		r := t.results[i][j]
		out[k] = r.HasValue && r.Value == value
	}
	return out, nil
}

// RunIn generates, prepares and simulates one problem in language l (see
// GenerateIn and PrepareIn) on runner.
func RunIn(ctx context.Context, prov llm.Provider, runner execute.Runner, l lang.Language, te lang.TestExtractor, p dataset.Problem, params llm.Params, codes, tests int, lim Limits, cfg Config) (Result, error) {
	g, err := GenerateIn(ctx, prov, l, te, p, params, codes, tests)
	if err != nil {
		return Result{}, err
	}
	prob, err := PrepareIn(ctx, runner, l, p, g, lim)
	if err != nil {
		return Result{}, err
	}
	return Simulate(ctx, prob, cfg)
}
