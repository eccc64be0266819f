package check

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

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
