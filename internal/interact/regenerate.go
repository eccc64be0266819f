package interact

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/generate"
	"github.com/ticoder/ticoder/internal/inputs"
	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/langgen"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/session"
)

// DefaultRegenerate is how many rounds of new candidates the commands let a
// session ask the model for (their --regenerate flag's default).
const DefaultRegenerate = 2

// Regenerator is a Generator that can also write new candidate programs
// for a problem whose code must pass given tests: the user's approved
// tests, when no candidate agrees with all the answers.
type Regenerator interface {
	// Regenerate asks for codes programs of p (0: DefaultSamples) with
	// mustPass, tests as code of p's language, in the prompt, and extracts
	// them.
	Regenerate(ctx context.Context, p dataset.Problem, mustPass []string, codes int, rep progress.Reporter) ([]extract.Candidate, error)
}

// Regenerate implements Regenerator: Generate's code request, with the
// tests in its prompt (llm.Task.Tests), and no test request.
func (g *ModelGenerator) Regenerate(ctx context.Context, p dataset.Problem, mustPass []string, codes int, rep progress.Reporter) ([]extract.Candidate, error) {
	rep = progress.OrNop(rep)
	if codes <= 0 {
		codes = DefaultSamples
	}
	temp, topP := g.sampling()
	rep.Start("ask the model for new candidates with your approved tests", 1)
	defer rep.Finish()
	if l, _, ok := extractorOf(p.Language); ok {
		res, err := langgen.Codes(ctx, g.Provider, l, p, mustPass, llm.Params{Temperature: temp, TopP: topP}, codes)
		rep.Add(1)
		if err != nil {
			return nil, modelError(g.Provider, err)
		}
		return res.Candidates, nil
	}
	r, err := generate.Problem(ctx, g.Provider, g.Caller, p, generate.Options{Codes: codes, Temperature: temp, TopP: topP, MustPass: mustPass}, rep)
	var ge *generate.Error
	if errors.As(err, &ge) && ge.Step == generate.StepModel {
		return nil, modelError(g.Provider, ge.Err)
	}
	if err != nil {
		return nil, fmt.Errorf("extract the model's new programs: %w", err)
	}
	return r.Candidates, nil
}

// Regeneration is how a session asks the model for new candidates when no
// candidate agrees with all the user's answers (session.Session.Conflict),
// and what it asked so far. Build sets it from Options.Regenerate; a
// Conversation keeps it.
type Regeneration struct {
	// Rounds bounds the rounds of new candidates in the session.
	Rounds int `json:"rounds"`
	// Codes is how many programs a round asks for (0: DefaultSamples).
	Codes int `json:"codes,omitempty"`
	// Context is the task's code before its def line
	// (dataset.Problem.Context), which new programs may use.
	Context string `json:"context,omitempty"`
	// Done counts the rounds asked for so far; Added the new candidates
	// they gave (distinct from those the session had).
	Done  int `json:"done,omitempty"`
	Added int `json:"added,omitempty"`
	// Last is the number of answers when the last round was asked for,
	// LastAdded what it added, and Failed why it failed ("" if it did not).
	Last      int    `json:"last,omitempty"`
	LastAdded int    `json:"last_added,omitempty"`
	Failed    string `json:"failed,omitempty"`
}

// UseBuilder lets the conversation ask b's Generator (a Regenerator) for
// new candidates, and run them with b's runners, when an answer leaves no
// candidate that agrees with all the answers: at most the session's
// Regeneration.Rounds rounds (Options.Regenerate). rep, if not nil, shows
// a round's progress. Without a call, or with a Builder without such a
// Generator, the conversation never asks.
func (c *Conversation) UseBuilder(b *Builder, rep progress.Reporter) {
	c.builder, c.rep = b, rep
}

// regenerator returns the Generator that writes new candidates, or false
// when the conversation may not ask for more.
func (c *Conversation) regenerator() (Regenerator, bool) {
	if c.builder == nil || c.regen == nil || c.regen.Done >= c.regen.Rounds {
		return nil, false
	}
	g, ok := c.builder.Generator.(Regenerator)
	return g, ok
}

// regenerate asks the model for new candidates, with the approved tests in
// the prompt, while no candidate agrees with all the answers and rounds
// are left; the new candidates join the session, judged by every answer.
// A round that fails is noted (Regeneration.Failed) and logged: the answer
// stands either way.
func (c *Conversation) regenerate(ctx context.Context) {
	for c.sess.Conflict() > 0 {
		g, ok := c.regenerator()
		if !ok {
			return
		}
		mustPass := c.mustPass()
		if len(mustPass) == 0 {
			// Without an approved test the request would be the first one
			// again.
			return
		}
		c.regen.Done++
		c.regen.Last, c.regen.LastAdded, c.regen.Failed = c.sess.Asked(), 0, ""
		added, err := c.round(ctx, g, mustPass)
		c.regen.Added += added
		c.regen.LastAdded += added
		if err != nil {
			if ctx.Err() != nil {
				c.regen.Failed = "interrupted"
				return
			}
			c.regen.Failed = err.Error()
			slog.Warn("the model wrote no new candidates", "task", c.task.Name, "round", c.regen.Done, "err", err)
			return
		}
		slog.Debug("new candidates from the model", "task", c.task.Name, "round", c.regen.Done, "added", added, "conflict", c.sess.Conflict())
	}
}

