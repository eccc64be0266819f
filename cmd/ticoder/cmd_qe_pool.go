package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/qestore"
	"github.com/ticoder/ticoder/internal/samples"
)

// qePoolOptions are the flags of `ticoder qe pool add`.
type qePoolOptions struct {
	qeOptions
	cqe     string
	samples string
	dataset string
}

func newQEPoolCommand(g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pool",
		Short: "Manage labelled pools (problem, solution, label) in the database",
	}
	o := &qePoolOptions{}
	add := &cobra.Command{
		Use:   "add NAME (--cqe FILE | --samples FILE --dataset NAME)",
		Short: "Store a labelled pool: from a CQE file, or from samples labelled by their hidden tests",
		Example: `  ticoder qe pool add mbpp-cs --cqe $TICODER_DATA/cqe/mbpp-codestral-22b.jsonl
  ticoder qe pool add he-codegen --samples codes.jsonl --dataset humaneval-noexamples`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runQEPoolAdd(cmd.Context(), g, o, args[0], cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := add.Flags()
	f.StringVar(&o.cqe, "cqe", "", "CQE file (task_id, prompt, code_1.., results)")
	f.StringVar(&o.samples, "samples", "", "samples file to label by running the hidden tests")
	f.StringVar(&o.dataset, "dataset", "", "dataset of the samples (name or file)")
	f.IntVar(&o.maxSolutions, "max-solutions", 0, "keep at most this many solutions per problem of a CQE file (0 = all)")
	f.IntVar(&o.workers, "workers", 0, "sandboxed Python workers (default: one per CPU)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
	list := &cobra.Command{
		Use:   "list",
		Short: "List the stored pools",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runQEPoolList(cmd.Context(), g, o.json, cmd.OutOrStdout())
		},
	}
	list.Flags().BoolVar(&o.json, "json", false, "print JSON")
	cmd.AddCommand(add, list)
	return cmd
}

func runQEPoolAdd(ctx context.Context, g *globalOptions, o *qePoolOptions, name string, stdout, stderr io.Writer) error {
	if (o.cqe == "") == (o.samples == "") {
		return usagef("give either --cqe FILE or --samples FILE --dataset NAME")
	}
	if o.samples != "" && o.dataset == "" {
		return usagef("--samples needs --dataset")
	}
	env, err := openQEEnv(ctx, g, &o.qeOptions, o.samples != "")
	if err != nil {
		return err
	}
	defer env.Close()
	var pool *qe.ExampleSet
	source := o.cqe
	if o.cqe != "" {
		if pool, err = loadCQE(o.cqe, o.maxSolutions); err != nil {
			return err
		}
	} else {
		source = o.samples + " (" + o.dataset + ", labelled by the hidden tests)"
		if pool, err = labelSamples(ctx, g, env, o, name, stderr); err != nil {
			return err
		}
	}
	pool.Name = name
	if err := env.store.SaveExamples(ctx, pool, source); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "pool %s: %d problems, %d solutions, %d correct\n", name, len(pool.Tasks), pool.Size(), pool.Positives())
	return nil
}

// labelSamples reads the samples of --samples and labels them into a pool
// by their hidden tests (qestore.LabelSamples).
func labelSamples(ctx context.Context, g *globalOptions, env *qeEnv, o *qePoolOptions, name string, stderr io.Writer) (*qe.ExampleSet, error) {
	ds, err := dataset.Load(ctx, dataset.DataDir(g.dataDir), o.dataset)
	if err != nil {
		return nil, err
	}
	smp, err := samples.Read(ctx, o.samples, ds)
	if err != nil {
		return nil, err
	}
	return qestore.LabelSamples(ctx, env.runner(), name, ds, smp, env.progress(progress.New(stderr, o.quiet)))
}

func runQEPoolList(ctx context.Context, g *globalOptions, asJSON bool, stdout io.Writer) error {
	env, err := openQEEnv(ctx, g, &qeOptions{}, false)
	if err != nil {
		return err
	}
	defer env.Close()
	pools, err := env.store.ExampleSets(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(stdout).Encode(pools)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPROBLEMS\tSOLUTIONS\tCORRECT\tCREATED\tSOURCE")
	for _, p := range pools {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\n", p.Name, p.Problems, p.Pairs, p.Positives, p.Created.Format("2006-01-02 15:04"), p.Source)
	}
	return tw.Flush()
}
