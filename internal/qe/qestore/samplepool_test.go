package qestore

import (
	"reflect"
	"testing"

	"github.com/ticoder/ticoder/internal/check"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/samples"
)

func testDataset(t *testing.T, name string, prompts map[string]string) *dataset.Dataset {
	t.Helper()
	var probs []dataset.Problem
	for _, id := range []string{"T/0", "T/1"} {
		if p, ok := prompts[id]; ok {
			probs = append(probs, dataset.Problem{ID: id, Prompt: p, EntryPoint: "f"})
		}
	}
	ds, err := dataset.New(name, probs)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestSamplesPool: samples are grouped by task in file order, unusable
// samples and unknown tasks are left out, and prompts come from the prompts
// dataset where it has the task.
func TestSamplesPool(t *testing.T) {
	ds := testDataset(t, "d", map[string]string{"T/0": "def f(): # zero\n", "T/1": "def f(): # one\n"})
	other := testDataset(t, "p", map[string]string{"T/1": "def f(): # one, with examples\n"})
	smp := func(task string, i int, prog, err string) samples.Sample {
		return samples.Sample{TaskID: task, Index: i, Program: prog, Err: err}
	}
	type task struct {
		prompt string
		codes  []string
	}
	cases := []struct {
		name    string
		prompts *dataset.Dataset
		in      []samples.Sample
		want    []task
		refs    [][]check.Ref
	}{
		{"empty", ds, nil, nil, nil},
		{"file order", ds,
			[]samples.Sample{smp("T/1", 0, "a", ""), smp("T/0", 0, "b", ""), smp("T/1", 1, "c", "")},
			[]task{{"def f(): # one\n", []string{"a", "c"}}, {"def f(): # zero\n", []string{"b"}}},
			[][]check.Ref{{{TaskID: "T/1", Index: 0}, {TaskID: "T/1", Index: 1}}, {{TaskID: "T/0", Index: 0}}}},
		{"unusable and unknown left out", ds,
			[]samples.Sample{smp("T/0", 0, "", ""), smp("T/0", 1, "x", "bad line"), smp("T/9", 0, "y", ""), smp("T/0", 2, "z", "")},
			[]task{{"def f(): # zero\n", []string{"z"}}},
			[][]check.Ref{{{TaskID: "T/0", Index: 2}}}},
		{"prompts from another dataset", other,
			[]samples.Sample{smp("T/0", 0, "a", ""), smp("T/1", 0, "b", "")},
			[]task{{"def f(): # zero\n", []string{"a"}}, {"def f(): # one, with examples\n", []string{"b"}}},
			[][]check.Ref{{{TaskID: "T/0", Index: 0}}, {{TaskID: "T/1", Index: 0}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pool, refs := SamplesPool(ds, c.prompts, c.in)
			if pool.Positives() != 0 {
				t.Errorf("%d solutions labelled correct, want none", pool.Positives())
			}
			var got []task
			for _, tk := range pool.Tasks {
				got = append(got, task{tk.Prompt, tk.Codes()})
			}
			if pool.Name != "samples" || !reflect.DeepEqual(got, c.want) || !reflect.DeepEqual(refs, c.refs) {
				t.Errorf("got pool %q %+v refs %v, want %+v refs %v", pool.Name, got, refs, c.want, c.refs)
			}
		})
	}
}
