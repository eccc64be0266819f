package interact

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/inputs"
	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
)

// ErrNoModel is returned when a source needs a model and none was given.
var ErrNoModel = errors.New("no model")

// Errors of generation that a front end may add its own advice to (which
// flag or field asks for more); their messages name no command-line flag.
var (
	// ErrNoSignature: a prompt was given without a signature.
	ErrNoSignature = errors.New("a prompt needs a signature too")
	// ErrNoCandidates: the model's code samples held no usable program.
	ErrNoCandidates = errors.New("no usable candidate program")
	// ErrNoTests: the model's test samples held no usable test.
	ErrNoTests = errors.New("no usable test")
	// ErrModelFailed: the model did not answer; it wraps the llm error.
	ErrModelFailed = errors.New("the model did not answer")
	// ErrNeedsOutputMode: an answer giving the right output in PassFail
	// mode. It also matches session.ErrBadAnswer.
	ErrNeedsOutputMode = errors.New("giving the right output needs Output mode")
)

// ErrBadSource matches (with errors.Is) the errors of a spec or task that
// cannot be used as given: an empty spec, a spec without a function, a task
// name of the wrong form or one its dataset lacks. Syntax errors are
// *SyntaxError instead.
var ErrBadSource = errors.New("unusable source")

// sourceError is a user's mistake in a Source; its message is for a person
// and it matches ErrBadSource.
type sourceError struct{ msg string }

// Error returns the message.
func (e *sourceError) Error() string { return e.msg }

// Is reports whether target is ErrBadSource.
func (e *sourceError) Is(target error) bool { return target == ErrBadSource }

// badSource returns a *sourceError with a formatted message.
func badSource(format string, args ...any) error {
	return &sourceError{msg: fmt.Sprintf(format, args...)}
}

// Source says what the code is for. Exactly one of Demo, Spec, Prompt (with
// Signature) and Task is set.
type Source struct {
	// Demo names a built-in demo problem.
	Demo string
	// Spec is a Python stub; SpecName names it in messages (e.g. its path).
	Spec     string
	SpecName string
	// Prompt and Signature describe the function in words and its def line.
	Prompt    string
	Signature string
	// Task names a dataset problem as DATASET/ID, e.g. humaneval/HumanEval/12.
	Task string
	// Language is the language of Spec: "" or "python", or "java" (a
	// class with a static method to write, see lang/java).
	Language string
	// Module is a function inside a project's module (run --spec
	// FILE::NAME); the Builder's Runner must run programs as that module
	// (execute.Module). Build fills in the rest of it.
	Module *ModuleTarget
}

// Kind returns "demo", "spec", "prompt", "task" or "module", or an error when not
// exactly one source is set.
func (s Source) Kind() (string, error) {
	var kinds []string
	if s.Demo != "" {
		kinds = append(kinds, "demo")
	}
	if s.Spec != "" || s.SpecName != "" {
		kinds = append(kinds, "spec")
	}
	if s.Prompt != "" || s.Signature != "" {
		kinds = append(kinds, "prompt")
	}
	if s.Task != "" {
		kinds = append(kinds, "task")
	}
	if s.Module != nil {
		kinds = append(kinds, "module")
	}
	switch {
	case len(kinds) == 0:
		return "", errors.New("say what to write: a demo, a spec file, a prompt with a signature, or a dataset task")
	case len(kinds) > 1:
		return "", fmt.Errorf("give only one of demo, spec, prompt and task (got %s)", strings.Join(kinds, " and "))
	case kinds[0] == "prompt" && (s.Prompt == "" || s.Signature == ""):
		return "", fmt.Errorf("%w, e.g. \"def f(x: int) -> int\"", ErrNoSignature)
	}
	return kinds[0], nil
}

// Options are the session's settings.
type Options struct {
	// Mode is rank.PassFail or rank.Output.
	Mode rank.Mode
	// Codes and Tests are how many samples to ask the model for.
	Codes, Tests int
	// MaxQuestions stops after that many answers; 0 means no limit.
	MaxQuestions int
	// Select and Rank name the strategies (default infogain and codet).
	Select, Rank string
	// Seed seeds the random selector.
	Seed uint64
	// Questions says what to ask about: generated tests, synthesized
	// questions (inputs where the candidates disagree), or both (the zero
	// value).
	Questions session.Questions
	// Regenerate bounds the rounds in which a conversation asks the model
	// for new candidates, with the approved tests in the prompt, when no
	// candidate agrees with all the answers (see Conversation.UseBuilder);
	// 0 never asks.
	Regenerate int
}

