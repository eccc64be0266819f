package rank

import (
	"math"
	"testing"
)

// agreementPool: candidates 0 and 1 pass both generated tests (columns 0
// and 1), 2, 3 and 4 pass neither. Synthesized question 2 tells 1 from the
// others; question 3 tells {3, 4} from {0, 1, 2}.
func agreementPool(t *testing.T) *Outcomes {
	t.Helper()
	return pool(t, OutcomesInput{
		Results: grid(t,
			"P P F=1 F=1",
			"P P F=2 F=1",
			"F=0 F=0 F=1 F=1",
			"F=0 F=0 F=1 F=2",
			"F=0 F=0 F=1 F=2",
		),
		Calls:       []bool{true, true, true, true},
		Synthesized: []bool{false, false, true, true},
	})
}

func TestAgreementWeights(t *testing.T) {
	p := agreementPool(t)
	// CodeT: {0, 1} pass the same two tests, sqrt(2) × 2; the others pass none.
	supported := 1 + 2*math.Sqrt2
	tests := []struct {
		name    string
		alive   []int
		unasked []int
		want    []float64 // weights of alive, in order
	}{
		{"supported candidates weigh more", all(5), all(4), []float64{supported, supported, 1, 1, 1}},
		{"no generated test left: sqrt(multiplicity)", all(5), []int{2, 3}, []float64{1, 1, 1, 1, 1}},
		{"groups of the remaining candidates only", []int{0, 2}, all(4), []float64{1 + 2, 1}},
		{"asked tests no longer count", all(5), []int{1, 2, 3}, []float64{1 + math.Sqrt2, 1 + math.Sqrt2, 1, 1, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := p.Agreement(tc.alive, tc.unasked)
			for i, c := range tc.alive {
				if got := a.Weight([]int{c}); math.Abs(got-tc.want[i]) > 1e-9 {
					t.Errorf("weight of candidate %d = %v, want %v", c, got, tc.want[i])
				}
			}
			if p.Weight(all(5)) != 5 {
				t.Errorf("Agreement changed the pool's own weights: %v", p.Weight(all(5)))
			}
		})
	}
}

// TestAgreementChoosesAmongSupported is the regression test of a PassFail
// m=1 drop: with every candidate weighing sqrt(multiplicity),
// infogain asked the synthesized question that best halves all the
// candidates (question 3, 3:2), which candidates no generated test supports
// decide, and its answer could not change which candidate ranks first;
// weighed by the tests' agreement, it asks question 2, which tells apart
// the two candidates the tests support.
func TestAgreementChoosesAmongSupported(t *testing.T) {
	p := agreementPool(t)
	for _, tc := range []struct {
		name string
		pool *Outcomes
		want int
	}{
		{"sqrt(multiplicity)", p, 3},
		{"agreement", p.Agreement(all(5), all(4)), 2},
	} {
		for _, mode := range []Mode{PassFail, Output} {
			q := Query{Outcomes: tc.pool, Mode: mode, Alive: all(5), Unasked: []int{2, 3}, Pivot: []int32{-1, -1, 0, 0}, BestPivot: true}
			if got, ok := Select(InfoGain{}, q); !ok || got != tc.want {
				t.Errorf("%s, %v: infogain asks %d (ok %v), want %d", tc.name, mode, got, ok, tc.want)
			}
		}
	}
}
