package estimate

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/inputs"
	"github.com/ticoder/ticoder/internal/pyfunc"
	"github.com/ticoder/ticoder/internal/qe"
)

//go:embed agree.py
var agreePy string

// agreeProgram is agree.py run after inputs.py, whose mutators it uses.
var agreeProgram = inputs.Program.With(pyfunc.Module{Name: "agree.py", Text: agreePy})

// prepareFunc is agree.py's prepare.
var prepareFunc = pyfunc.Func[prepareArg, AgreeInputs]{Program: agreeProgram, Name: "prepare"}

// Agree is the execution-based estimator (no LLM, no example set). For a problem it
//
//  1. parses the examples of the problem's own docstring (ParseExamples) and
//     has Python validate them and harvest more inputs by mutating their
//     arguments with the input generator's mutators (agree.py after
//     inputs.Program, run in the sandbox through Runner.Call);
//  2. runs every candidate on the example calls and on the harvested inputs
//     (one execute.Job; programs are the prompt's code before the entry
//     point's def, then the candidate);
//  3. scores each candidate with AgreeScore: the share of docstring examples
//     it passes, plus AgreementWeight times how much its behaviour (returned
//     values or exception types, on all inputs) agrees with the other
//     candidates'.
//
// Cost: one sandboxed call to prepare the inputs and one sandboxed run of n
// candidates × (examples + MaxInputs) calls per problem, each bounded by
// Timeout; tens to hundreds of milliseconds per problem on a warm worker pool, more
// when candidates loop. Results are cached by the Runner's cache.
type Agree struct {
	Runner execute.Runner
	// JavaRunner runs the candidates of Java problems (Problem.Language):
	// their examples and inputs come from the language (lang/java), not
	// from Python.
	JavaRunner execute.Runner
	// Timeout bounds one call of one candidate (default 1 s).
	Timeout time.Duration
	// MaxInputs is how many harvested inputs are used (0 means 8).
	MaxInputs int
	// NoHarvest uses the docstring examples only.
	NoHarvest bool
	// AgreementWeight weighs behavioural agreement against the example pass
	// rate (default 0.5 when zero).
	AgreementWeight float64
}

// Name implements Estimator.
func (a *Agree) Name() string {
	return fmt.Sprintf("agree(w=%g)", a.weight())
}

func (a *Agree) weight() float64 {
	if a.AgreementWeight == 0 {
		return 0.5
	}
	return a.AgreementWeight
}

// AgreeInputs are the validated docstring examples and harvested inputs of
// one problem.
type AgreeInputs struct {
	Examples []Example `json:"examples"`
	Inputs   []string  `json:"inputs"`
}

// prepareArg is the argument of agree.py's prepare.
type prepareArg struct {
	Entry     string    `json:"entry"`
	Examples  []Example `json:"examples"`
	MaxInputs int       `json:"max_inputs"`
	Seed      int64     `json:"seed"`
}

// Prepare validates the problem's docstring examples and harvests inputs.
func (a *Agree) Prepare(ctx context.Context, p qe.Problem) (AgreeInputs, error) {
	entry := p.Entry()
	max := a.MaxInputs
	if max == 0 {
		max = 8
	}
	if a.NoHarvest {
		max = 0
	}
	if l, ok := languageOfProblem(p.Language); ok {
		if entry == "" {
			return AgreeInputs{}, nil
		}
		return prepareWith(l, p.Prompt, entry, max), nil
	}
	raw := ParseExamples(p.Prompt, entry)
	if entry == "" || len(raw) == 0 {
		return AgreeInputs{}, nil
	}
	in, err := prepareFunc.Call(ctx, a.Runner, prepareArg{Entry: entry, Examples: raw, MaxInputs: max})
	if err != nil {
		return in, fmt.Errorf("agree: prepare examples of %s: %w", p.TaskID, err)
	}
	return in, nil
}

// Score implements Estimator.
func (a *Agree) Score(ctx context.Context, p qe.Problem, candidates []string) ([]float64, error) {
	in, err := a.Prepare(ctx, p)
	if err != nil {
		return nil, err
	}
	m, err := a.Run(ctx, p, candidates, in)
	if err != nil {
		return nil, err
	}
	return AgreeScore(m, len(in.Examples), a.weight()), nil
}

