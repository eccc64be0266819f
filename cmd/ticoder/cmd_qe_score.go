package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/check"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/estimate"
	"github.com/ticoder/ticoder/internal/qe/measure"
	"github.com/ticoder/ticoder/internal/qe/qestore"
	"github.com/ticoder/ticoder/internal/samples"
)

// qeScoreOptions are the flags of `ticoder qe score`.
type qeScoreOptions struct {
	qeOptions
	dataset   string
	samples   string
	out       string
	check     bool
	docstring string
}

func newQEScoreCommand(g *globalOptions) *cobra.Command {
	o := &qeScoreOptions{}
	cmd := &cobra.Command{
		Use:   "score --dataset NAME --samples FILE --estimator E",
		Short: "Rank the candidates of a samples file by estimated correctness",
		Long: `score estimates the correctness of every sample of a samples file (human-eval
or CodeT JSONL, as for ticoder check) with one estimator and writes one JSON
line per sample: task_id, sample_index, score and rank within its problem
(1 = best; tied samples share a rank).

--check also runs the hidden tests and reports how good the ranking is:
pass@1 of the raw samples against pass@1 of the top-ranked sample (ties
broken uniformly at random, as an expectation), and global/local nDCG.`,
		Example: `  ticoder qe score --dataset humaneval --samples samples.jsonl --estimator agree --check
  ticoder qe score --dataset humaneval-noexamples --samples codes.jsonl --estimator knn --train $TICODER_DATA/cqe/mbpp-codestral-22b.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runQEScore(cmd.Context(), g, o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	addQEFlags(cmd, &o.qeOptions, []string{"agree"}, []string{"4"})
	f := cmd.Flags()
	f.StringVar(&o.train, "train", "", "labelled pool for knn, combo, icl: CQE file or pool:NAME")
	f.StringVar(&o.dataset, "dataset", "", "dataset name or file the samples belong to (required)")
	f.StringVar(&o.samples, "samples", "", "samples file (required)")
	f.StringVar(&o.out, "out", "", "write the per-sample JSON lines here instead of stdout")
	f.BoolVar(&o.check, "check", false, "run the hidden tests and report the ranking's quality")
	f.StringVar(&o.docstring, "prompts-from", "", "estimate with the prompts of this dataset, matched by task id (e.g. humaneval, whose docstrings keep the examples that humaneval-noexamples drops)")
	_ = cmd.MarkFlagRequired("dataset")
	_ = cmd.MarkFlagRequired("samples")
	return cmd
}

// scoredSample is one output line of qe score.
type scoredSample struct {
	TaskID string  `json:"task_id"`
	Index  int     `json:"sample_index"`
	Score  float64 `json:"score"`
	Rank   int     `json:"rank"`
	Passed *bool   `json:"passed,omitempty"`
}

func runQEScore(ctx context.Context, g *globalOptions, o *qeScoreOptions, stdout, stderr io.Writer) error {
	ks, alphas, err := o.parsePlanFlags()
	if err != nil {
		return err
	}
	if len(o.estimators) != 1 || len(ks) != 1 || len(alphas) != 1 {
		return usagef("qe score takes one --estimator, one --k and one --alpha")
	}
	name := o.estimators[0]
	if estimate.NeedsExamples(name) && o.train == "" {
		return usagef("estimator %s needs --train (a labelled pool)", name)
	}
	ds, err := dataset.Load(ctx, dataset.DataDir(g.dataDir), o.dataset)
	if err != nil {
		return err
	}
	smp, err := samples.Read(ctx, o.samples, ds)
	if err != nil {
		return err
	}
	env, err := openQEEnv(ctx, g, &o.qeOptions, estimate.NeedsRunner(name) || o.check)
	if err != nil {
		return err
	}
	defer env.Close()
	if ds.Language() == dataset.Java {
		if err := env.addJava(ctx, g, &o.qeOptions); err != nil {
			return err
		}
	}
	var train *qe.ExampleSet
	if o.train != "" {
		if train, err = env.loadPool(ctx, o.train, o.maxSolutions); err != nil {
			return err
		}
	}
	s, err := env.setup(&o.qeOptions, train)
	if err != nil {
		return err
	}
	est, err := s.New(ctx, name, ks[0], alphas[0])
	if err != nil {
		return err
	}
	promptDS := ds
	if o.docstring != "" {
		if promptDS, err = dataset.Load(ctx, dataset.DataDir(g.dataDir), o.docstring); err != nil {
			return err
		}
	}
	pool, refs := qestore.SamplesPool(ds, promptDS, smp)
	rep := env.progress(progress.New(stderr, o.quiet))
	defer watchModel(o.waiting, rep, nil)()
	scores, err := measure.ScoreTasks(ctx, est, pool, measure.EvalOptions{Concurrency: o.jobs, Progress: rep})
	if err != nil {
		return err
	}
	var passed map[check.Ref]bool
	if o.check {
		if passed, err = checkSamples(ctx, env, ds, smp, rep); err != nil {
			return err
		}
	}
	if err := writeScores(o.out, stdout, refs, scores, passed); err != nil {
		return err
	}
	if o.check {
		return printScoreCheck(stderr, est.Name(), refs, scores, passed, o.json)
	}
	return nil
}

// checkSamples runs the hidden tests of every sample.
func checkSamples(ctx context.Context, env *qeEnv, ds *dataset.Dataset, smp []samples.Sample, rep progress.Reporter) (map[check.Ref]bool, error) {
	sum, err := check.Run(ctx, env.engine.Runner(ds.Language()), ds, check.FromSamples(smp), check.Options{Ks: []int{1}, Progress: rep})
	if err != nil {
		return nil, err
	}
	return sum.Passed(), nil
}

// writeScores writes one JSON line per sample with its rank in its task.
func writeScores(path string, stdout io.Writer, refs [][]check.Ref, scores [][]float64, passed map[check.Ref]bool) error {
	w := stdout
	if path != "" {
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("write scores: %w", err)
		}
		defer f.Close()
		w = f
	}
	enc := json.NewEncoder(w)
	for i := range refs {
		ranks := measure.Ranks(scores[i])
		for j, ref := range refs[i] {
			line := scoredSample{TaskID: ref.TaskID, Index: ref.Index, Score: scores[i][j], Rank: ranks[j]}
			if passed != nil {
				p := passed[ref]
				line.Passed = &p
			}
			if err := enc.Encode(line); err != nil {
				return fmt.Errorf("write scores: %w", err)
			}
		}
	}
	return nil
}

// printScoreCheck prints raw pass@1, pass@1 of the top-ranked sample, and
// nDCG (measure.CheckSamples).
func printScoreCheck(w io.Writer, name string, refs [][]check.Ref, scores [][]float64, passed map[check.Ref]bool, asJSON bool) error {
	res, err := measure.CheckSamples(name, refs, scores, passed)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(w).Encode(res)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "estimator\t%s\nproblems\t%d\npass@1 (raw samples)\t%.4f\npass@1 (top-ranked)\t%.4f\nG-nDCG\t%.3f\nL-nDCG\t%.3f (mixed %.3f over %d problems)\n",
		res.Estimator, res.Problems, res.RawPass1, res.TopPass1, res.Global, res.Local, res.LocalMixed, res.Mixed)
	return tw.Flush()
}
