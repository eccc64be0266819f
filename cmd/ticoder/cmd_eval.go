package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/benchmark"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/eval"
	"github.com/ticoder/ticoder/internal/generate"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/progress"
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
	reqTimeout   time.Duration // --request-timeout
	contracts    string        // --contracts: auto, none or a file
	userRef      string        // --user-reference: auto or dataset
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

The simulated user knows which inputs the function is meant for: where a
question's input breaks the problem's input contract (the validity
assertions EvalPlus wrote for every HumanEval and MBPP problem, read from
humanevalplus/ and mbppplus/ in the data directory), it answers "invalid
input" (undefined) instead of with whatever the reference does there.
--contracts none answers every question from the reference alone, as
before; a problem whose contract rejects one of its own hidden tests is
answered without it.

The simulated user also answers by EvalPlus's reference solutions, which
correct the original benchmarks' references where those contradict their own
descriptions (HumanEval/124 rejects "12-31-1999", HumanEval/132 calls
"[][][]" nested, ...): a wrong reference would make the user prune correct
code. A corrected reference that fails the problem's hidden tests is not
used. --user-reference dataset answers by the dataset's own references.

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
	f.StringVar(&o.dataset, "dataset", "", "dataset name (humaneval-noexamples, humaneval, mbpp, mbpp-sanitized, mbjp) or file (required)")
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
	f.Float64Var(&o.temperature, "temperature", generate.DefaultTemperature, "sampling temperature")
	f.Float64Var(&o.topP, "top-p", generate.DefaultTopP, "nucleus sampling mass")
	f.DurationVar(&o.timeout, "timeout", 0, "time limit per test (default: scaled from the reference solution's time)")
	f.IntVar(&o.workers, "workers", 0, "sandboxed Python workers (default: one per CPU)")
	f.IntVar(&o.jobs, "jobs", 4, "problems prepared at once")
	f.BoolVar(&o.offline, "offline", false, "answer model requests only from the response cache")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
	f.StringVar(&o.contracts, "contracts", "auto", "input contracts the simulated user rejects invalid inputs by: auto (EvalPlus's for HumanEval and MBPP, when the data directory has them), none, or an EvalPlus JSONL file")
	f.StringVar(&o.userRef, "user-reference", "auto", "reference solutions the simulated user answers by: auto (EvalPlus's corrected ones for HumanEval and MBPP, read like --contracts, where they pass the hidden tests), or dataset")
	addRequestTimeout(f, &o.reqTimeout)
	_ = cmd.MarkFlagRequired("dataset")
	_ = cmd.MarkFlagRequired("model")
	return cmd
}