// Generator asks a model for candidate programs and tests of a problem and
// extracts them. Implementations are safe for concurrent use.
type Generator interface {
	Generate(ctx context.Context, p dataset.Problem, codes, tests int, rep progress.Reporter) ([]extract.Candidate, []extract.Test, error)
}

// Builder prepares sessions. Its fields are read-only after construction;
// a Builder is safe for concurrent use if its Runner and Generator are.
type Builder struct {
	// Runner runs code in the sandbox.
	Runner execute.Runner
	// Generator produces candidates with a model; nil allows demos only.
	Generator Generator
	// DataDir holds the datasets for Task sources.
	DataDir string
	// Timeout limits one test on one candidate (default 5 s).
	Timeout time.Duration
	// DatasetFiles lets a Task source name a dataset by file path, as the
	// terminal does. Off, only the known dataset names are accepted: a web
	// client must not make the server read files of its choosing.
	DatasetFiles bool
	// Runners returns the runner of a language's programs ("" is Python);
	// nil runs every language on Runner.
	Runners func(language string) execute.Runner
}

// RunnerOr returns the runner Runners gives for language when it is not
// Runner (a language with a pool of its own, such as Java), else fallback
// (a front end's runner for sandboxed checks).
func (b *Builder) RunnerOr(language string, fallback execute.Runner) execute.Runner {
	if r := b.RunnerFor(language); r != b.Runner {
		return r
	}
	return fallback
}

// RunnerFor returns the runner of the programs of language.
func (b *Builder) RunnerFor(language string) execute.Runner {
	if b.Runners != nil {
		if r := b.Runners(language); r != nil {
			return r
		}
	}
	return b.Runner
}

// Prepared is a session ready to start.
type Prepared struct {
	Task api.Task     `json:"task"`
	Spec session.Spec `json:"spec"`
	// Module is the function inside a project's module that the session
	// writes; nil for every other source.
	Module *ModuleTarget `json:"module,omitempty"`
	// Regeneration says how the session may ask the model for new
	// candidates; nil: never (Options.Regenerate 0).
	Regeneration *Regeneration `json:"regeneration,omitempty"`
}

// Build prepares the session for src: it loads or generates the candidates
// and tests and runs every test on every candidate in the sandbox.
func (b *Builder) Build(ctx context.Context, src Source, opts Options, rep progress.Reporter) (*Prepared, error) {
	kind, err := src.Kind()
	if err != nil {
		return nil, err
	}
	var ld loaded
	if kind == "demo" {
		ld, err = loadDemo(src.Demo)
	} else {
		ld, err = b.generate(ctx, kind, src, opts, rep)
	}
	if err != nil {
		return nil, err
	}
	l, err := languageOf(ld.task.Language)
	if err != nil {
		return nil, err
	}
	runner := b.RunnerFor(ld.task.Language)
	results, err := b.matrix(ctx, runner, ld.cands, ld.tests, ld.task.EntryPoint, rep)
	if err != nil {
		return nil, err
	}
	spec := newSpec(ld, results, opts)
	if err := b.addSynthesized(ctx, runner, l, &spec, ld.proposed, opts.Questions); err != nil {
		return nil, fmt.Errorf("synthesized questions: %w", err)
	}
	p := &Prepared{Task: ld.task, Spec: spec, Module: src.Module}
	if opts.Regenerate > 0 {
		p.Regeneration = &Regeneration{Rounds: opts.Regenerate, Codes: opts.Codes, Context: ld.codeCtx}
	}
	return p, nil
}

// loaded is what a session is built from: the task as a front end shows it
// and as the session sees it, the candidates and tests, the code a
// regenerated candidate may rely on (codeCtx), and the inputs the model
// proposed for the input pool.
type loaded struct {
	task     api.Task
	stask    session.Task
	cands    []extract.Candidate
	tests    []extract.Test
	codeCtx  string
	proposed []string
}

// loadDemo returns the built-in demo problem name with its recorded
// candidates and tests.
func loadDemo(name string) (loaded, error) {
	p, err := demo.Get(name)
	if err != nil {
		return loaded{}, err
	}
	d := p.Dataset()
	return loaded{
		task:    api.Task{Name: p.Name, Title: p.Title, Stub: p.Stub, EntryPoint: p.EntryPoint, Source: "demo", Language: p.Language},
		stask:   session.Task{ID: d.ID, Prompt: d.Prompt, Description: d.Description, Signature: d.Signature, EntryPoint: d.EntryPoint},
		codeCtx: d.Context,
		cands:   p.Candidates,
		tests:   p.Tests,
	}, nil
}

