package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/eval"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
)

// evalOptions are the flags of `ticoder eval`.
type evalOptions struct {
	dataset      string
	model        string
	modes        []string
	selectors    []string
	rankers      []string
	maxQuestions int
	problems     []string
	protect      bool
	noise        float64
	questions    []string
	seed         uint64
	out          string
	codes, tests int
	style        string
	temperature  float64
	topP         float64
	timeout      time.Duration
	workers      int
	jobs         int
	offline      bool
	quiet        bool
	progress     progress.Reporter
	stdout       io.Writer
	// stderr receives the messages of the run (resuming, failed problems);
	// nil: none.
	stderr io.Writer
}

func newEvalCommand(g *globalOptions) *cobra.Command {
	o := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval --dataset NAME --model MODEL",
		Short: "Benchmark TiCoder with a simulated user: pass@k@m per strategy and mode",
		Long: `eval measures the TiCoder loop on a dataset with a simulated user (the
reference solution answers every question), for every answer mode, test
selection strategy and code ranking strategy, on one fixed set of problems.

For each problem it generates code and tests (a live model, or replay:DIR for
recorded generations), extracts candidates and tests, runs the matrix in the
sandbox, and simulates one session per mode × selector. Reported: the baseline
pass@k of the raw samples (unbiased estimator), and pass@k@m for k = 1, 2, 5
and m = 0…max-questions (every problem counts at every m; ties at the top are
a multiplicity-weighted random pick; no candidates left counts as a failure).

Files in --out: results.jsonl (one line per problem, appended as each
finishes; a rerun with the same settings resumes), settings.json (the
settings of those results; a rerun with other settings is refused, so that
the files always describe one benchmark), summary.md (tables shaped like the
TiCoder paper's Table IV), summary.csv, summary.json, and
pass1_RANK_SETTING.png/.svg (pass@1 against m).

A problem that cannot be run (e.g. replay:DIR holds no recording of it) is
reported and left out, and the run goes on; the command then exits with
status 1 after writing the summary, and a rerun retries only such problems.

--protect-correct adds runs with the official implementation's rule that a
candidate passing the hidden tests is never pruned; it flatters the results,
so the strict runs are always reported beside them.`,
		Example: `  ticoder eval --dataset humaneval-noexamples --model replay:$TICODER_DATA/samples/humaneval-codegen16b --out runs/he
  ticoder eval --dataset mbpp-sanitized --model ollama:qwen2.5-coder:7b --codes 20 --tests 20 --problems Mbpp/2,Mbpp/3`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.progress = progress.New(cmd.ErrOrStderr(), o.quiet)
			o.stdout = cmd.OutOrStdout()
			o.stderr = cmd.ErrOrStderr()
			return runEval(cmd.Context(), g, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.dataset, "dataset", "", "dataset name (humaneval-noexamples, humaneval, mbpp, mbpp-sanitized) or file (required)")
	f.StringVar(&o.model, "model", "", "model: replay:DIR, openai:NAME, ollama:NAME, vllm:NAME@URL, azure:DEPLOYMENT, ... (required)")
	f.StringSliceVar(&o.modes, "mode", []string{"passfail", "output"}, "answer modes: passfail, output")
	f.StringSliceVar(&o.selectors, "select", []string{"discr", "random", "infogain"}, "test selection strategies: "+strings.Join(rank.Selectors(), ", "))
	f.StringSliceVar(&o.rankers, "rank-codes", []string{"passing", "codet"}, "code ranking strategies: "+strings.Join(rank.Rankers(), ", ")+"; qe:ESTIMATOR ranks by a quality estimate, BASE+qe:ESTIMATOR breaks BASE's ties with it (estimators available here: agree, els, tls, constant)")
	f.IntVar(&o.maxQuestions, "max-questions", 5, "largest number of questions m")
	f.StringSliceVar(&o.problems, "problems", nil, "only these task ids, comma-separated (e.g. HumanEval/0,HumanEval/5)")
	f.BoolVar(&o.protect, "protect-correct", false, "also run with the official rule that never prunes a candidate passing the hidden tests")
	f.Float64Var(&o.noise, "noise", 0, "probability that the simulated user answers wrongly")
	f.StringSliceVar(&o.questions, "questions", []string{"both"}, "what to ask about: tests (generated tests only, as the paper), inputs (synthesized questions: inputs where the candidates disagree), both; several to compare")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the random selector and the noisy user")
	f.StringVar(&o.out, "out", "", "output directory (default eval-DATASET)")
	f.IntVar(&o.codes, "codes", 100, "code samples per problem")
	f.IntVar(&o.tests, "tests", 100, "test samples per problem")
	f.StringVar(&o.style, "style", "chat", "prompt style: chat (instruction models) or completion (base models)")
	f.Float64Var(&o.temperature, "temperature", 0.8, "sampling temperature")
	f.Float64Var(&o.topP, "top-p", 0.95, "nucleus sampling mass")
	f.DurationVar(&o.timeout, "timeout", 0, "time limit per test (default: scaled from the reference solution's time)")
	f.IntVar(&o.workers, "workers", 0, "sandboxed Python workers (default: one per CPU)")
	f.IntVar(&o.jobs, "jobs", 4, "problems prepared at once")
	f.BoolVar(&o.offline, "offline", false, "answer model requests only from the response cache")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
	_ = cmd.MarkFlagRequired("dataset")
	_ = cmd.MarkFlagRequired("model")
	return cmd
}

