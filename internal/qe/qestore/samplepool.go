package qestore

import (
	"context"
	"fmt"

	"github.com/ticoder/ticoder/internal/check"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/samples"
)

// LabelledProgram is one program of a samples file with its label from the
// hidden tests.
type LabelledProgram struct {
	TaskID  string
	Program string
	Correct bool
}

// ExampleSetFromPrograms groups labelled programs by problem into an example set called
// name, taking each problem's text from ds. Tasks are in order of first
// appearance; programs of unknown tasks are an error.
func ExampleSetFromPrograms(name string, ds *dataset.Dataset, progs []LabelledProgram) (*qe.ExampleSet, error) {
	pool := &qe.ExampleSet{Name: name}
	at := map[string]int{}
	for _, lp := range progs {
		i, ok := at[lp.TaskID]
		if !ok {
			p, found := ds.Get(lp.TaskID)
			if !found {
				return nil, fmt.Errorf("pool %s: task %q is not in dataset %s", name, lp.TaskID, ds.Name)
			}
			i = len(pool.Tasks)
			at[lp.TaskID] = i
			pool.Tasks = append(pool.Tasks, qe.Task{Problem: qe.FromDataset(p), Reference: p.Reference})
		}
		pool.Tasks[i].Solutions = append(pool.Tasks[i].Solutions, qe.Solution{Code: lp.Program, Correct: lp.Correct})
	}
	if len(pool.Tasks) == 0 {
		return nil, fmt.Errorf("pool %s: no labelled programs", name)
	}
	return pool, pool.Validate()
}

// SamplesPool groups the usable samples (no error, a program) by task, in
// file order, into an unlabelled example set called "samples" whose problems
// come from ds with the prompts of prompts (ds itself, or another dataset
// with the same task ids). refs[i][j] is the sample of solution j of task i.
// Samples of tasks ds lacks are left out.
func SamplesPool(ds, prompts *dataset.Dataset, smp []samples.Sample) (*qe.ExampleSet, [][]check.Ref) {
	pool := &qe.ExampleSet{Name: "samples"}
	var refs [][]check.Ref
	at := map[string]int{}
	for _, s := range smp {
		if s.Err != "" || s.Program == "" {
			continue
		}
		i, ok := at[s.TaskID]
		if !ok {
			p, found := ds.Get(s.TaskID)
			if !found {
				continue
			}
			if alt, ok := prompts.Get(s.TaskID); ok {
				p.Prompt = alt.Prompt
			}
			i = len(pool.Tasks)
			at[s.TaskID] = i
			pool.Tasks = append(pool.Tasks, qe.Task{Problem: qe.FromDataset(p)})
			refs = append(refs, nil)
		}
		pool.Tasks[i].Solutions = append(pool.Tasks[i].Solutions, qe.Solution{Code: s.Program})
		refs[i] = append(refs[i], check.Ref{TaskID: s.TaskID, Index: s.Index})
	}
	return pool, refs
}

// LabelSamples runs the hidden tests of ds on the samples with runner and
// groups the samples that have a program, labelled by their result, into an
// example set called name (see ExampleSetFromPrograms).
func LabelSamples(ctx context.Context, runner execute.Runner, name string, ds *dataset.Dataset, smp []samples.Sample, rep progress.Reporter) (*qe.ExampleSet, error) {
	program := map[check.Ref]string{}
	for _, s := range smp {
		program[check.Ref{TaskID: s.TaskID, Index: s.Index}] = s.Program
	}
	sum, err := check.Run(ctx, runner, ds, check.FromSamples(smp), check.Options{Ks: []int{1}, Progress: rep})
	if err != nil {
		return nil, err
	}
	var progs []LabelledProgram
	for _, r := range sum.Results {
		if p := program[check.Ref{TaskID: r.TaskID, Index: r.Index}]; p != "" {
			progs = append(progs, LabelledProgram{TaskID: r.TaskID, Program: p, Correct: r.Passed})
		}
	}
	return ExampleSetFromPrograms(name, ds, progs)
}