// generate returns the problem of a spec, prompt, task or module source
// with the candidates and tests the Generator's model writes for it (for
// a module, whole modules with the function replaced, the existing
// implementation among them), and any inputs the model proposes.
func (b *Builder) generate(ctx context.Context, kind string, src Source, opts Options, rep progress.Reporter) (loaded, error) {
	prob, err := b.problem(ctx, kind, src)
	if err != nil {
		return loaded{}, err
	}
	if b.Generator == nil {
		return loaded{}, fmt.Errorf("%w: this task needs a model to write candidates and tests", ErrNoModel)
	}
	var ld loaded
	ld.cands, ld.tests, err = b.Generator.Generate(ctx, prob, opts.Codes, opts.Tests, rep)
	if err != nil {
		return loaded{}, err
	}
	if opts.Questions != session.TestsOnly && (src.Module == nil || src.Module.Alias == "") {
		ld.proposed = b.proposeInputs(ctx, prob)
	}
	if kind == "module" {
		if ld.cands, err = moduleCandidates(ctx, b.Runner, src.Module, ld.cands); err != nil {
			return loaded{}, err
		}
		ld.cands = withYours(src.Module, ld.cands)
		prob = src.Module.sessionProblem(prob)
	}
	if len(ld.cands) == 0 {
		return loaded{}, fmt.Errorf("%w: the model gave none for %s", ErrNoCandidates, prob.EntryPoint)
	}
	name := prob.EntryPoint
	if kind == "task" {
		name = prob.ID
	} else if kind == "module" {
		name = src.Module.Name
	}
	ld.task = api.Task{Name: name, Stub: prob.Prompt, EntryPoint: prob.EntryPoint, Source: kind, Language: prob.Language}
	ld.stask = session.Task{ID: prob.ID, Prompt: prob.Prompt, Description: prob.Description, Signature: prob.Signature, EntryPoint: prob.EntryPoint}
	ld.codeCtx = prob.Context
	return ld, nil
}

// proposeInputs returns the inputs of prob the Generator's model proposes,
// if it can propose any (inputProposer). They are a bonus: without them
// the pool still has the tests' calls and their mutations.
func (b *Builder) proposeInputs(ctx context.Context, prob dataset.Problem) []string {
	pr, ok := b.Generator.(inputProposer)
	if !ok {
		return nil
	}
	proposed, err := pr.ProposeInputs(ctx, prob)
	if err != nil {
		slog.Debug("the model proposed no inputs", "task", prob.ID, "err", err)
	}
	return proposed
}

// newSpec returns the session's spec from what was loaded and the
// matrix, with the default strategies (infogain, codet) where opts names
// none.
func newSpec(ld loaded, results [][]execute.Result, opts Options) session.Spec {
	sel, rk := opts.Select, opts.Rank
	if sel == "" {
		sel = "infogain"
	}
	if rk == "" {
		rk = "codet"
	}
	return session.Spec{
		Task: ld.stask, Candidates: ld.cands, Tests: ld.tests, Results: results, Mode: opts.Mode,
		Select: sel, Rank: rk, MaxQuestions: opts.MaxQuestions, Seed: opts.Seed, Questions: opts.Questions,
	}
}

// addSynthesized adds the synthesized questions to spec unless only
// tests are asked about: those of a language that harvests inputs itself
// (synthesize, on runner), or else the Python input pool with the
// proposed inputs (inputs.Synthesize, on the Builder's Runner).
func (b *Builder) addSynthesized(ctx context.Context, runner execute.Runner, l lang.Language, spec *session.Spec, proposed []string, q session.Questions) error {
	if q == session.TestsOnly {
		return nil
	}
	if h, ok := l.(lang.InputHarvester); ok {
		return synthesize(ctx, runner, l, h, spec, b.Timeout)
	}
	req := inputs.Request{Entry: spec.Task.EntryPoint, Prompt: spec.Task.Prompt, Signature: spec.Task.Signature, Proposed: proposed}
	return inputs.Synthesize(ctx, b.Runner, spec, req, b.Timeout)
}

