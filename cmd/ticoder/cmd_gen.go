package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/extract"
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
	getenv      func(string) string // environment lookup; nil means os.Getenv
}

// genRow is one line of gen's output: what the model wrote for a problem and
// what extraction made of it.
type genRow struct {
	TaskID     string              `json:"task_id"`
	Candidates []extract.Candidate `json:"candidates"`
	Tests      []extract.Test      `json:"tests"`
	Stats      genStats            `json:"stats"`
	RawCodes   []string            `json:"raw_codes"`
	RawTests   []string            `json:"raw_tests"`
}

// genStats are the extraction counters of one problem.
type genStats struct {
	Codes extract.Stats `json:"codes"`
	Tests extract.Stats `json:"tests"`
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
	f.Float64Var(&o.temperature, "temperature", 0.8, "sampling temperature")
	f.Float64Var(&o.topP, "top-p", 0.95, "nucleus sampling mass")
	f.IntVar(&o.maxTokens, "max-tokens", 0, "longest completion in tokens (default: ticoder's per-purpose default)")
	f.IntVar(&o.seed, "seed", -1, "sampling seed for servers that support it (-1: none)")
	f.BoolVar(&o.offline, "offline", false, "answer only from the response cache; a missing response is an error")
	f.StringVar(&o.prompts, "prompts", "", "file of prompt templates overriding the defaults")
	f.IntVar(&o.jobs, "jobs", 4, "problems generated and extracted at once")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
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
	prov, err := llm.OpenString(o.model, llm.Options{
		Style: style, Prompts: prompts, Cache: eng.DB, Offline: o.offline, Usage: usage,
		Retry: o.retry, Getenv: o.getenv,
	})
	if err != nil {
		return err
	}
	rows, err := genAll(ctx, prov, eng.Pool, problems, o)
	if err != nil {
		return err
	}
	if err := writeJSONLAtomic(o.out, rows); err != nil {
		return err
	}
	if o.summary != nil {
		fmt.Fprintln(o.summary, genSummary(o.out, rows, usage, prov))
	}
	return nil
}

// selectProblems returns the problems named by ids (all when ids is empty),
// in dataset order; an unknown id is a usage error.
func selectProblems(ds *dataset.Dataset, ids []string) ([]dataset.Problem, error) {
	ps, err := ds.Select(ids)
	if err != nil {
		return nil, usageError{fmt.Errorf("--problems: %w", err)}
	}
	return ps, nil
}

// genAll runs genProblem on every problem, o.jobs at a time, and returns the
// rows in problem order. The first error cancels the rest.
func genAll(ctx context.Context, prov llm.Provider, runner extract.Caller, problems []dataset.Problem, o genOptions) ([]genRow, error) {
	rep := progress.OrNop(o.progress)
	rep.Start("gen", len(problems))
	defer rep.Finish()
	rows := make([]genRow, len(problems))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(o.jobs, 1))
	for i := range problems {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			row, err := genProblem(ctx, prov, runner, problems[i], o)
			if err != nil {
				return err
			}
			rows[i] = row
			rep.Add(1)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return rows, nil
}

// genRulesVersion names the rules by which genProblem turns a problem into
// generated candidates and tests: the requests it sends (llm's prompts and
// sampling parameters), codeProblem's continuation rule, testOptions'
// cut-off rule, and eval's rawPrograms. eval's generation cache is keyed on
// it and extract.RulesVersion, not on the binary, so the cache survives a
// rebuild. Bump it whenever one of those changes what is generated for the
// same problem and options.
const genRulesVersion = "gen-v4"

// genProblem asks for one problem's codes and tests and extracts them.
func genProblem(ctx context.Context, prov llm.Provider, runner extract.Caller, p dataset.Problem, o genOptions) (genRow, error) {
	row := genRow{TaskID: p.ID, Candidates: []extract.Candidate{}, Tests: []extract.Test{}, RawCodes: []string{}, RawTests: []string{}}
	params := llm.Params{Temperature: o.temperature, TopP: o.topP, MaxTokens: o.maxTokens}
	if o.seed >= 0 {
		seed := o.seed
		params.Seed = &seed
	}
	task := llm.TaskFrom(p)
	if o.codes > 0 {
		params.N = o.codes
		gen, err := generate(ctx, prov, llm.Request{Purpose: llm.PurposeCode, Task: task, Params: params})
		if err != nil {
			return row, err
		}
		cp, style := codeProblem(p, gen, o.codeStyle)
		row.RawCodes = gen.Texts()
		if row.Candidates, row.Stats.Codes, err = extract.Codes(ctx, runner, cp, row.RawCodes, style); err != nil {
			return row, err
		}
	}
	if o.tests > 0 {
		params.N = o.tests
		gen, err := generate(ctx, prov, llm.Request{Purpose: llm.PurposeTests, Task: task, Params: params})
		if err != nil {
			return row, err
		}
		row.RawTests = gen.Texts()
		if row.Tests, row.Stats.Tests, err = extract.Tests(ctx, runner, p, row.RawTests, testOptions(gen)); err != nil {
			return row, err
		}
	}
	if row.Candidates == nil {
		row.Candidates = []extract.Candidate{}
	}
	if row.Tests == nil {
		row.Tests = []extract.Test{}
	}
	return row, nil
}

// generate asks prov and notes when fewer samples came back than asked for.
func generate(ctx context.Context, prov llm.Provider, req llm.Request) (*llm.Generation, error) {
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
// it, else the whole rendered prompt.
func codeProblem(p dataset.Problem, gen *llm.Generation, flag string) (dataset.Problem, extract.Style) {
	style, _ := extract.ParseStyle(flag) // validated before
	if gen.Continues == "" {
		return p, style
	}
	if !strings.HasSuffix(gen.Continues, p.Prompt) {
		p.Prompt = gen.Continues
	}
	if flag == "" {
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

// genSummary describes a finished run in one line.
func genSummary(out string, rows []genRow, usage *llm.Usage, prov llm.Provider) string {
	var codes, tests extract.Stats
	for _, r := range rows {
		codes.Add(r.Stats.Codes)
		tests.Add(r.Stats.Tests)
	}
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
