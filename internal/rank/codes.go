package rank

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Ranker scores the remaining candidates; higher is better. Implementations
// are stateless and safe for concurrent use.
type Ranker interface {
	// Name returns the strategy's name, as ParseRanker accepts it.
	Name() string
	// Scores returns the score of each candidate of alive (same order),
	// computed from the tests of unasked: those whose answer has not
	// settled them (a session passes the tests not asked yet and those
	// answered undefined, see session.Session.RankingTests).
	Scores(p *Outcomes, alive, unasked []int) []float64
}

// Rankers lists the names ParseRanker accepts.
func Rankers() []string { return []string{"passing", "codet", "prior"} }

// ParseRanker returns the code ranker with the given name.
func ParseRanker(name string) (Ranker, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "passing":
		return Passing{}, nil
	case "codet":
		return CodeT{}, nil
	case "prior":
		return PriorOnly{}, nil
	}
	return nil, fmt.Errorf("unknown code ranking strategy %q (want one of %s)", name, strings.Join(Rankers(), ", "))
}

// Passing is the paper's ranking: the number of still-unasked tests a
// candidate passes (each distinct test counts once).
type Passing struct{}

// Name returns "passing".
func (Passing) Name() string { return "passing" }

// Scores returns the number of unasked tests each candidate passes.
func (Passing) Scores(p *Outcomes, alive, unasked []int) []float64 {
	out := make([]float64, len(alive))
	for i, c := range alive {
		n := 0
		for _, t := range unasked {
			if p.Passes(c, t) {
				n++
			}
		}
		out[i] = float64(n)
	}
	return out
}

// CodeT is CodeT's dual execution agreement with multiplicities: the
// remaining candidates that pass exactly the same set of unasked tests form a
// group, and every member scores sqrt(samples in the group) × (number of
// tests the group passes).
type CodeT struct{}

// Name returns "codet".
func (CodeT) Name() string { return "codet" }

// Scores returns each candidate's group score.
func (CodeT) Scores(p *Outcomes, alive, unasked []int) []float64 {
	keys := make([]string, len(alive))
	passed := make([]int, len(alive))
	mass := map[string]int{}
	buf := make([]byte, len(unasked))
	for i, c := range alive {
		for j, t := range unasked {
			buf[j] = '0'
			if p.Passes(c, t) {
				buf[j] = '1'
				passed[i]++
			}
		}
		keys[i] = string(buf)
		mass[keys[i]] += p.Count(c)
	}
	out := make([]float64, len(alive))
	for i := range alive {
		out[i] = math.Sqrt(float64(mass[keys[i]])) * float64(passed[i])
	}
	return out
}

// PriorOnly ranks by the pool's prior score alone (e.g. a quality estimate);
// without a prior every candidate ties and multiplicity decides the order.
type PriorOnly struct{}

// Name returns "prior".
func (PriorOnly) Name() string { return "prior" }

// Scores returns 0 for every candidate: the prior, which every ranking uses
// as the first tie-break, then decides alone.
func (PriorOnly) Scores(_ *Outcomes, alive, _ []int) []float64 { return make([]float64, len(alive)) }

// Ranking is the remaining candidates in rank order.
type Ranking struct {
	// Order lists the candidates, best first.
	Order []int `json:"order"`
	// Score is the ranker's score of Order[i].
	Score []float64 `json:"score"`
	// Tie numbers the groups of candidates that tie (equal score and equal
	// prior): Tie[i] == Tie[j] when Order[i] and Order[j] tie. Group numbers
	// increase along Order. Within a tie the order (multiplicity descending,
	// then first sample ascending) is only for display; metrics treat a tie as
	// a random pick weighted by multiplicity.
	Tie []int `json:"tie"`
}

// Rank orders the alive candidates: every one that returns on some test or
// input before the broken ones (Outcomes.Broken), then by r's score
// descending, then prior descending, then multiplicity descending, then
// first sample and index ascending.
func Rank(r Ranker, p *Outcomes, alive, unasked []int) Ranking {
	scores := r.Scores(p, alive, unasked)
	idx := make([]int, len(alive))
	broken := make([]bool, len(alive))
	for i := range idx {
		idx[i] = i
		broken[i] = p.Broken(alive[i])
	}
	sort.SliceStable(idx, func(a, b int) bool {
		i, j := idx[a], idx[b]
		ci, cj := alive[i], alive[j]
		switch {
		case broken[i] != broken[j]:
			return broken[j]
		case scores[i] != scores[j]:
			return scores[i] > scores[j]
		case p.Prior(ci) != p.Prior(cj):
			return p.Prior(ci) > p.Prior(cj)
		case p.Count(ci) != p.Count(cj):
			return p.Count(ci) > p.Count(cj)
		case p.First(ci) != p.First(cj):
			return p.First(ci) < p.First(cj)
		}
		return ci < cj
	})
	out := Ranking{Order: make([]int, len(idx)), Score: make([]float64, len(idx)), Tie: make([]int, len(idx))}
	for k, i := range idx {
		out.Order[k] = alive[i]
		out.Score[k] = scores[i]
		if k > 0 {
			prev := idx[k-1]
			out.Tie[k] = out.Tie[k-1]
			if scores[i] != scores[prev] || p.Prior(alive[i]) != p.Prior(alive[prev]) || broken[i] != broken[prev] {
				out.Tie[k]++
			}
		}
	}
	return out
}

// Class is one behaviour class of the remaining candidates: candidates with
// the same outcome and returned value on every test.
type Class struct {
	// Rep is the representative, the member ranked best.
	Rep int `json:"rep"`
	// Members lists the class's candidates in rank order.
	Members []int `json:"members"`
	// Count is the total multiplicity of the members.
	Count int `json:"count"`
	// Score is the representative's score.
	Score float64 `json:"score"`
	// Tie is the representative's tie group (see Ranking.Tie).
	Tie int `json:"tie"`
}

// Classes groups a ranking by behaviour class, in the order of each class's
// best-ranked member.
func (r Ranking) Classes(p *Outcomes) []Class {
	var out []Class
	at := map[int]int{}
	for k, c := range r.Order {
		id := p.Class(c)
		i, ok := at[id]
		if !ok {
			i = len(out)
			at[id] = i
			out = append(out, Class{Rep: c, Score: r.Score[k], Tie: r.Tie[k]})
		}
		out[i].Members = append(out[i].Members, c)
		out[i].Count += p.Count(c)
	}
	return out
}