// problem returns the dataset.Problem of a spec, prompt or task source.
func (b *Builder) problem(ctx context.Context, kind string, src Source) (dataset.Problem, error) {
	if kind == "module" {
		return b.moduleProblem(ctx, src.Module)
	}
	if kind == "task" {
		name, id, ok := strings.Cut(src.Task, "/")
		if !ok || id == "" {
			return dataset.Problem{}, badSource("task %q: want DATASET/ID, e.g. humaneval/HumanEval/12 or mbpp/2", src.Task)
		}
		if _, known := dataset.Lookup(name); !known && !b.DatasetFiles {
			return dataset.Problem{}, badSource("task %q: unknown dataset %q; use one of %s", src.Task, name, strings.Join(dataset.Names(), ", "))
		}
		ds, err := dataset.Load(ctx, b.DataDir, name)
		if err != nil {
			return dataset.Problem{}, err
		}
		p, ok := ds.Get(id)
		if !ok {
			return dataset.Problem{}, badSource("task %q: dataset %s has no problem %q", src.Task, name, id)
		}
		// The model must not see the reference or the hidden tests; they stay
		// in the Problem but Generators only read the visible part.
		return p, nil
	}
	l, err := languageOf(src.Language)
	if err != nil {
		return dataset.Problem{}, err
	}
	text, what := src.Spec, "the spec"
	if src.SpecName != "" {
		what = "spec file " + src.SpecName
	}
	if kind == "prompt" {
		if l.Name() != "python" {
			return dataset.Problem{}, badSource("a %s function needs a stub file (a spec), not a prompt and a signature", l.Name())
		}
		text, what = StubFromPrompt(src.Prompt, src.Signature), "signature"
	}
	stub, err := l.ParseStub(ctx, b.Runner, what, text)
	if err != nil {
		if errors.Is(err, lang.ErrBadStub) {
			return dataset.Problem{}, badSource("%s", err)
		}
		return dataset.Problem{}, err
	}
	prompt := strings.TrimRight(text, " \t\n") + "\n"
	language := ""
	if l.Name() != "python" {
		language = l.Name()
	}
	return dataset.Problem{
		ID: stub.EntryPoint, Dataset: kind, Prompt: prompt, Description: stub.Docstring,
		Context: stub.Context, Signature: stub.Signature, EntryPoint: stub.EntryPoint, Language: language,
	}, nil
}

// matrix runs every test on every candidate on r; entry names the function
// under test (see execute.Test.Entry).
func (b *Builder) matrix(ctx context.Context, r execute.Runner, cands []extract.Candidate, tests []extract.Test, entry string, rep progress.Reporter) ([][]execute.Result, error) {
	rep = progress.OrNop(rep)
	timeout := b.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	job := execute.Job{Programs: make([]string, len(cands)), Tests: make([]execute.Test, len(tests)), TimePolicy: execute.Within(timeout)}
	for i, c := range cands {
		job.Programs[i] = c.Program
	}
	for j, t := range tests {
		job.Tests[j] = t.Test
		job.Tests[j].Entry = entry
	}
	rep.Start("run tests", len(cands))
	defer rep.Finish()
	m, err := r.Run(ctx, job, func(int, []execute.Result) { rep.Add(1) })
	if err != nil {
		return nil, fmt.Errorf("run %d tests on %d candidates: %w", len(tests), len(cands), err)
	}
	return m.Results, nil
}

// synthesize adds synthesized questions for a language that harvests
// inputs itself (lang.InputHarvester): the calls of the generated value
// tests and those the language derives from the prompt's examples, each run
// on every candidate as a value test without an expected value.
func synthesize(ctx context.Context, r execute.Runner, l lang.Language, h lang.InputHarvester, spec *session.Spec, timeout time.Duration) error {
	const maxCalls = 64
	seen := map[string]bool{}
	var calls []string
	for _, t := range spec.Tests {
		if t.Input != "" && t.Setup == "" && !seen[t.Input] && len(calls) < maxCalls {
			seen[t.Input] = true
			calls = append(calls, t.Input)
		}
	}
	for _, c := range h.Inputs(spec.Task.Prompt, spec.Task.EntryPoint, maxCalls) {
		if !seen[c] && len(calls) < maxCalls {
			seen[c] = true
			calls = append(calls, c)
		}
	}
	if len(calls) == 0 || len(spec.Candidates) == 0 {
		return nil
	}
	programs := make([]string, len(spec.Candidates))
	for i, c := range spec.Candidates {
		programs[i] = c.Program
	}
	tests := make([]extract.Test, len(calls))
	for k, c := range calls {
		tests[k] = session.SynthesizedTest("", c)
	}
	m, err := r.Run(ctx, valueJob(l, programs, calls, timeout), nil)
	if err != nil {
		return fmt.Errorf("run %d calls on %d candidates: %w", len(calls), len(spec.Candidates), err)
	}
	return spec.AddSynthesized(tests, m.Results, nil)
}
