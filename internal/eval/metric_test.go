package eval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ticoder/ticoder/internal/rank"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestPassAtK(t *testing.T) {
	tests := []struct {
		n, c, k int
		want    float64
	}{
		{100, 22, 1, 0.22},
		{4, 2, 2, 5.0 / 6},         // 1 - C(2,2)/C(4,2)
		{10, 1, 5, 0.5},            // 1 - C(9,5)/C(10,5) = 1 - 126/252
		{100, 1, 100, 1},           // any correct sample is among all 100
		{100, 0, 100, 0},           // none correct
		{200, 3, 10, 0.1433074463}, // 1 - C(197,10)/C(200,10), from math.comb
	}
	for _, tc := range tests {
		if got := PassAtK(tc.n, tc.c, tc.k); math.Abs(got-tc.want) > 1e-8 {
			t.Errorf("pass@%d(n=%d, c=%d) = %.10f, want %.10f", tc.k, tc.n, tc.c, got, tc.want)
		}
	}
}

// ranking builds a Ranking from tie groups of candidates.
func ranking(groups ...[]int) rank.Ranking {
	var r rank.Ranking
	for g, members := range groups {
		for _, c := range members {
			r.Order = append(r.Order, c)
			r.Score = append(r.Score, float64(-g))
			r.Tie = append(r.Tie, g)
		}
	}
	return r
}

func TestTopK(t *testing.T) {
	// Candidates: weight and verdict.
	w := []int{98, 1, 1, 3, 1, 5}
	ok := []bool{false, true, false, false, true, false}
	count := func(c int) int { return w[c] }
	correct := func(c int) bool { return ok[c] }
	tests := []struct {
		name string
		r    rank.Ranking
		k    int
		want float64
	}{
		{"empty set is a failure", ranking(), 1, 0},
		{"correct on top", ranking([]int{1}, []int{0}), 1, 1},
		{"wrong on top", ranking([]int{0}, []int{1}), 1, 0},
		{"tie: weighted pick", ranking([]int{3, 4}), 1, 0.25},
		{"tie of many: correct share of samples", ranking([]int{0, 1, 2}), 1, 0.01},
		{"second slot from a tie", ranking([]int{0}, []int{4, 5}), 2, 1.0 / 6},
		{"whole tie fits in k", ranking([]int{0, 1, 2}), 5, 1},
		{"k beyond the candidates", ranking([]int{0}, []int{2}), 5, 0},
		// Two draws from {98 wrong, 1 right, 1 wrong}: miss = .98·½ + .01·98/99.
		{"successive weighted draws", ranking([]int{0, 1, 2}), 2, 1 - (0.98*0.5 + 0.01*98.0/99)},
		{"correct below the top k", ranking([]int{0}, []int{2}, []int{1}), 2, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := TopK(tc.r, count, correct, tc.k); !near(got, tc.want) {
				t.Errorf("TopK = %.10f, want %.10f", got, tc.want)
			}
		})
	}
}

// bruteMiss enumerates every draw sequence.
func bruteMiss(group, w []int, ok []bool, s int) float64 {
	var rec func(left []int, s int) float64
	rec = func(left []int, s int) float64 {
		if s == 0 || len(left) == 0 {
			return 1
		}
		total := 0
		for _, c := range left {
			total += w[c]
		}
		p := 0.0
		for i, c := range left {
			if ok[c] {
				continue
			}
			rest := append(append([]int{}, left[:i]...), left[i+1:]...)
			p += float64(w[c]) / float64(total) * rec(rest, s-1)
		}
		return p
	}
	return rec(group, s)
}

func TestMissAllMatchesEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 2 + rng.IntN(6)
		w := make([]int, n)
		ok := make([]bool, n)
		group := make([]int, n)
		for i := range n {
			w[i] = 1 + rng.IntN(4)
			ok[i] = rng.IntN(3) == 0
			group[i] = i
		}
		s := 1 + rng.IntN(n-1)
		got := missAll(group, func(c int) int { return w[c] }, func(c int) bool { return ok[c] }, s)
		if want := bruteMiss(group, w, ok, s); !near(got, want) {
			t.Fatalf("trial %d: missAll = %v, enumeration %v (w=%v ok=%v s=%d)", trial, got, want, w, ok, s)
		}
	}
}