// Run executes the candidates on the examples (first) and the inputs.
// Without any, it returns a matrix with no tests.
func (a *Agree) Run(ctx context.Context, p qe.Problem, candidates []string, in AgreeInputs) (*execute.Matrix, error) {
	var tests []execute.Test
	for _, e := range in.Examples {
		tests = append(tests, execute.Test{Code: "assert " + e.Call + " == " + e.Expected, Input: e.Call, Expected: e.Expected})
	}
	for _, c := range in.Inputs {
		// The expected value is unknown; only the returned value matters.
		tests = append(tests, execute.Test{Code: "assert " + c + " == None", Input: c, Expected: "None"})
	}
	if len(tests) == 0 {
		return &execute.Matrix{Results: make([][]execute.Result, len(candidates))}, nil
	}
	timeout := a.Timeout
	if timeout == 0 {
		timeout = time.Second
	}
	if l, ok := languageOfProblem(p.Language); ok {
		return a.runWith(ctx, l, p, candidates, in, timeout)
	}
	ctxCode := promptContext(p.Prompt, p.Entry())
	progs := make([]string, len(candidates))
	for i, c := range candidates {
		progs[i] = joinProgram(ctxCode, c)
	}
	m, err := a.Runner.Run(ctx, execute.Job{Programs: progs, Tests: tests, TimePolicy: execute.Within(timeout)}, nil)
	if err != nil {
		return nil, fmt.Errorf("agree: run candidates of %s: %w", p.TaskID, err)
	}
	return m, nil
}

// promptContext returns the prompt's code before the entry point's def:
// imports and helper functions a candidate may rely on.
func promptContext(prompt, entry string) string {
	if entry == "" {
		return ""
	}
	start, _ := findDef(prompt, entry, true)
	if start < 0 {
		return ""
	}
	return strings.TrimRight(prompt[:start], " \t\n")
}

// joinProgram puts the context before a candidate unless the candidate
// already starts with it.
func joinProgram(context, candidate string) string {
	if context == "" || strings.HasPrefix(strings.TrimSpace(candidate), strings.TrimSpace(context)) {
		return candidate
	}
	return context + "\n\n" + candidate
}

// AgreeScore scores the candidates (rows of m) from their results: the
// first nExamples tests are docstring examples with known expected values,
// all tests (examples included) are inputs whose behaviour is compared.
//
//	score_i = pass_i + w · agree_i
//
// pass_i is the share of examples candidate i passes (0.5 when there are no
// examples, so problems without examples sit mid-scale in a global ranking);
// agree_i is the mean over the other candidates j of the share of inputs on
// which i and j behave alike: both returned values with equal repr, or both
// raised the same exception type (timeouts and crashes never agree).
func AgreeScore(m *execute.Matrix, nExamples int, w float64) []float64 {
	n := len(m.Results)
	out := make([]float64, n)
	sig := make([][]string, n)
	for i, row := range m.Results {
		sig[i] = make([]string, len(row))
		for j, r := range row {
			sig[i][j] = behaviour(r)
		}
	}
	for i := range out {
		pass := 0.5
		if nExamples > 0 {
			k := 0
			for j := 0; j < nExamples && j < len(m.Results[i]); j++ {
				if m.Results[i][j].Outcome == execute.Pass {
					k++
				}
			}
			pass = float64(k) / float64(nExamples)
		}
		out[i] = pass
	}
	if w == 0 || n < 2 {
		return out
	}
	agree := meanPairwise(n, func(i, j int) float64 {
		if len(sig[i]) == 0 || len(sig[i]) != len(sig[j]) {
			return 0
		}
		same := 0
		for t := range sig[i] {
			if sig[i][t] != "" && sig[i][t] == sig[j][t] {
				same++
			}
		}
		return float64(same) / float64(len(sig[i]))
	})
	for i := range out {
		out[i] += w * agree[i]
	}
	return out
}

// behaviour is what a test revealed of a candidate: "=repr" for a returned
// value, "!Type" for an exception, "" for anything that cannot agree.
func behaviour(r execute.Result) string {
	switch {
	case r.HasValue:
		return "=" + r.Value
	case r.Outcome == execute.Error:
		return "!" + r.Exception
	default:
		return ""
	}
}
