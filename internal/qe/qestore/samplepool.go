package qestore

import (
	"fmt"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/qe"
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
