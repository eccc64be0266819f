package session

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/rank"
)

// TestFallbacks: an answer that a candidate contradicts only by raising on
// its input demotes it behind the remaining candidates instead of ruling it
// out; one that returns another value, or never returns at all, is ruled
// out.
func TestFallbacks(t *testing.T) {
	ctx := context.Background()
	// Tests f(0) == 0 and f(1) == 1. Candidate 0 returns both; 1 raises on
	// f(0); 2 returns 5 for f(0); 3 raises on both (broken); 4 raises on
	// f(0) and returns 7 for f(1).
	rows := []string{"P=0 P=1", "E P=1", "F=5 P=1", "E E", "E F=7"}
	type step struct {
		test   int
		answer Answer
		// want: remaining, fallbacks, Ranked order, Crashes of each
		// suggestion.
		alive, fallbacks, ranked, crashes []int
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"an edge case answered", []step{
			{0, Answer{Verdict: Pass}, []int{0}, []int{1, 4}, []int{0, 1, 4}, []int{0, 1, 1}},
			{1, Answer{Verdict: Output, Value: "1"}, []int{0}, []int{1}, []int{0, 1}, []int{0, 1}},
		}},
		{"a value disagreement rules out", []step{
			{1, Answer{Verdict: Pass}, []int{0, 1, 2}, nil, []int{0, 1, 2}, []int{0, 0, 0}},
			{0, Answer{Verdict: Pass}, []int{0}, []int{1}, []int{0, 1}, []int{0, 1}},
		}},
		{"undefined demotes nobody", []step{
			{0, Answer{Verdict: Undefined}, []int{0, 1, 2, 3, 4}, nil, nil, nil},
		}},
		// Nobody returns 9: the remaining candidates disagree with one
		// answer by value, and a fallback may disagree with as many by
		// value, plus raises.
		{"a conflict", []step{
			{0, Answer{Verdict: Pass}, []int{0}, []int{1, 4}, nil, nil},
			{1, Answer{Verdict: Output, Value: "9"}, []int{0}, []int{1, 4}, []int{0, 1, 4}, []int{0, 1, 1}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec, rc := build(t, rank.Output, []int{1, 1, 1, 1, 1}, rows...)
			s := start(t, spec, rc)
			if fb := s.Fallbacks(); fb != nil {
				t.Errorf("fallbacks before any answer: %v", fb)
			}
			for i, st := range tc.steps {
				q := s.question(st.test, 0, "")
				s.pending = &q
				if err := s.Answer(ctx, st.test, st.answer); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(st.alive, s.Alive()); diff != "" {
					t.Errorf("answer %d: remaining (-want +got):\n%s", i+1, diff)
				}
				if diff := cmp.Diff(st.fallbacks, s.Fallbacks()); diff != "" {
					t.Errorf("answer %d: fallbacks (-want +got):\n%s", i+1, diff)
				}
				if st.ranked == nil {
					continue
				}
				if diff := cmp.Diff(st.ranked, s.Ranked().Order); diff != "" {
					t.Errorf("answer %d: ranked (-want +got):\n%s", i+1, diff)
				}
				var crashes []int
				for _, sg := range s.Suggestions() {
					crashes = append(crashes, sg.Crashes)
				}
				if diff := cmp.Diff(st.crashes, crashes); diff != "" {
					t.Errorf("answer %d: crashes (-want +got):\n%s", i+1, diff)
				}
			}
		})
	}
}

// TestFallbacksRankLast: a fallback never ties with, nor ranks before, a
// remaining candidate, whatever its score.
func TestFallbacksRankLast(t *testing.T) {
	// Candidate 0 fails every other test; candidate 1, many samples,
	// passes them but raises on the answered one.
	spec, rc := build(t, rank.Output, []int{1, 9}, "P=0 F=3 F=4", "E P=1 P=2")
	s := start(t, spec, rc)
	q := s.question(0, 0, "")
	s.pending = &q
	if err := s.Answer(context.Background(), 0, Answer{Verdict: Pass}); err != nil {
		t.Fatal(err)
	}
	r := s.Ranked()
	if diff := cmp.Diff([]int{0, 1}, r.Order); diff != "" {
		t.Fatalf("ranked (-want +got):\n%s", diff)
	}
	if r.Tie[0] == r.Tie[1] {
		t.Errorf("the fallback ties with the remaining candidate: %v", r.Tie)
	}
	if diff := cmp.Diff([]int{0, 1}, s.Kept()); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
}
