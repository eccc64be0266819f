package check

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/samples"
)

func TestFromSamples(t *testing.T) {
	tests := []struct {
		name string
		in   []samples.Sample
		want []Sample
	}{
		{"none", nil, []Sample{}},
		{"fields carried, format dropped", []samples.Sample{
			{TaskID: "HumanEval/0", Index: 1, Completion: "    return 1\n", Program: "def f():\n    return 1\n", Format: samples.HumanEval, Line: 7},
			{Line: 8, Err: "samples.jsonl:8: not JSON"},
		}, []Sample{
			{TaskID: "HumanEval/0", Index: 1, Completion: "    return 1\n", Program: "def f():\n    return 1\n", Line: 7},
			{Line: 8, Err: "samples.jsonl:8: not JSON"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, FromSamples(tc.in)); diff != "" {
				t.Errorf("FromSamples (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSummaryPassed(t *testing.T) {
	tests := []struct {
		name    string
		results []Result
		want    map[Ref]bool
	}{
		{"none", nil, map[Ref]bool{}},
		{"by task and index", []Result{
			{TaskID: "HumanEval/0", Index: 0, Passed: true},
			{TaskID: "HumanEval/0", Index: 1, Passed: false},
			{TaskID: "HumanEval/2", Index: 0, Passed: true},
		}, map[Ref]bool{{"HumanEval/0", 0}: true, {"HumanEval/0", 1}: false, {"HumanEval/2", 0}: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, (&Summary{Results: tc.results}).Passed()); diff != "" {
				t.Errorf("Passed (-want +got):\n%s", diff)
			}
		})
	}
}
