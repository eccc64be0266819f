package rank

import (
	"math"
	"slices"
)

// Agreement returns the outcomes with infogain's candidate weights set from
// CodeT's dual execution agreement on the tests of unasked: each candidate
// of alive weighs sqrt(multiplicity) × (1 + s), s its CodeT score (sqrt of
// the samples of the remaining candidates that pass the same unasked tests
// × the number of tests they pass; synthesized questions pass nothing).
// The weights are infogain's belief about which candidate is the intended
// function: a question that tells apart candidates the generated tests
// support says more about which program to rank first than one that tells
// apart candidates no test supports. The 1 keeps a candidate that passes no
// test in play; without tests the weights are sqrt(multiplicity), as in p.
// Candidates outside alive keep their weights. p itself is not changed;
// the result shares its data.
func (p *Outcomes) Agreement(alive, unasked []int) *Outcomes {
	scores := CodeT{}.Scores(p, alive, unasked)
	q := *p
	q.weight = slices.Clone(p.weight)
	for i, c := range alive {
		q.weight[c] = math.Sqrt(float64(p.Count(c))) * (1 + scores[i])
	}
	return &q
}