// mustPass returns the approved tests as code of the task's language.
func (c *Conversation) mustPass() []string {
	approved := c.sess.Approved()
	out := make([]string, len(approved))
	for i, t := range approved {
		out[i] = c.lang.ShowTest(c.task.Stub, c.task.EntryPoint, t)
	}
	return out
}

// round asks g for new candidates once, runs those the session lacks on
// every test and synthesized question, and adds them; it returns how many
// it added.
func (c *Conversation) round(ctx context.Context, g Regenerator, mustPass []string) (int, error) {
	spec := c.sess.Spec()
	t := spec.Task
	p := dataset.Problem{
		ID: t.ID, Prompt: t.Prompt, Description: t.Description, Signature: t.Signature, EntryPoint: t.EntryPoint,
		Context: c.regen.Context, Language: c.task.Language,
	}
	if c.module != nil && c.module.Call != "" {
		p.EntryPoint = c.module.Call // the model writes the method; its tests call the stand-in
	}
	cands, err := g.Regenerate(ctx, p, mustPass, c.regen.Codes, c.rep)
	if err != nil {
		return 0, err
	}
	if c.module != nil {
		if cands, err = moduleCandidates(ctx, c.builder.Runner, c.module, cands); err != nil {
			return 0, err
		}
	}
	have, samples := map[string]bool{}, 0
	for _, old := range spec.Candidates {
		have[programKey(old.Program)] = true
		samples += max(old.Count, 1)
	}
	var fresh []extract.Candidate
	for _, nc := range cands {
		if k := programKey(nc.Program); !have[k] {
			have[k] = true
			nc.First += samples // the new samples come after the first ones
			fresh = append(fresh, nc)
		}
	}
	if len(fresh) == 0 {
		return 0, nil
	}
	rows, classes, err := c.builder.rows(ctx, c.task.Language, c.lang, spec, fresh, c.rep)
	if err != nil {
		return 0, fmt.Errorf("run the new candidates: %w", err)
	}
	if err := c.sess.AddCandidates(ctx, fresh, rows, classes); err != nil {
		return 0, err
	}
	return len(fresh), nil
}

// programKey identifies a program up to white space.
func programKey(program string) string { return strings.Join(strings.Fields(program), " ") }

// rows runs every test and synthesized question of spec on new candidates
// as Build ran them on the spec's own (matrix, then inputs.Rows, or for a
// language that harvests its own inputs the language's value test of each
// call), and returns their results in the spec's columns with the value
// classes (nil: keep the spec's).
func (b *Builder) rows(ctx context.Context, language string, l lang.Language, spec *session.Spec, cands []extract.Candidate, rep progress.Reporter) ([][]execute.Result, map[string]int32, error) {
	synthesized := func(j int) bool { return spec.Synthesized != nil && spec.Synthesized[j] }
	var written []extract.Test
	for j, t := range spec.Tests {
		if !synthesized(j) {
			written = append(written, t)
		}
	}
	runner := b.RunnerFor(language)
	tested := make([][]execute.Result, len(cands))
	if len(written) > 0 {
		var err error
		if tested, err = b.matrix(ctx, runner, cands, written, spec.Task.EntryPoint, rep); err != nil {
			return nil, nil, err
		}
	}
	if len(written) == len(spec.Tests) {
		return tested, nil, nil
	}
	programs := make([]string, len(cands))
	for i, nc := range cands {
		programs[i] = nc.Program
	}
	if _, ok := l.(lang.InputHarvester); !ok {
		return inputs.Rows(ctx, b.Runner, spec, programs, tested, b.Timeout)
	}
	var calls []string
	for j, t := range spec.Tests {
		if synthesized(j) {
			calls = append(calls, t.Input)
		}
	}
	m, err := runner.Run(ctx, valueJob(l, programs, calls, b.Timeout), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("run %d calls on %d candidates: %w", len(calls), len(programs), err)
	}
	rows := make([][]execute.Result, len(cands))
	for i := range rows {
		w, k := 0, 0
		for j := range spec.Tests {
			if synthesized(j) {
				rows[i] = append(rows[i], m.Results[i][k])
				k++
			} else {
				rows[i] = append(rows[i], tested[i][w])
				w++
			}
		}
	}
	return rows, nil, nil
}

// valueJob is the job that runs calls on programs as value tests of l
// without expected values (lang.Language.ValueTest), each limited to
// timeout (0: 5 s).
func valueJob(l lang.Language, programs, calls []string, timeout time.Duration) execute.Job {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	job := execute.Job{Programs: programs, TimePolicy: execute.Within(timeout)}
	for _, c := range calls {
		job.Tests = append(job.Tests, l.ValueTest(c, ""))
	}
	return job
}