// config parses the strategy flags.
func (o *evalOptions) config() (eval.Config, error) {
	cfg := eval.Config{
		Selectors: o.selectors, Rankers: o.rankers, Protect: []bool{false},
		MaxQuestions: o.maxQuestions, Ks: []int{1, 2, 5}, BaselineKs: []int{1, 10, 100},
		Seed: o.seed, Noise: o.noise,
	}
	for _, q := range o.questions {
		ask, err := session.ParseQuestions(q)
		if err != nil {
			return cfg, usageError{fmt.Errorf("--questions: %w", err)}
		}
		cfg.Ask = append(cfg.Ask, ask)
	}
	if o.protect {
		cfg.Protect = []bool{false, true}
	}
	for _, m := range o.modes {
		mode, err := rank.ParseMode(m)
		if err != nil {
			return cfg, usageError{fmt.Errorf("--mode: %w", err)}
		}
		cfg.Modes = append(cfg.Modes, mode)
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usageError{err}
	}
	if o.jobs < 1 {
		o.jobs = 1
	}
	return cfg, nil
}

func runEval(ctx context.Context, g *globalOptions, o *evalOptions) error {
	cfg, err := o.config()
	if err != nil {
		return err
	}
	style, err := llm.ParseStyle(o.style)
	if err != nil {
		return usageError{err}
	}
	start := time.Now()
	ds, err := dataset.Load(ctx, dataset.DataDir(g.dataDir), o.dataset)
	if err != nil {
		return err
	}
	problems, err := selectProblems(ds, o.problems)
	if err != nil {
		return err
	}
	if o.out == "" {
		o.out = "eval-" + ds.Name
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fmt.Errorf("create output directory %s: %w", o.out, err)
	}
	lim := eval.Limits{Timeout: o.timeout}.WithDefaults()
	settings := eval.Settings{Dataset: ds.Name, Model: o.model, Config: cfg, Extra: map[string]string{
		"codes": fmt.Sprint(o.codes), "tests": fmt.Sprint(o.tests), "style": o.style,
		"temperature": fmt.Sprint(o.temperature), "top_p": fmt.Sprint(o.topP), "limits": fmt.Sprintf("%+v", lim),
	}}
	hash := settings.Hash()
	resultsPath := filepath.Join(o.out, "results.jsonl")
	done, err := eval.Resume(o.out, settings)
	if errors.Is(err, eval.ErrOtherSettings) {
		return usageError{fmt.Errorf("%w. Rerun with the same settings to resume, or give another --out (results.jsonl there is kept as it is)", err)}
	}
	if err != nil {
		return err
	}
	if err := eval.WriteSettings(o.out, settings); err != nil {
		return err
	}
	eng, err := openEngine(ctx, g, o.workers)
	if err != nil {
		return err
	}
	defer eng.Close()
	if ds.Language() == dataset.Java {
		if err := eng.withJava(ctx, g, o.workers); err != nil {
			return err
		}
	}
	o.progress = eng.progress(o.progress)
	prov, err := llm.OpenString(o.model, llm.Options{Style: style, Cache: eng.DB, Offline: o.offline})
	if err != nil {
		return err
	}
	gc, err := eval.NewGenCache(ctx, eng.DB)
	if err != nil {
		return err
	}
	app, err := eval.OpenAppender(resultsPath)
	if err != nil {
		return err
	}
	defer app.Close()
	var todo []dataset.Problem
	for _, p := range problems {
		if _, ok := done[p.ID]; !ok {
			todo = append(todo, p)
		}
	}
	slog.Info("eval", "problems", len(problems), "resumed", len(problems)-len(todo), "config", hash)
	if resumed := len(problems) - len(todo); resumed > 0 && o.stderr != nil {
		fmt.Fprintf(o.stderr, "resuming: %d of %d problems already done (%s)\n", resumed, len(problems), resultsPath)
	}
	priors, err := evalPriors(ctx, cfg, eng)
	if err != nil {
		return err
	}
	w := evalWorker{prov: prov, eng: eng, gc: gc, o: o, cfg: cfg, lim: lim, hash: hash, priors: priors}
	fresh, failed, err := w.all(ctx, todo, app)
	if err != nil {
		return err
	}
	for id, r := range fresh {
		done[id] = r
	}
	results := make([]eval.Result, 0, len(problems))
	for _, p := range problems {
		if r, ok := done[p.ID]; ok {
			results = append(results, r)
		}
	}
	if err := writeEvalReports(o, ds.Name, settings, results, failed, time.Since(start)); err != nil {
		return err
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d problems failed and are left out of the summary (listed in %s); rerun to retry them",
			len(failed), len(problems), filepath.Join(o.out, "summary.md"))
	}
	return nil
}

