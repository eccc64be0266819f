package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/estimate"
	"github.com/ticoder/ticoder/internal/qe/measure"
	"github.com/ticoder/ticoder/internal/qe/qestore"
)

// qeOptions are the flags shared by the qe subcommands.
type qeOptions struct {
	train        string
	estimators   []string
	ks           []string
	alphas       []string
	embedder     string
	embedModel   string
	weighting    string
	model        string
	style        string
	maxSolutions int
	timeout      time.Duration
	workers      int
	jobs         int
	json         bool
	quiet        bool
	// reqTimeout is --request-timeout; waiting records the judge's and the
	// embedder's requests without an answer (setup sets it).
	reqTimeout time.Duration
	waiting    *llm.Waiting
}

func newQECommand(g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "qe",
		Short: "Estimate code quality without tests; evaluate estimators with nDCG",
		Long: `qe estimates the functional correctness of generated code without running its
hidden tests (the in-context-learning estimator of "In-Context Learning as an
Effective Estimator of Functional Correctness of LLM-Generated Code", with
cheaper baselines), and evaluates estimators with global and local nDCG.

Estimators: knn (similarity-weighted vote of k correct + k incorrect retrieved
labelled pairs; no LLM), els and tls (similarity to the other candidates),
agree (runs the candidates in the sandbox on the docstring's examples and on
inputs harvested from them; no LLM), combo (agree + 0.25·knn), icl (the
paper's LLM judge with k + k examples; needs --model with top_logprobs), zs
(the judge with no examples), constant (the floor).`,
	}
	cmd.AddCommand(newQEEvalCommand(g), newQEScoreCommand(g), newQEPoolCommand(g))
	return cmd
}

// addQEFlags registers the flags every qe subcommand shares.
func addQEFlags(cmd *cobra.Command, o *qeOptions, defaultEstimators, defaultKs []string) {
	f := cmd.Flags()
	f.StringSliceVar(&o.estimators, "estimator", defaultEstimators, "estimators: "+strings.Join(estimate.Estimators(), ", "))
	f.StringSliceVar(&o.ks, "k", defaultKs, "examples per label for knn, combo, icl; several values are tuned on the dev split by global nDCG")
	f.StringSliceVar(&o.alphas, "alpha", []string{"ps"}, "similarity weight α of the problem (1 = p = FS-P, 0.5 = ps = FS-PS, 0 = s = FS-S)")
	f.StringVar(&o.embedder, "embedder", "lexical", "embedder: lexical (built in) or api (an embeddings endpoint, see --embed-model)")
	f.StringVar(&o.embedModel, "embed-model", "", "embedding model for --embedder api, e.g. vllm:codesage@http://localhost:8000/v1")
	f.StringVar(&o.weighting, "weighting", "bm25", "lexical term weighting: bm25 or tfidf")
	f.StringVar(&o.model, "model", "", "judge model for icl and zs (must return top_logprobs), e.g. vllm:codellama-7b-instruct@http://localhost:8000/v1")
	f.StringVar(&o.style, "style", "chat", "judge prompt style: chat or completion")
	f.IntVar(&o.maxSolutions, "max-solutions", 10, "use at most this many solutions per problem of a CQE file (the paper's scripts read 10; 0 = all)")
	f.DurationVar(&o.timeout, "timeout", time.Second, "time limit of one call for agree and combo")
	f.IntVar(&o.workers, "workers", 0, "sandboxed Python workers (default: one per CPU)")
	f.IntVar(&o.jobs, "jobs", 0, "problems scored at once (default: GOMAXPROCS)")
	f.BoolVar(&o.json, "json", false, "print JSON instead of a table")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
	addRequestTimeout(f, &o.reqTimeout)
}

