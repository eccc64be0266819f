package session

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/ticoder/ticoder/internal/rank"
)

// TestAlwaysRaisingCandidate: a candidate that raises on every input agrees
// with every undefined answer, yet it is one voice: after "undefined" the
// session goes on asking while the other candidates still differ (it used to
// take that candidate alone as the domain's model, expect every further
// question to be undefined and stop with "no-split").
func TestAlwaysRaisingCandidate(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []rank.Mode{rank.PassFail, rank.Output} {
		spec, rc := build(t, mode, []int{1, 1, 1, 1}, "E E E", "P=1 P=1 F=2", "P=1 F=2 P=1", "F=2 P=1 P=1")
		spec.Select = "infogain"
		s := start(t, spec, rc)
		q := ask(t, s)
		if err := s.Answer(ctx, q.Test, Answer{Verdict: Undefined}); err != nil {
			t.Fatal(err)
		}
		if st := s.Status(); st != Running {
			t.Fatalf("%v: after one undefined answer the session stops: %v", mode, st)
		}
		// Candidate 0 agrees with the answer (0.8), the three others do
		// not (0.2 each): each unasked test is undefined with chance 4/7.
		u := s.undefinedChances(s.Unasked())
		for _, test := range s.Unasked() {
			if math.Abs(u[test]-4.0/7) > 1e-9 {
				t.Errorf("%v: test %d undefined with chance %v, want 4/7", mode, test, u[test])
			}
		}
	}
}

// TestUndefinedKeepsRanking: an undefined answer prunes nothing and leaves
// the code ranking as it was; the asked test still counts in CodeT's
// agreement (asking it used to drop it, which turned the order around).
func TestUndefinedKeepsRanking(t *testing.T) {
	ctx := context.Background()
	// CodeT: candidate 0 (1 sample) passes both tests, 2 × 1; candidate 1
	// (3 samples) the second only, sqrt(3) × 1. Without test 0 both pass
	// the same set and tie at 2, and the more frequent one would lead.
	spec, rc := build(t, rank.PassFail, []int{1, 3}, "P P", "F P")
	spec.Select, spec.Rank = "infogain", "codet"
	s := start(t, spec, rc)
	before := slices.Clone(s.Ranking().Order)
	q := ask(t, s)
	if q.Test != 0 {
		t.Fatalf("asked test %d, want 0 (the only one that splits)", q.Test)
	}
	if err := s.Answer(ctx, q.Test, Answer{Verdict: Undefined}); err != nil {
		t.Fatal(err)
	}
	if after := s.Ranking().Order; !slices.Equal(before, after) || before[0] != 0 {
		t.Errorf("ranking %v before the undefined answer, %v after; want [0 1] both", before, after)
	}
	if got := s.RankingTests(); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("RankingTests = %v, want [0 1]", got)
	}
}

// TestDeclaredUndefined: a question whose input lacks a property the
// problem declares (trait "0:!pos") is likely undefined before any answer,
// so an equally splitting question inside the declared domain is asked
// first; a trait the written examples share ("0:-pos") alone does not do
// that.
func TestDeclaredUndefined(t *testing.T) {
	for _, tc := range []struct {
		name   string
		traits [][]string
		want   int
	}{
		{"no traits: the first of the tie", nil, 0},
		{"test 0 outside the declared domain", [][]string{{"0:!pos"}, nil}, 1},
		{"test 0 only unlike the examples", [][]string{{"0:-pos"}, nil}, 0},
		{"both outside", [][]string{{"0:!pos"}, {"0:!type=int", "0:-nonneg"}}, 0},
	} {
		for _, mode := range []rank.Mode{rank.PassFail, rank.Output} {
			spec, rc := build(t, mode, []int{1, 1, 1, 1}, "P=1 P=1", "P=1 P=1", "F=2 F=2", "F=2 F=2")
			spec.Select, spec.Traits = "infogain", tc.traits
			s := start(t, spec, rc)
			if q := ask(t, s); q.Test != tc.want {
				t.Errorf("%s, %v: asked test %d, want %d", tc.name, mode, q.Test, tc.want)
			}
			u := s.undefinedChances(s.Unasked())
			for test, trs := range tc.traits {
				want := 0.0
				if slices.ContainsFunc(trs, declaredTrait) {
					want = DeclaredUndefined
				}
				got := 0.0 // nil: the selector takes the candidates' errors (none here)
				if u != nil {
					got = u[test]
				}
				if got != want {
					t.Errorf("%s, %v: test %d undefined with chance %v, want %v", tc.name, mode, test, got, want)
				}
			}
		}
	}
}