// evalWorker prepares and simulates problems.
type evalWorker struct {
	prov llm.Provider
	eng  *engine
	gc   *eval.GenCache
	o    *evalOptions
	cfg  eval.Config
	lim  eval.Limits
	hash string
	// priors are the quality estimators named by the ranking strategies.
	priors map[string]qe.Estimator
}

// evalPriors builds the quality estimators that ranking strategies such as
// "passing+qe:agree" name. Estimators that need only the sandbox (agree) or
// the built-in lexical embedder (els, tls) are available here; knn, combo,
// icl and zs need `ticoder qe`'s labelled pool or an LLM judge.
func evalPriors(ctx context.Context, cfg eval.Config, eng *engine) (map[string]qe.Estimator, error) {
	out := map[string]qe.Estimator{}
	lex := qe.FitLexical(nil, nil, qe.DefaultLexicalOptions())
	setup := &qe.Setup{Runner: eng.Pool, Lexical: lex, Embedder: lex}
	for _, spec := range cfg.Rankers {
		_, prior, _ := eval.ParseRanker(spec) // validated
		if prior == "" || out[prior] != nil {
			continue
		}
		name, _, err := qe.ParsePrior(prior)
		if err != nil {
			return nil, usageError{err}
		}
		if qe.NeedsPool(name) || qe.NeedsJudge(name) {
			return nil, usagef("--rank-codes %s: estimator %s needs a labelled pool or an LLM judge, which eval does not set up; use agree, els, tls or constant", spec, name)
		}
		est, err := setup.New(ctx, name, 0, qe.FSPS)
		if err != nil {
			return nil, usageError{fmt.Errorf("--rank-codes %s: %w", spec, err)}
		}
		out[prior] = est
	}
	return out, nil
}

