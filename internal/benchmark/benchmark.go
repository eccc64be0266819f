package benchmark

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/eval"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/generate"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/qe/estimate"
)

// Ks returns the k of pass@k@m that `ticoder eval` reports (the TiCoder
// paper's), a fresh slice.
func Ks() []int { return []int{1, 2, 5} }

// BaselineKs returns the k of the raw samples' pass@k that `ticoder eval`
// reports, a fresh slice.
func BaselineKs() []int { return []int{1, 10, 100} }

// Config says what a benchmark run measures and where it writes.
type Config struct {
	// Dataset is the dataset's name; Problems are the problems measured,
	// in the order of the reports.
	Dataset  string
	Problems []dataset.Problem
	// Model is the model as given (a model selector such as replay:DIR)
	// and Style the prompt style as given; both key the generation cache
	// and the settings.
	Model, Style string
	// Generate says how many samples to ask for and how to sample.
	Generate generate.Options
	// Eval are the strategies and metrics.
	Eval eval.Config
	// Limits are the time limits of the matrix.
	Limits eval.Limits
	// Dir is the output directory.
	Dir string
	// Contracts names the input contracts the simulated user answers by
	// (dataset.Contracts.Name), attached to the Problems.
	Contracts string
	// Solutions names the reference solutions the simulated user answers
	// by (dataset.Contracts.SolutionsName): "dataset", or the EvalPlus
	// file whose solutions are attached to the Problems.
	Solutions string
	// Jobs is how many problems are prepared at once (at least one).
	Jobs int
	// Started is when the invocation started, for the wall time in the
	// summary's notes.
	Started time.Time
}

// Settings returns the settings the results are tagged with: a rerun
// resumes only under the same.
func (c Config) Settings() eval.Settings {
	s := eval.Settings{Dataset: c.Dataset, Model: c.Model, Config: c.Eval, Extra: map[string]string{
		"codes": fmt.Sprint(c.Generate.Codes), "tests": fmt.Sprint(c.Generate.Tests), "style": c.Style,
		"temperature": fmt.Sprint(c.Generate.Temperature), "top_p": fmt.Sprint(c.Generate.TopP),
		"limits": fmt.Sprintf("%+v", c.Limits),
	}}
	// Results of runs without contracts or EvalPlus's references, from
	// before there were any, resume.
	if c.Contracts != "" && c.Contracts != "none" {
		s.Extra["contracts"] = c.Contracts
	}
	if c.Solutions != "" && c.Solutions != "dataset" {
		s.Extra["reference"] = c.Solutions
	}
	return s
}

// Env is what a run works with.
type Env struct {
	// Provider is the model.
	Provider llm.Provider
	// Runner runs the sandboxed steps: extraction, the matrix and the
	// execution-based estimators.
	Runner execute.Runner
	// RunnerFor, if not nil, gives the runner of a language that has its
	// own (Java's JVM pool); Runner serves the others.
	RunnerFor func(language string) execute.Runner
	// DB holds the generation cache.
	DB *sql.DB
	// Priors are the quality estimators the ranking strategies name (see
	// Priors); nil when none does.
	Priors map[string]estimate.Estimator
	// Progress, if not nil, counts the problems done.
	Progress progress.Reporter
	// Failed, if not nil, hears of each problem that failed on its own and
	// is left out, as it happens; n counts the failures so far. Calls do
	// not overlap.
	Failed func(id string, err error, n int)
}

// Plan is a benchmark run ready to start: its settings are written to the
// output directory, and the results already there are read.
type Plan struct {
	cfg      Config
	settings eval.Settings
	done     map[string]eval.Result
	todo     []dataset.Problem
}

