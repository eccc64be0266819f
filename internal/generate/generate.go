package generate

import (
	"context"
	"log/slog"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/progress"
)

// RulesVersion names the rules by which Problem turns a problem into
// generated candidates and tests: the requests it sends (llm's prompts and
// sampling parameters), the continuation and cut-off rules, and
// RawPrograms. Caches of generated candidates (eval's) are keyed on it and
// extract.RulesVersion, not on the binary, so they survive a rebuild. Bump
// it whenever one of those changes what is generated for the same problem
// and options.
const RulesVersion = "gen-v4"

// DefaultTemperature and DefaultTopP are the sampling parameters of the
// TiCoder paper, the commands' defaults.
const (
	DefaultTemperature = 0.8
	DefaultTopP        = 0.95
)

// Options say what Problem asks the model for.
type Options struct {
	// Codes and Tests are how many code and test samples to ask for; 0
	// asks for none of that kind.
	Codes, Tests int
	// Temperature and TopP are the sampling parameters, sent as they are (0
	// is greedy decoding, not a default).
	Temperature, TopP float64
	// MaxTokens limits a completion's length; 0 leaves it to llm's
	// per-purpose default.
	MaxTokens int
	// Seed is the sampling seed for servers that support one; nil: none.
	Seed *int
	// CodeStyle says how code completions relate to the prompt; "" means
	// extract.StyleBody when the model continued the prompt, else
	// extract.StyleAuto.
	CodeStyle extract.Style
	// MustPass are tests the code must pass (the user's approved tests),
	// shown in the code prompt (llm.Task.Tests); test prompts never show
	// them. None leaves the requests as they were.
	MustPass []string
	// TestEntry, when not empty, is the name the tests call in place of
	// the problem's EntryPoint: a method's (llm.ParseMethod) module-level
	// stand-in. The prompts still name the EntryPoint.
	TestEntry string
}

// Result is what Problem made of one problem: the model's raw completions
// and what extraction made of them. It is the JSON line `ticoder gen`
// writes; the slices are never nil.
type Result struct {
	TaskID     string              `json:"task_id"`
	Candidates []extract.Candidate `json:"candidates"`
	Tests      []extract.Test      `json:"tests"`
	Stats      Stats               `json:"stats"`
	RawCodes   []string            `json:"raw_codes"`
	RawTests   []string            `json:"raw_tests"`
}

// Stats are the extraction counters of one problem.
type Stats struct {
	Codes extract.Stats `json:"codes"`
	Tests extract.Stats `json:"tests"`
}

// Step names the step of Problem that failed.
type Step int

// The steps of Problem.
const (
	// StepModel is a request to the model.
	StepModel Step = iota + 1
	// StepExtractCodes is the extraction of the code completions.
	StepExtractCodes
	// StepExtractTests is the extraction of the test completions.
	StepExtractTests
)

// Error is an error of Problem: the step that failed and its cause. Its
// text is the cause's, so that each caller can word the step its own way
// (errors.As).
type Error struct {
	Step Step
	Err  error
}

// Error returns the cause's text.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Problem asks prov for p's code and test completions (the model sees only
// p's visible part) and extracts them with runner (an execute.Runner, in
// the sandbox). rep, if not nil, is advanced by one as each of the model's
// answers arrives. Errors are *Error. It is safe for concurrent use if prov
// and runner are.
func Problem(ctx context.Context, prov llm.Provider, runner extract.Caller, p dataset.Problem, o Options, rep progress.Reporter) (Result, error) {
	rep = progress.OrNop(rep)
	res := Result{TaskID: p.ID, Candidates: []extract.Candidate{}, Tests: []extract.Test{}, RawCodes: []string{}, RawTests: []string{}}
	params := llm.Params{Temperature: o.Temperature, TopP: o.TopP, MaxTokens: o.MaxTokens}
	if o.Seed != nil {
		seed := *o.Seed
		params.Seed = &seed
	}
	task := llm.TaskFrom(p)
	if o.Codes > 0 {
		params.N = o.Codes
		codeTask := task
		codeTask.Tests = o.MustPass
		gen, err := ask(ctx, prov, llm.Request{Purpose: llm.PurposeCode, Task: codeTask, Params: params})
		if err != nil {
			return res, &Error{StepModel, err}
		}
		rep.Add(1)
		cp, style := codeProblem(p, gen, o.CodeStyle)
		res.RawCodes = gen.Texts()
		if res.Candidates, res.Stats.Codes, err = extract.Codes(ctx, runner, cp, res.RawCodes, style); err != nil {
			return res, &Error{StepExtractCodes, err}
		}
	}
	if o.Tests > 0 {
		params.N = o.Tests
		gen, err := ask(ctx, prov, llm.Request{Purpose: llm.PurposeTests, Task: task, Params: params})
		if err != nil {
			return res, &Error{StepModel, err}
		}
		rep.Add(1)
		res.RawTests = gen.Texts()
		tp := p
		if o.TestEntry != "" {
			tp.EntryPoint = o.TestEntry
		}
		if res.Tests, res.Stats.Tests, err = extract.Tests(ctx, runner, tp, res.RawTests, testOptions(gen)); err != nil {
			return res, &Error{StepExtractTests, err}
		}
	}
	if res.Candidates == nil {
		res.Candidates = []extract.Candidate{}
	}
	if res.Tests == nil {
		res.Tests = []extract.Test{}
	}
	return res, nil
}

