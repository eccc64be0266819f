package check

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
)

func TestVerdict(t *testing.T) {
	cases := []struct {
		r      execute.Result
		want   string
		passed bool
	}{
		{execute.Result{Outcome: execute.Pass}, "passed", true},
		{execute.Result{Outcome: execute.Fail}, "failed: AssertionError", false},
		{execute.Result{Outcome: execute.Error, Exception: "NameError"}, "failed: NameError", false},
		{execute.Result{Outcome: execute.Timeout}, "timed out", false},
		{execute.Result{Outcome: execute.Crash, Exception: "signal 11"}, "failed: crashed (signal 11)", false},
	}
	for _, c := range cases {
		got, passed := verdict(c.r)
		if got != c.want || passed != c.passed {
			t.Errorf("verdict(%v) = %q, %v; want %q, %v", c.r.Outcome, got, passed, c.want, c.passed)
		}
	}
}

func TestTaskOrder(t *testing.T) {
	ids := []string{"HumanEval/10", "Mbpp/2", "HumanEval/9", "HumanEval/100", "x"}
	sort.Slice(ids, func(i, j int) bool { return taskLess(ids[i], ids[j]) })
	want := []string{"HumanEval/9", "HumanEval/10", "HumanEval/100", "Mbpp/2", "x"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestSummarizeCountsOnlyListedTasks(t *testing.T) {
	results := []Result{
		{TaskID: "A", Passed: true}, {TaskID: "A"}, {TaskID: "B"}, {TaskID: "unknown", Passed: true},
	}
	byTask := map[string][]int{"A": {0, 1}, "B": {2}, "unknown": {3}}
	s := summarize([]string{"A", "B"}, byTask, results, []int{1})
	if s.Problems != 2 || s.Samples != 3 {
		t.Errorf("problems %d, samples %d; want 2, 3", s.Problems, s.Samples)
	}
	if got := s.PassAtK[1]; got != 0.25 { // (1/2 + 0) / 2
		t.Errorf("pass@1 = %v, want 0.25", got)
	}
}

// TestSummarizeLeavesOutLargeK: pass@k needs k samples of every problem; a
// k above that is left out, not reported as an estimate of 1.
func TestSummarizeLeavesOutLargeK(t *testing.T) {
	results := []Result{{TaskID: "A", Passed: true}, {TaskID: "A"}, {TaskID: "A"}, {TaskID: "B"}, {TaskID: "B"}, {TaskID: "B"}, {TaskID: "B"}}
	byTask := map[string][]int{"A": {0, 1, 2}, "B": {3, 4, 5, 6}}
	s := summarize([]string{"A", "B"}, byTask, results, []int{1, 3, 10, 100})
	if diff := cmp.Diff([]int{10, 100}, s.Omitted); diff != "" {
		t.Errorf("omitted k (-want +got):\n%s", diff)
	}
	if s.MinSamples != 3 {
		t.Errorf("MinSamples = %d, want 3", s.MinSamples)
	}
	if _, ok := s.PassAtK[10]; ok {
		t.Errorf("pass@10 reported (%v) for problems of 3 and 4 samples", s.PassAtK[10])
	}
	if got := s.PassAtK[3]; got != 0.5 { // A: 1, B: 0
		t.Errorf("pass@3 = %v, want 0.5", got)
	}
}

func TestPartition(t *testing.T) {
	ds := &dataset.Dataset{Name: "toy", Problems: []dataset.Problem{{ID: "A"}}}
	in := []Sample{
		{TaskID: "A", Program: "a", Line: 1},
		{Err: "f:2: invalid JSON", Line: 2},
		{TaskID: "Z", Program: "z", Line: 3},
		{Err: "f:4: the prompt matches no problem", Line: 4},
		{Err: "f:4: the prompt matches no problem", Line: 4},
		{TaskID: "A", Program: "b", Line: 5},
	}
	run, skipped := Partition(ds, in)
	if len(run) != 2 || run[0].Program != "a" || run[1].Program != "b" {
		t.Errorf("run = %+v, want the two samples of A", run)
	}
	want := []Skipped{
		{Line: 2, Reason: "f:2: invalid JSON", Samples: 1},
		{Line: 3, TaskID: "Z", Reason: `unknown task "Z": dataset toy has no such problem`, Samples: 1},
		{Line: 4, Reason: "f:4: the prompt matches no problem", Samples: 2},
	}
	if diff := cmp.Diff(want, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}