// all runs every problem, o.jobs at a time, appending each result as it
// finishes. A problem that fails on its own (its generations, extraction or
// simulation) is reported, returned in failed and the rest go on; an error
// that would fail every problem (an interrupt, an unreachable model, the
// results file) cancels the rest (finished results stay).
func (w evalWorker) all(ctx context.Context, problems []dataset.Problem, app *eval.Appender) (map[string]eval.Result, []eval.ProblemError, error) {
	rep := progress.OrNop(w.o.progress)
	rep.Start("eval", len(problems))
	defer rep.Finish()
	var mu sync.Mutex
	out := map[string]eval.Result{}
	var failed []eval.ProblemError
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(w.o.jobs, 1))
	for _, p := range problems {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			r, err := w.one(ctx, p)
			if err != nil && !fatalForRun(ctx, err) {
				mu.Lock()
				failed = append(failed, eval.ProblemError{ID: p.ID, Error: err.Error()})
				if n := len(failed); w.o.stderr != nil && n <= shownFailures {
					fmt.Fprintf(w.o.stderr, "ticoder: %s failed, left out (the run goes on): %v\n", p.ID, err)
					if n == shownFailures {
						fmt.Fprintln(w.o.stderr, "ticoder: further failed problems are listed in summary.md only")
					}
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

// shownFailures is how many failed problems eval reports on stderr as they
// happen; summary.md lists them all.
const shownFailures = 3

// fatalForRun reports whether err, from one problem, would fail the others
// too: an interrupt, or a model that cannot be reached, refuses the key,
// does not exist or keeps refusing requests.
func fatalForRun(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, llm.ErrUnreachable) || errors.Is(err, llm.ErrUnauthorized) || errors.Is(err, llm.ErrModelNotFound) ||
		errors.Is(err, llm.ErrRateLimited) || errors.Is(err, llm.ErrServer)
}

// one generates (or finds cached), prepares and simulates one problem.
func (w evalWorker) one(ctx context.Context, p dataset.Problem) (eval.Result, error) {
	if l, te, ok := eval.OwnLanguage(p.Language); ok {
		params := llm.Params{Temperature: w.o.temperature, TopP: w.o.topP}
		r, err := eval.RunIn(ctx, w.prov, w.eng.Runner(p.Language), l, te, p, params, w.o.codes, w.o.tests, w.lim, w.cfg)
		r.Config = w.hash
		return r, err
	}
	key := eval.GenKey(genRulesVersion, extract.RulesVersion, w.o.model, w.o.style, w.o.codes, w.o.tests, w.o.temperature, w.o.topP, p)
	gen, ok, err := w.gc.Get(ctx, key)
	if err != nil {
		return eval.Result{}, err
	}
	if !ok {
		row, err := genProblem(ctx, w.prov, w.eng.Pool, p, genOptions{
			codes: w.o.codes, tests: w.o.tests, style: w.o.style,
			temperature: w.o.temperature, topP: w.o.topP, seed: -1,
		})
		if err != nil {
			return eval.Result{}, fmt.Errorf("generate %s: %w", p.ID, err)
		}
		gen = eval.Generated{Samples: len(row.RawCodes), Candidates: row.Candidates, Tests: row.Tests, Raw: rawPrograms(p, row)}
		if err := w.gc.Put(ctx, key, gen); err != nil {
			return eval.Result{}, fmt.Errorf("cache the generations of %s: %w", p.ID, err)
		}
	}
	prob, err := eval.Prepare(ctx, w.eng.Pool, p, gen, w.lim)
	if err != nil {
		return eval.Result{}, err
	}
	if len(w.priors) > 0 {
		programs := make([]string, len(gen.Candidates))
		for i, c := range gen.Candidates {
			programs[i] = c.Program
		}
		prob.Priors = map[string][]float64{}
		for name, est := range w.priors {
			if prob.Priors[name], err = qe.Prior(ctx, est, p, programs); err != nil {
				return eval.Result{}, fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	r, err := eval.Simulate(ctx, prob, w.cfg)
	if err != nil {
		return eval.Result{}, err
	}
	r.Config = w.hash
	return r, nil
}

// rawPrograms returns the raw code samples as `ticoder check` runs them,
// prompt + completion, when the completions continue the problem's prompt:
// most non-blank completions start with an indented line (a function body);
// nil otherwise (e.g. chat answers with whole programs).
func rawPrograms(p dataset.Problem, row genRow) []string {
	bodies, texts := 0, 0
	for _, r := range row.RawCodes {
		for _, line := range strings.Split(r, "\n") {
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
	out := make([]string, len(row.RawCodes))
	for i, r := range row.RawCodes {
		out[i] = p.Prompt + r
	}
	return out
}

// writeEvalReports writes summary.md, summary.csv, summary.json and the plots,
// and prints the Markdown on stdout.
func writeEvalReports(o *evalOptions, dsName string, settings eval.Settings, results []eval.Result, failed []eval.ProblemError, took time.Duration) error {
	sum := eval.Summarize(results, settings.Config)
	sum.Title = fmt.Sprintf("TiCoder on %s with %s", dsName, shortModel(o.model))
	sum.Notes = []string{
		fmt.Sprintf("settings hash %s; %d code and %d test samples per problem; limits %s", settings.Hash(), o.codes, o.tests, settings.Extra["limits"]),
		fmt.Sprintf("protect-correct: %s", map[bool]string{false: "off (strict only)", true: "strict and protect-correct runs both shown"}[o.protect]),
		fmt.Sprintf("wall time of this invocation: %.1f s", took.Seconds()),
	}
	if omitted, least := sum.LeaveOutLargeK(results); len(omitted) > 0 {
		sum.Notes = append(sum.Notes, fmt.Sprintf("baseline pass@k left out for k = %s: a problem has only %s, and pass@k needs at least k samples of every problem (as in OpenAI's harness)",
			joinInts(omitted), plural(least, "sample")))
	}
	for _, f := range failed {
		sum.Notes = append(sum.Notes, fmt.Sprintf("FAILED, left out of every figure (a rerun retries it): %s: %s", f.ID, f.Error))
	}
	files := map[string]func(io.Writer) error{
		"summary.md":   sum.Markdown,
		"summary.csv":  sum.CSV,
		"summary.json": func(w io.Writer) error { return writeJSON(w, sum) },
	}
	for name, write := range files {
		if err := writeFileAtomic(filepath.Join(o.out, name), write); err != nil {
			return err
		}
	}
	if _, err := sum.Plot(o.out); err != nil {
		return err
	}
	if o.stdout != nil {
		if err := sum.Markdown(o.stdout); err != nil {
			return err
		}
		fmt.Fprintf(o.stdout, "\nresults in %s\n", o.out)
	}
	return nil
}

// joinInts returns "10, 100".
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// shortModel shortens a replay:DIR model name to replay:BASE for titles.
func shortModel(model string) string {
	if dir, ok := strings.CutPrefix(model, "replay:"); ok {
		return "replay:" + filepath.Base(filepath.Clean(dir))
	}
	return model
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