// parsePlanFlags turns --k and --alpha into values.
func (o *qeOptions) parsePlanFlags() ([]int, []estimate.Alpha, error) {
	var ks []int
	for _, s := range o.ks {
		k, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || k < 1 {
			return nil, nil, usagef("--k %q: want positive integers", s)
		}
		ks = append(ks, k)
	}
	var alphas []estimate.Alpha
	for _, s := range o.alphas {
		a, err := estimate.ParseAlpha(s)
		if err != nil {
			return nil, nil, usageError{fmt.Errorf("--alpha: %w", err)}
		}
		alphas = append(alphas, a)
	}
	for _, e := range o.estimators {
		if !contains(estimate.Estimators(), e) {
			return nil, nil, usagef("--estimator %q: known are %s", e, strings.Join(estimate.Estimators(), ", "))
		}
	}
	return ks, alphas, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// anyNeeds reports whether one of the estimators satisfies need.
func anyNeeds(names []string, need func(string) bool) bool {
	for _, n := range names {
		if need(n) {
			return true
		}
	}
	return false
}

// qeEnv is what the qe subcommands open: the database, and the execution
// engine when an estimator runs code.
type qeEnv struct {
	db     *sql.DB
	store  *qestore.Store
	engine *engine
}

func openQEEnv(ctx context.Context, g *globalOptions, o *qeOptions, needRunner bool) (*qeEnv, error) {
	env := &qeEnv{}
	if needRunner {
		eng, err := openEngine(ctx, g, o.workers)
		if err != nil {
			return nil, err
		}
		env.engine, env.db = eng, eng.DB
	} else {
		db, err := g.openStore()
		if err != nil {
			return nil, err
		}
		env.db = db
	}
	s, err := qestore.OpenStore(ctx, env.db)
	if err != nil {
		env.Close()
		return nil, err
	}
	env.store = s
	return env, nil
}

func (e *qeEnv) Close() {
	if e.engine != nil {
		e.engine.Close()
		return
	}
	if e.db != nil {
		e.db.Close()
	}
}

// javaFor adds a Java pool to the engine when an estimator runs code and a
// pool holds Java problems.
func (e *qeEnv) javaFor(ctx context.Context, g *globalOptions, o *qeOptions, pools ...*qe.ExampleSet) error {
	if e.engine == nil || e.engine.started(dataset.Java) != nil {
		return nil
	}
	if qe.AnyInLanguage(dataset.Java, pools...) {
		return e.addJava(ctx, g, o)
	}
	return nil
}

// addJava adds a Java pool (one JVM per CPU unless --workers) to the engine.
func (e *qeEnv) addJava(ctx context.Context, g *globalOptions, o *qeOptions) error {
	if e.engine == nil || e.engine.started(dataset.Java) != nil {
		return nil
	}
	workers := o.workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	return e.engine.withLanguage(ctx, g, dataset.Java, workers)
}

func (e *qeEnv) runner() execute.Runner {
	if e.engine == nil {
		return nil
	}
	return e.engine.Pool
}

// progress returns r, showing the NATS workers with --nats.
func (e *qeEnv) progress(r progress.Reporter) progress.Reporter {
	if e.engine == nil {
		return r
	}
	return e.engine.progress(r)
}

// loadPool reads "pool:NAME" from the database or a CQE file.
func (e *qeEnv) loadPool(ctx context.Context, spec string, maxSolutions int) (*qe.ExampleSet, error) {
	if name, ok := strings.CutPrefix(spec, "pool:"); ok {
		return e.store.LoadExamples(ctx, name)
	}
	return loadCQE(spec, maxSolutions)
}

// loadCQE reads a CQE file. A samples file given instead is a usage error
// that says where samples go.
func loadCQE(path string, maxSolutions int) (*qe.ExampleSet, error) {
	pool, err := qestore.LoadCQE(path, qestore.CQEOptions{MaxSolutions: maxSolutions})
	if errors.Is(err, qestore.ErrNotCQE) {
		return nil, usagef("%v. --train, --test and --cqe take the ICL paper's labelled CQE files (such as $TICODER_DATA/cqe/mbpp-codestral-22b.jsonl) or pool:NAME; "+
			"to rank the samples of a samples file use ticoder qe score --samples FILE --dataset NAME, "+
			"or label them into a pool with ticoder qe pool add NAME --samples FILE --dataset NAME", err)
	}
	return pool, err
}

// setup builds the estimators' environment over the retrieval pool, and
// words a bad option as the flag that gave it.
func (e *qeEnv) setup(o *qeOptions, pool *qe.ExampleSet) (*estimate.Setup, error) {
	opts := estimate.SetupOptions{
		Examples: pool, Runner: e.runner(), AgreeTimeout: o.timeout,
		Embedder: o.embedder, EmbedModel: o.embedModel, Weighting: o.weighting,
		Estimators: o.estimators, Model: o.model, Style: o.style,
		Cache: e.db, CacheEmbedder: e.store.CachedEmbedder,
	}
	o.waiting = &llm.Waiting{}
	mo := modelOptions(o.reqTimeout, o.waiting)
	opts.RequestTimeout, opts.Waiting = mo.RequestTimeout, mo.Waiting
	if e.engine != nil {
		if r := e.engine.started(dataset.Java); r != nil {
			opts.JavaRunner = r
		}
	}
	s, err := estimate.NewSetup(opts)
	switch {
	case errors.Is(err, estimate.ErrUnknownWeighting):
		return nil, usagef("--weighting %q: want bm25 or tfidf", o.weighting)
	case errors.Is(err, estimate.ErrNeedsEmbedModel):
		return nil, usagef("--embedder api needs --embed-model MODEL (an embeddings endpoint)")
	case errors.Is(err, estimate.ErrUnknownEmbedder):
		return nil, usagef("--embedder %q: want lexical or api", o.embedder)
	case errors.Is(err, estimate.ErrNeedsJudge):
		return nil, usagef("estimators icl and zs need --model MODEL (a server that returns top_logprobs)")
	case errors.Is(err, estimate.ErrBadStyle):
		return nil, usageError{err}
	}
	return s, err
}

// qeEvalOptions are the flags of `ticoder qe eval`.
type qeEvalOptions struct {
	qeOptions
	test    string
	devFrac float64
	seed    uint64
	cutoff  int
	out     string
}

func newQEEvalCommand(g *globalOptions) *cobra.Command {
	o := &qeEvalOptions{}
	cmd := &cobra.Command{
		Use:   "eval --train FILE --test FILE",
		Short: "Evaluate estimators with global and local nDCG (the paper's Table 2)",
		Long: `eval scores every solution of the test file with each estimator and reports
global nDCG (all pairs ranked together) and local nDCG (each problem's
solutions ranked, averaged over problems; also over the problems with both
correct and incorrect solutions only), with the constant estimator's score as
the floor and the oracle's as the ceiling. nDCG matches scikit-learn's
ndcg_score (ties averaged).

--train is a CQE file (task_id, prompt, code_1.., results) or pool:NAME (see
qe pool). A --dev-frac share of its problems (seeded) is held out: k is tuned
on it by global nDCG when several --k are given, and the rest is the
retrieval pool, as in the paper (90/10). With the paper's files the table
shows the paper's figures beside ours.`,
		Example: `  ticoder qe eval --train $TICODER_DATA/cqe/mbpp-codestral-22b.jsonl --test $TICODER_DATA/cqe/heval-codestral-22b.jsonl --estimator knn,els,tls,agree,combo
  ticoder qe eval --train mbpp.jsonl --test heval.jsonl --estimator zs,icl --alpha p,ps,s --k 1,2,4 --model vllm:codellama-7b-instruct@http://gpu:8000/v1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runQEEval(cmd.Context(), g, o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	addQEFlags(cmd, &o.qeOptions, []string{"knn", "els", "tls", "agree", "combo"}, []string{"1", "2", "4", "8", "16"})
	f := cmd.Flags()
	f.StringVar(&o.train, "train", "", "labelled pool: CQE file or pool:NAME (required for knn, combo, icl)")
	f.StringVar(&o.test, "test", "", "labelled test set: CQE file or pool:NAME (required)")
	f.Float64Var(&o.devFrac, "dev-frac", 0.1, "share of the training problems held out to tune k")
	f.Uint64Var(&o.seed, "seed", 42, "seed of the dev split")
	f.IntVar(&o.cutoff, "cutoff", 0, "nDCG cut-off k (0: rank everything)")
	f.StringVar(&o.out, "out", "", "also write the Markdown table to this file")
	_ = cmd.MarkFlagRequired("test")
	return cmd
}

func runQEEval(ctx context.Context, g *globalOptions, o *qeEvalOptions, stdout, stderr io.Writer) error {
	ks, alphas, err := o.parsePlanFlags()
	if err != nil {
		return err
	}
	if !(o.devFrac >= 0 && o.devFrac < 1) { // also rejects NaN, which made SplitDev panic
		return usagef("--dev-frac %v: want a share in [0, 1)", o.devFrac)
	}
	if o.train == "" && anyNeeds(o.estimators, estimate.NeedsExamples) {
		return usagef("estimators knn, combo and icl need --train (a labelled pool)")
	}
	env, err := openQEEnv(ctx, g, &o.qeOptions, anyNeeds(o.estimators, estimate.NeedsRunner))
	if err != nil {
		return err
	}
	defer env.Close()
	test, err := env.loadPool(ctx, o.test, o.maxSolutions)
	if err != nil {
		return err
	}
	var train, dev *qe.ExampleSet
	if o.train != "" {
		all, err := env.loadPool(ctx, o.train, o.maxSolutions)
		if err != nil {
			return err
		}
		train = all
		if o.devFrac > 0 {
			train, dev = measure.SplitDev(all, o.devFrac, o.seed)
		}
	}
	if err := env.javaFor(ctx, g, &o.qeOptions, test, train); err != nil {
		return err
	}
	s, err := env.setup(&o.qeOptions, train)
	if err != nil {
		return err
	}
	rep := env.progress(progress.New(stderr, o.quiet || o.json))
	defer watchModel(o.waiting, rep, nil)()
	report, err := measure.RunPlan(ctx, s, dev, test, measure.Plan{
		Estimators: o.estimators, Ks: ks, Alphas: alphas, CutOff: o.cutoff,
		Concurrency: o.jobs, Progress: rep, PaperFigures: measure.PaperTestSet(o.test, o.cutoff),
	})
	if err != nil {
		return err
	}
	md := report.Markdown()
	if o.out != "" {
		if err := os.WriteFile(o.out, []byte(md), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", o.out, err)
		}
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(report)
	}
	_, err = io.WriteString(stdout, md)
	return err
}