// New creates cfg.Dir, reads the results already there and writes the
// settings. A directory with results of other settings is refused with an
// error that is eval.ErrOtherSettings (the files there are kept).
func New(cfg Config) (*Plan, error) {
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("create output directory %s: %w", cfg.Dir, err)
	}
	settings := cfg.Settings()
	done, err := eval.Resume(cfg.Dir, settings)
	if err != nil {
		return nil, err
	}
	if err := eval.WriteSettings(cfg.Dir, settings); err != nil {
		return nil, err
	}
	p := &Plan{cfg: cfg, settings: settings, done: done}
	for _, prob := range cfg.Problems {
		if _, ok := done[prob.ID]; !ok {
			p.todo = append(p.todo, prob)
		}
	}
	return p, nil
}

// Resumed returns how many of the problems are already done.
func (p *Plan) Resumed() int { return len(p.cfg.Problems) - len(p.todo) }

// ResultsFile returns the path of results.jsonl.
func (p *Plan) ResultsFile() string { return filepath.Join(p.cfg.Dir, "results.jsonl") }

// Outcome is what a finished run measured.
type Outcome struct {
	// Summary is the summary written to summary.md, .csv and .json.
	Summary eval.Summary
	// Failed are the problems that failed on their own and are left out of
	// the summary, sorted by id.
	Failed []eval.ProblemError
	// NotApplicable are the problems whose reference solution fails their
	// own hidden tests (eval.ErrReferenceFails), left out of the summary,
	// sorted by id: the dataset's fault, not the run's.
	NotApplicable []eval.ProblemError
}

// Run measures the problems not yet done, appending each result to
// results.jsonl as it finishes, and writes the summary files and plots of
// all the problems done.
func (p *Plan) Run(ctx context.Context, env Env) (*Outcome, error) {
	gc, err := eval.NewGenCache(ctx, env.DB)
	if err != nil {
		return nil, err
	}
	app, err := eval.OpenAppender(p.ResultsFile())
	if err != nil {
		return nil, err
	}
	defer app.Close()
	hash := p.settings.Hash()
	slog.Info("eval", "problems", len(p.cfg.Problems), "resumed", p.Resumed(), "config", hash)
	w := worker{cfg: p.cfg, env: env, gc: gc, hash: hash}
	fresh, failed, err := w.all(ctx, p.todo, app)
	if err != nil {
		return nil, err
	}
	failed, notApplicable := splitNotApplicable(failed)
	for id, r := range fresh {
		p.done[id] = r
	}
	results := make([]eval.Result, 0, len(p.cfg.Problems))
	for _, prob := range p.cfg.Problems {
		if r, ok := p.done[prob.ID]; ok {
			results = append(results, r)
		}
	}
	sum, err := writeReports(p.cfg, p.settings, results, failed, notApplicable)
	if err != nil {
		return nil, err
	}
	return &Outcome{Summary: sum, Failed: failed, NotApplicable: notApplicable}, nil
}

// splitNotApplicable separates the problems whose reference fails their
// own hidden tests from the other failures.
func splitNotApplicable(all []eval.ProblemError) (failed, notApplicable []eval.ProblemError) {
	for _, f := range all {
		if f.NotApplicable {
			notApplicable = append(notApplicable, f)
		} else {
			failed = append(failed, f)
		}
	}
	return failed, notApplicable
}

// worker generates (or finds cached), prepares and simulates problems.
type worker struct {
	cfg  Config
	env  Env
	gc   *eval.GenCache
	hash string
}

// all runs every problem, cfg.Jobs at a time, appending each result as it
// finishes. A problem that fails on its own (its generations, extraction or
// simulation) is reported, returned in failed and the rest go on; an error
// that would fail every problem (an interrupt, an unreachable model, the
// results file) cancels the rest (finished results stay).
func (w worker) all(ctx context.Context, problems []dataset.Problem, app *eval.Appender) (map[string]eval.Result, []eval.ProblemError, error) {
	rep := progress.OrNop(w.env.Progress)
	rep.Start("eval", len(problems))
	defer rep.Finish()
	var mu sync.Mutex
	out := map[string]eval.Result{}
	var failed []eval.ProblemError
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(w.cfg.Jobs, 1))
	for _, p := range problems {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			r, err := w.one(ctx, p)
			if err != nil && !FatalForRun(ctx, err) {
				mu.Lock()
				na := errors.Is(err, eval.ErrReferenceFails)
				failed = append(failed, eval.ProblemError{ID: p.ID, Error: err.Error(), NotApplicable: na})
				if w.env.Failed != nil && !na {
					w.env.Failed(p.ID, err, len(failed))
				}
				mu.Unlock()
				rep.Add(1)
				return nil
			}
			if err == nil {
				err = app.Append(r)
			}
			if err != nil {
				return err
			}
			mu.Lock()
			out[p.ID] = r
			mu.Unlock()
			rep.Add(1)
			return nil
		})
	}
	err := g.Wait()
	slices.SortFunc(failed, func(a, b eval.ProblemError) int { return strings.Compare(a.ID, b.ID) })
	return out, failed, err
}