// config parses the strategy flags.
func (o *evalOptions) config() (eval.Config, error) {
	cfg := eval.Config{
		Selectors: o.selectors, Rankers: o.rankers, Protect: []bool{false},
		MaxQuestions: o.maxQuestions, Ks: benchmark.Ks(), BaselineKs: benchmark.BaselineKs(),
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
	start := time.Now()
	cfg, err := o.config()
	if err != nil {
		return err
	}
	style, err := llm.ParseStyle(o.style)
	if err != nil {
		return usageError{err}
	}
	ds, err := dataset.Load(ctx, dataset.DataDir(g.dataDir), o.dataset)
	if err != nil {
		return err
	}
	problems, err := selectProblems(ds, o.problems)
	if err != nil {
		return err
	}
	contracts, solutions, err := o.readEvalPlus(ctx, dataset.DataDir(g.dataDir), ds.Name)
	if err != nil {
		return err
	}
	contracts.Attach(problems)
	solutions.AttachSolutions(problems)
	problems, noReference := withReference(problems)
	if len(problems) == 0 {
		return fmt.Errorf("none of the %d problems has a reference solution to answer the questions: nothing to evaluate", len(noReference))
	}
	if len(noReference) > 0 && o.stderr != nil {
		fmt.Fprintf(o.stderr, "eval: %s\n", notApplicable(noReference, len(problems)+len(noReference), noReferenceGiven))
	}
	if o.out == "" {
		o.out = "eval-" + ds.Name
	}
	plan, err := benchmark.New(benchmark.Config{
		Dataset: ds.Name, Problems: problems, Model: o.model, Style: o.style,
		Generate: generate.Options{Codes: o.codes, Tests: o.tests, Temperature: o.temperature, TopP: o.topP},
		Eval:     cfg, Limits: eval.Limits{Timeout: o.timeout}.WithDefaults(), Dir: o.out, Jobs: o.jobs, Started: start,
		Contracts: contracts.Name(), Solutions: solutions.SolutionsName(),
	})
	if errors.Is(err, eval.ErrOtherSettings) {
		return usageError{fmt.Errorf("%w. Rerun with the same settings to resume, or give another --out (results.jsonl there is kept as it is)", err)}
	}
	if err != nil {
		return err
	}
	eng, err := openEngine(ctx, g, o.workers)
	if err != nil {
		return err
	}
	defer eng.Close()
	if err := eng.withLanguage(ctx, g, ds.Language(), o.workers); err != nil {
		return err
	}
	waiting := &llm.Waiting{}
	mo := modelOptions(o.reqTimeout, waiting)
	mo.Style, mo.Cache, mo.Offline = style, eng.DB, o.offline
	prov, err := llm.OpenString(o.model, mo)
	if err != nil {
		return err
	}
	rep := eng.progress(o.progress)
	errw := o.stderr
	if o.quiet {
		errw = nil
	}
	defer watchModel(waiting, rep, errw)()
	if n := plan.Resumed(); n > 0 && o.stderr != nil {
		fmt.Fprintf(o.stderr, "resuming: %d of %d problems already done (%s)\n", n, len(problems), plan.ResultsFile())
	}
	priors, err := benchmark.Priors(ctx, cfg.Rankers, eng.Pool)
	if err != nil {
		return priorUsageError(err)
	}
	out, err := plan.Run(ctx, benchmark.Env{
		Provider: prov, Runner: eng.Pool, RunnerFor: eng.Runner, DB: eng.DB, Priors: priors,
		Progress: rep, Failed: o.reportFailure,
	})
	if err != nil {
		return err
	}
	if o.stdout != nil {
		if err := out.Summary.Markdown(o.stdout); err != nil {
			return err
		}
		if len(noReference) > 0 {
			fmt.Fprintf(o.stdout, "\n%s\n", notApplicable(noReference, len(problems)+len(noReference), noReferenceGiven))
		}
		if len(out.NotApplicable) > 0 {
			ids := make([]string, len(out.NotApplicable))
			for i, f := range out.NotApplicable {
				ids[i] = f.ID
			}
			fmt.Fprintf(o.stdout, "\n%s\n", notApplicable(ids, len(problems)+len(noReference), brokenReference))
		}
		fmt.Fprintf(o.stdout, "\nresults in %s\n", o.out)
	}
	if len(out.Failed) > 0 {
		return fmt.Errorf("%d of %d problems failed and are left out of the summary (listed in %s); rerun to retry them",
			len(out.Failed), len(problems), filepath.Join(o.out, "summary.md"))
	}
	return nil
}

// readEvalPlus reads the EvalPlus file that --contracts and
// --user-reference name: the input contracts to attach (nil for --contracts
// none) and the reference solutions (nil for --user-reference dataset).
// With auto, a dataset that EvalPlus did not extend, or a data directory
// that lacks its file (said on stderr), has neither.
func (o *evalOptions) readEvalPlus(ctx context.Context, dataDir, name string) (contracts, solutions *dataset.Contracts, err error) {
	switch o.userRef {
	case "auto", "", "dataset":
	default:
		return nil, nil, usageError{fmt.Errorf("--user-reference %q: want auto or dataset", o.userRef)}
	}
	if o.contracts == "none" && o.userRef == "dataset" {
		return nil, nil, nil
	}
	var c *dataset.Contracts
	switch o.contracts {
	case "auto", "", "none":
		c, err = dataset.ContractsFor(ctx, dataDir, name)
		if dataset.IsMissing(err) {
			if o.stderr != nil {
				fmt.Fprintf(o.stderr, "eval: no EvalPlus contracts or references for %s (%v): the simulated user answers every question from the dataset's reference; run \"ticoder data fetch\" to get them, or give --contracts none --user-reference dataset to silence this\n", name, err)
			}
			return nil, nil, nil
		}
		if err != nil {
			return nil, nil, err
		}
	default:
		if c, err = dataset.ReadContracts(ctx, o.contracts); err != nil {
			return nil, nil, usageError{fmt.Errorf("--contracts: %w", err)}
		}
	}
	if o.contracts != "none" {
		contracts = c
	}
	if o.userRef != "dataset" {
		solutions = c
	}
	return contracts, solutions, nil
}

// withReference splits problems into those with a reference solution,
// which the simulated user answers from, and those without (MBJP gives none
// for some tasks): eval does not apply to the latter.
func withReference(problems []dataset.Problem) (with []dataset.Problem, without []string) {
	for _, p := range problems {
		if strings.TrimSpace(p.Reference) == "" {
			without = append(without, p.ID)
			continue
		}
		with = append(with, p)
	}
	return with, without
}

// Why eval does not apply to a problem (notApplicable).
const (
	noReferenceGiven = "the dataset gives no reference solution to answer their questions"
	brokenReference  = "their reference solution fails their own hidden tests"
)

// notApplicable says which problems eval left out and why: a count and
// the first few ids.
func notApplicable(ids []string, total int, why string) string {
	const shown = 5
	list := strings.Join(ids[:min(len(ids), shown)], ", ")
	if len(ids) > shown {
		list += fmt.Sprintf(", … (%d more)", len(ids)-shown)
	}
	return fmt.Sprintf("%d of %d problems are not applicable and left out: %s (%s)", len(ids), total, why, list)
}

// priorUsageError words an error of benchmark.Priors for the command line.
func priorUsageError(err error) error {
	var pe *benchmark.PriorError
	switch {
	case errors.Is(err, benchmark.ErrNeedsSetup) && errors.As(err, &pe):
		return usagef("--rank-codes %s: estimator %s needs a labelled pool or an LLM judge, which eval does not set up; use agree, els, tls or constant", pe.Spec, pe.Estimator)
	case errors.As(err, &pe):
		return usageError{fmt.Errorf("--rank-codes %s: %w", pe.Spec, pe.Err)}
	}
	return usageError{err}
}

// shownFailures is how many failed problems eval reports on stderr as they
// happen; summary.md lists them all.
const shownFailures = 3

// reportFailure tells stderr of the first few problems that failed on
// their own; n counts the failures so far.
func (o *evalOptions) reportFailure(id string, err error, n int) {
	if o.stderr == nil || n > shownFailures {
		return
	}
	msg := err.Error()
	if h := flagHint(err, false); h != "" && !strings.Contains(msg, h) {
		msg += "; " + h // eval has no --demo
	}
	fmt.Fprintf(o.stderr, "ticoder: %s failed, left out (the run goes on): %s\n", id, msg)
	if n == shownFailures {
		fmt.Fprintln(o.stderr, "ticoder: further failed problems are listed in summary.md only")
	}
}