// All runs Problem on every problem, jobs at a time (at least one), and
// returns the results in problem order. rep, if not nil, is advanced by one
// as each problem is done. The first error cancels the rest.
func All(ctx context.Context, prov llm.Provider, runner extract.Caller, problems []dataset.Problem, o Options, jobs int, rep progress.Reporter) ([]Result, error) {
	rep = progress.OrNop(rep)
	out := make([]Result, len(problems))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(jobs, 1))
	for i := range problems {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			r, err := Problem(ctx, prov, runner, problems[i], o, nil)
			if err != nil {
				return err
			}
			out[i] = r
			rep.Add(1)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// ask asks prov and notes when fewer samples came back than asked for.
func ask(ctx context.Context, prov llm.Provider, req llm.Request) (*llm.Generation, error) {
	gen, err := prov.Generate(ctx, req)
	if err != nil {
		return nil, err
	}
	if gen.Short() {
		slog.Warn("fewer samples than asked for", "task", req.Task.ID, "purpose", req.Purpose, "got", len(gen.Choices), "asked", gen.Requested)
	}
	return gen, nil
}

// codeProblem returns the problem and style to extract gen's code with. When
// the model continued a prompt, completions are bodies joined to the text
// they continue: the problem's own prompt when the rendered prompt ends with
// it, else the whole rendered prompt; and with no style chosen they are
// extracted as bodies.
func codeProblem(p dataset.Problem, gen *llm.Generation, style extract.Style) (dataset.Problem, extract.Style) {
	chosen := style != ""
	if !chosen {
		style = extract.StyleAuto
	}
	if gen.Continues == "" {
		return p, style
	}
	if !strings.HasSuffix(gen.Continues, p.Prompt) {
		p.Prompt = gen.Continues
	}
	if !chosen {
		style = extract.StyleBody
	}
	return p, style
}

// testOptions says what gen's test completions continue and which were cut
// off: a completion the server stopped at the length limit, or a recorded
// continuation (no finish reason) that ends mid-line.
func testOptions(gen *llm.Generation) extract.TestOptions {
	var o extract.TestOptions
	if gen.Continues != "" {
		last := gen.Continues[strings.LastIndex(gen.Continues, "\n")+1:]
		if strings.TrimSpace(last) != "" {
			o.Prefix = last
		}
	}
	o.Cut = make([]bool, len(gen.Choices))
	for i, c := range gen.Choices {
		o.Cut[i] = c.FinishReason == "length" ||
			c.FinishReason == "" && gen.Continues != "" && !strings.HasSuffix(c.Text, "\n")
	}
	return o
}

// RawPrograms returns r's raw code samples as `ticoder check` runs them,
// prompt + completion, when the completions continue p's prompt: most
// non-blank completions start with an indented line (a function body); nil
// otherwise (e.g. chat answers with whole programs).
func RawPrograms(p dataset.Problem, r Result) []string {
	bodies, texts := 0, 0
	for _, raw := range r.RawCodes {
		for _, line := range strings.Split(raw, "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			texts++
			if line[0] == ' ' || line[0] == '\t' {
				bodies++
			}
			break
		}
	}
	if texts == 0 || 2*bodies <= texts {
		return nil
	}
	out := make([]string, len(r.RawCodes))
	for i, raw := range r.RawCodes {
		out[i] = p.Prompt + raw
	}
	return out
}

// Totals adds up the extraction counters of rs.
func Totals(rs []Result) Stats {
	var s Stats
	for _, r := range rs {
		s.Codes.Add(r.Stats.Codes)
		s.Tests.Add(r.Stats.Tests)
	}
	return s
}