// FatalForRun reports whether err, from one problem, would fail the others
// too: an interrupt, or a model that cannot be reached, refuses the key,
// does not exist or keeps refusing requests.
func FatalForRun(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, llm.ErrUnreachable) || errors.Is(err, llm.ErrUnauthorized) || errors.Is(err, llm.ErrModelNotFound) ||
		errors.Is(err, llm.ErrRateLimited) || errors.Is(err, llm.ErrServer)
}

// GenKey is the generation cache's key of p under cfg: the rules' versions
// and every setting that changes what is generated.
func GenKey(cfg Config, p dataset.Problem) string {
	g := cfg.Generate
	return eval.GenKey(generate.RulesVersion, extract.RulesVersion, cfg.Model, cfg.Style, g.Codes, g.Tests, g.Temperature, g.TopP, p)
}

// generated returns p's candidates and tests from the generation cache,
// generating and caching them when they are not there.
func (w worker) generated(ctx context.Context, p dataset.Problem) (eval.Generated, error) {
	key := GenKey(w.cfg, p)
	gen, ok, err := w.gc.Get(ctx, key)
	if err != nil || ok {
		return gen, err
	}
	row, err := generate.Problem(ctx, w.env.Provider, w.env.Runner, p, w.cfg.Generate, nil)
	if err != nil {
		return gen, fmt.Errorf("generate %s: %w", p.ID, err)
	}
	gen = eval.Generated{Samples: len(row.RawCodes), Candidates: row.Candidates, Tests: row.Tests, Raw: generate.RawPrograms(p, row)}
	if err := w.gc.Put(ctx, key, gen); err != nil {
		return gen, fmt.Errorf("cache the generations of %s: %w", p.ID, err)
	}
	return gen, nil
}

// one generates (or finds cached), prepares and simulates one problem.
func (w worker) one(ctx context.Context, p dataset.Problem) (eval.Result, error) {
	if l, te, ok := eval.OwnLanguage(p.Language); ok {
		runner := w.env.Runner
		if w.env.RunnerFor != nil {
			runner = w.env.RunnerFor(p.Language)
		}
		g := w.cfg.Generate
		params := llm.Params{Temperature: g.Temperature, TopP: g.TopP}
		r, err := eval.RunIn(ctx, w.env.Provider, runner, l, te, p, params, g.Codes, g.Tests, w.cfg.Limits, w.cfg.Eval)
		r.Config = w.hash
		return r, err
	}
	gen, err := w.generated(ctx, p)
	if err != nil {
		return eval.Result{}, err
	}
	prob, err := eval.Prepare(ctx, w.env.Runner, p, gen, w.cfg.Limits)
	if err != nil {
		return eval.Result{}, err
	}
	if len(w.env.Priors) > 0 {
		programs := make([]string, len(gen.Candidates))
		for i, c := range gen.Candidates {
			programs[i] = c.Program
		}
		prob.Priors = map[string][]float64{}
		for name, est := range w.env.Priors {
			if prob.Priors[name], err = estimate.Prior(ctx, est, p, programs); err != nil {
				return eval.Result{}, fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	r, err := eval.Simulate(ctx, prob, w.cfg.Eval)
	if err != nil {
		return eval.Result{}, err
	}
	r.Config = w.hash
	return r, nil
}
