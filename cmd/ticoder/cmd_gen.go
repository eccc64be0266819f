package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/atomicfile"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/generate"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/progress"
)

// genOptions are the flags of `ticoder gen`.
type genOptions struct {
	dataset     string
	model       string
	codes       int
	tests       int
	out         string
	problems    []string
	style       string // prompt style: chat or completion
	codeStyle   string // extraction style: auto, body or full
	temperature float64
	topP        float64
	maxTokens   int
	seed        int // < 0: none
	offline     bool
	prompts     string // template file
	jobs        int    // problems generated at once
	quiet       bool   // no progress output
	progress    progress.Reporter
	summary     io.Writer           // where the one-line summary goes; nil: nowhere
	retry       llm.Retry           // HTTP retry policy; the zero value means the defaults
	reqTimeout  time.Duration       // --request-timeout
	getenv      func(string) string // environment lookup; nil means os.Getenv
}

func newGenCommand(g *globalOptions) *cobra.Command {
	o := genOptions{}
	cmd := &cobra.Command{
		Use:   "gen --dataset NAME --model MODEL --out FILE",
		Short: "Generate candidate programs and tests for a dataset's problems and extract them",
		Long: `gen asks a model for candidate implementations and candidate tests of every
problem of a dataset, extracts clean programs and single-assertion tests from
the completions (with Python's ast, in the sandbox), deduplicates them, and
writes one JSON line per problem:

  {"task_id", "candidates": [{"program", "count", "first"}],
   "tests": [{"setup", "code", "input", "expected", "count", "first"}],
   "stats": {"codes": {...}, "tests": {...}}, "raw_codes": [...], "raw_tests": [...]}

The file is written atomically: on any error no partial file is left.
Responses of live models are cached in --cache; replay:DIR serves recorded
generations offline.`,
		Example: `  ticoder gen --dataset humaneval-noexamples --model replay:$TICODER_DATA/samples/humaneval-codegen16b --out gen.jsonl
  ticoder gen --dataset mbpp-sanitized --model ollama:qwen2.5-coder:7b --codes 20 --tests 20 --out gen.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.progress = progress.New(cmd.ErrOrStderr(), o.quiet)
			o.summary = cmd.ErrOrStderr()
			return runGen(cmd.Context(), g, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.dataset, "dataset", "", "dataset name (e.g. humaneval-noexamples, mbpp-sanitized) or file (required)")
	f.StringVar(&o.model, "model", "", "model: openai:NAME, ollama:NAME, vllm:NAME@URL, azure:DEPLOYMENT, replay:DIR, ... (required)")
	f.IntVar(&o.codes, "codes", 100, "code samples per problem")
	f.IntVar(&o.tests, "tests", 100, "test samples per problem")
	f.StringVar(&o.out, "out", "", "output JSONL file (required)")
	f.StringSliceVar(&o.problems, "problems", nil, "only these task ids, comma-separated (e.g. HumanEval/0,HumanEval/5 or 0,5)")
	f.StringVar(&o.style, "style", "chat", "prompt style: chat (instruction models) or completion (base models)")
	f.StringVar(&o.codeStyle, "code-style", "", "how code completions relate to the prompt: auto, body (continue the prompt) or full (whole programs); default: body when the model continued the prompt, else auto")
	f.Float64Var(&o.temperature, "temperature", generate.DefaultTemperature, "sampling temperature")
	f.Float64Var(&o.topP, "top-p", generate.DefaultTopP, "nucleus sampling mass")
	f.IntVar(&o.maxTokens, "max-tokens", 0, "longest completion in tokens (default: ticoder's per-purpose default)")
	f.IntVar(&o.seed, "seed", -1, "sampling seed for servers that support it (-1: none)")
	f.BoolVar(&o.offline, "offline", false, "answer only from the response cache; a missing response is an error")
	f.StringVar(&o.prompts, "prompts", "", "file of prompt templates overriding the defaults")
	f.IntVar(&o.jobs, "jobs", 4, "problems generated and extracted at once")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
	addRequestTimeout(f, &o.reqTimeout)
	return cmd
}

// validate checks the options that need no I/O.
func (o *genOptions) validate() error {
	switch {
	case o.dataset == "":
		return usagef("gen: --dataset is required (e.g. --dataset humaneval-noexamples)")
	case o.model == "":
		return usagef("gen: --model is required (e.g. --model replay:DIR or --model ollama:qwen2.5-coder:7b)")
	case o.out == "":
		return usagef("gen: --out FILE is required")
	case o.codes < 0 || o.tests < 0:
		return usagef("gen: --codes and --tests must not be negative")
	case o.codes == 0 && o.tests == 0:
		return usagef("gen: --codes and --tests are both 0: nothing to generate")
	}
	if _, err := extract.ParseStyle(o.codeStyle); err != nil {
		return usageError{err}
	}
	if _, err := llm.ParseSpec(o.model); err != nil {
		return usageError{err}
	}
	if o.jobs < 1 {
		o.jobs = 1
	}
	return nil
}

// runGen generates, extracts and writes the rows of every selected problem.
func runGen(ctx context.Context, g *globalOptions, o genOptions) error {
	if err := o.validate(); err != nil {
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
	var prompts *llm.Prompts
	if o.prompts != "" {
		if prompts, err = llm.LoadPrompts(o.prompts); err != nil {
			return err
		}
	}
	eng, err := openEngine(ctx, g, 0)
	if err != nil {
		return err
	}
	defer eng.Close()
	o.progress = eng.progress(o.progress)
	usage := &llm.Usage{}
	waiting := &llm.Waiting{}
	mo := modelOptions(o.reqTimeout, waiting)
	mo.Style, mo.Prompts, mo.Cache, mo.Offline, mo.Usage, mo.Retry, mo.Getenv = style, prompts, eng.DB, o.offline, usage, o.retry, o.getenv
	prov, err := llm.OpenString(o.model, mo)
	if err != nil {
		return err
	}
	rep := progress.OrNop(o.progress)
	rep.Start("gen", len(problems))
	stopWatch := watchModel(waiting, rep, nil)
	rows, err := generate.All(ctx, prov, eng.Pool, problems, o.generateOptions(), o.jobs, rep)
	stopWatch()
	rep.Finish()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteJSONL(o.out, rows); err != nil {
		return err
	}
	if o.summary != nil {
		fmt.Fprintln(o.summary, genSummary(o.out, rows, usage, prov))
	}
	return nil
}

// generateOptions returns what the flags ask the model for.
func (o *genOptions) generateOptions() generate.Options {
	g := generate.Options{
		Codes: o.codes, Tests: o.tests, Temperature: o.temperature, TopP: o.topP, MaxTokens: o.maxTokens,
		CodeStyle: extract.Style(o.codeStyle), // validated
	}
	if o.seed >= 0 {
		seed := o.seed
		g.Seed = &seed
	}
	return g
}

// selectProblems returns the problems named by ids (all when ids is empty),
// in dataset order; an unknown id is bad input (dataset.ErrNoProblem), as
// a task that is missing.
func selectProblems(ds *dataset.Dataset, ids []string) ([]dataset.Problem, error) {
	ps, err := ds.Select(ids)
	if err != nil {
		return nil, fmt.Errorf("--problems: %w", err)
	}
	return ps, nil
}

// genSummary describes a finished run in one line.
func genSummary(out string, rows []generate.Result, usage *llm.Usage, prov llm.Provider) string {
	tot := generate.Totals(rows)
	codes, tests := tot.Codes, tot.Tests
	s := fmt.Sprintf("gen: wrote %d problems to %s: %d candidates from %d code samples (%d dropped), %d tests from %d test pieces (%d dropped)",
		len(rows), out, codes.Unique, codes.Samples, codes.Dropped(), tests.Unique, tests.Pieces, tests.Dropped())
	if u := usage.Snapshot(); u.Requests > 0 {
		s += "; " + u.String()
	}
	if c, ok := prov.(*llm.Cache); ok {
		st := c.Stats()
		s += fmt.Sprintf("; response cache: %d hits, %d misses", st.Hits, st.Misses)
	}
	return s
}
