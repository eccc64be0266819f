package rank

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Query is the state a selector chooses the next question in.
type Query struct {
	// Outcomes holds the candidates and the results of the tests.
	Outcomes *Outcomes
	// Mode is the kind of answer the user gives.
	Mode Mode
	// Alive lists the remaining (not pruned) candidates.
	Alive []int
	// Unasked lists the tests not asked yet.
	Unasked []int
	// Step is the number of questions answered so far.
	Step int
	// Seed seeds the random selector.
	Seed uint64
	// Pivot[t] is the value a synthesized question t shows as its expected
	// value (a value number of t, see Outcomes.Pivots); nil or -1: none, and
	// then nothing passes it.
	Pivot []int32
	// BestPivot lets a PassFail synthesized question show, instead of its
	// Pivot, whichever value the remaining candidates return that the
	// selector scores highest (ties keep Pivot): "f(x) == y ?" is a
	// question for every such y. In Output mode the pivot changes no split.
	BestPivot bool
	// Undefined[t] is the chance that the user answers test t `undefined`
	// (its input is outside the function's domain), as the caller
	// estimates it from the answers so far; nil means the weight of the
	// remaining candidates that raise, time out or crash on it (see
	// InfoGain).
	Undefined []float64
}

// pivot returns the pivot of test t.
func (q Query) pivot(t int) int32 {
	if q.Pivot == nil {
		return -1
	}
	return q.Pivot[t]
}

// Selector scores candidate questions. Implementations are stateless and safe
// for concurrent use.
type Selector interface {
	// Name returns the strategy's name, as ParseSelector accepts it.
	Name() string
	// Score returns the score of asking the test whose split is s; the
	// highest is asked first.
	Score(q Query, s *Split) float64
}

// Scored is a test with its selection score.
type Scored struct {
	// Test indexes the pool's tests.
	Test int `json:"test"`
	// Score is the selector's score, rounded to 1e-9.
	Score float64 `json:"score"`
	// Pivot is, for a synthesized question, the value it is scored with
	// and shows (see Query.Pivot and Query.BestPivot); -1 for tests.
	Pivot int32 `json:"pivot"`
}

// Scores returns the unasked tests that split the remaining candidates, best
// first: by score (rounded to 1e-9) descending, then by test index ascending. Tests that do not
// split are left out: they are never asked. So are, for a selector whose
// score is an expected gain (InfoGain), tests that gain nothing: those
// whose answer is surely `undefined`.
func Scores(sel Selector, q Query) []Scored {
	var out []Scored
	sc := newScratch(q.Outcomes)
	_, gain := sel.(gainer)
	var values []int32
	for _, t := range q.Unasked {
		pivot := q.pivot(t)
		s := q.Outcomes.split(q.Mode, q.Alive, t, pivot, sc)
		if !s.Splits() {
			continue
		}
		score := quantize(sel.Score(q, s))
		if q.BestPivot && q.Mode == PassFail && q.Outcomes.synth(t) {
			values = q.Outcomes.valuesOf(t, q.Alive, values[:0])
			for _, v := range values {
				if v == q.pivot(t) {
					continue
				}
				s := q.Outcomes.split(q.Mode, q.Alive, t, v, sc)
				if !s.Splits() {
					continue
				}
				if x := quantize(sel.Score(q, s)); x > score {
					score, pivot = x, v
				}
			}
		}
		if gain && score <= 0 {
			continue
		}
		out = append(out, Scored{Test: t, Score: score, Pivot: pivot})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Test < out[j].Test
	})
	return out
}

// quantize rounds a score to 1e-9, so that scores equal but for
// floating-point rounding tie (and the lowest test index wins).
func quantize(x float64) float64 { return math.Round(x*1e9) / 1e9 }

// Select returns the best test to ask next, or ok false when no unasked test
// splits the remaining candidates.
func Select(sel Selector, q Query) (test int, ok bool) {
	s := Scores(sel, q)
	if len(s) == 0 {
		return -1, false
	}
	return s[0].Test, true
}

// Selectors lists the names ParseSelector accepts (and "ideal", the old
// name of oracle).
func Selectors() []string { return []string{"discr", "random", "infogain", "oracle"} }

// ParseSelector returns the selector with the given name. "ideal" is the
// old name of oracle, which is no upper bound (see Oracle).
func ParseSelector(name string) (Selector, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "discr":
		return Discr{}, nil
	case "random":
		return Random{}, nil
	case "infogain":
		return InfoGain{}, nil
	case "oracle", "ideal":
		return Oracle{}, nil
	}
	return nil, fmt.Errorf("unknown test selection strategy %q (want one of %s)", name, strings.Join(Selectors(), ", "))
}

// Discr is the paper's discriminative score: with G+ and G− the remaining
// candidates that pass and fail the test (errors, timeouts and crashes in
// neither), s(t) = min(|G+|,|G−|) / max(|G+|,|G−|), 0 when both are empty.
// |G±| count distinct candidates, not samples, as the paper counts code
// suggestions.
type Discr struct{}

// Name returns "discr".
func (Discr) Name() string { return "discr" }

// Score returns s(t).
func (Discr) Score(_ Query, s *Split) float64 {
	pass, fail := s.Counts()
	hi, lo := max(pass, fail), min(pass, fail)
	if hi == 0 {
		return 0
	}
	return float64(lo) / float64(hi)
}

// Random asks a uniformly random splitting test; the choice depends only on
// the seed, the step and the test, so it is reproducible and needs no state.
type Random struct{}

// Name returns "random".
func (Random) Name() string { return "random" }

// Score returns a pseudo-random number in [0, 1) drawn from (seed, step, test).
func (Random) Score(q Query, s *Split) float64 {
	h := splitmix(q.Seed ^ splitmix(uint64(q.Step)<<32|uint64(uint32(s.test))))
	return float64(h>>11) / (1 << 53)
}

// splitmix is the SplitMix64 finaliser, a good 64-bit mixing function.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// InfoGain is the expected reduction of the entropy of the remaining
// candidates' behaviour classes:
//
//	gain(t) = H(S) − Σ_a P(a)·H(S_a)
//
// Each candidate weighs w = sqrt(multiplicity): samples are evidence with
// diminishing returns, as in CodeT's sqrt(samples) group score (or, with
// the outcomes of Outcomes.Agreement, that times 1 + its CodeT score). H(X) is the
// entropy (bits) of the classes of X, each class weighted by the sum of its
// members' w; a ranges over the parts of the split that the answer actually
// induces in the mode (pass, fail, each returned value, undefined); S_a is
// what answer a keeps: the passing candidates for pass, the others for fail,
// the part itself for a value, and all of S for undefined, so the chance of
// an undefined answer gains nothing.
//
// P(undefined) = u is Query.Undefined[t], by default the weight of the
// remaining candidates that raise, time out or crash on the input, and at
// least AtypicalUndefined for a synthesized question about an atypical
// input (OutcomesInput.Atypical); each other part a has P(a) = (1 −
// u)·w(a)/w(S minus the error part), the chance that the intended function
// behaves like part a.
type InfoGain struct{}

// AtypicalUndefined is the least chance infogain gives an `undefined`
// answer to a synthesized question about an input unlike every written
// example (OutcomesInput.Atypical): without other evidence such an input is as
// likely outside the function's domain as inside it, and the candidates'
// answers there are less likely to be the intended function's. Scoring it
// so halves its expected gain; it is still asked when nothing typical
// splits the candidates as well.
const AtypicalUndefined = 0.5

// Name returns "infogain".
func (InfoGain) Name() string { return "infogain" }

// gainer marks a selector whose score is an expected gain, so that a
// question that gains nothing is not worth asking (see Scores).
type gainer interface{ expectedGain() }

func (InfoGain) expectedGain() {}

// Score returns gain(t) in bits.
func (InfoGain) Score(q Query, s *Split) float64 {
	p := q.Outcomes
	total := p.Weight(s.alive)
	if total == 0 {
		return 0
	}
	if !s.sc.hOK {
		s.sc.h, s.sc.hOK = p.entropy(s.alive, s.sc), true
	}
	h := s.sc.h
	u, defined := 0.0, total
	for i, k := range s.codes {
		if k == partError {
			defined -= p.Weight(s.parts[i])
			u = p.Weight(s.parts[i]) / total
		}
	}
	if q.Undefined != nil {
		u = q.Undefined[s.test]
	}
	if p.atypical(s.test) {
		u = max(u, AtypicalUndefined)
	}
	if defined <= 0 || u >= 1 {
		return 0
	}
	after := u * h
	for i, k := range s.codes {
		if k != partError {
			after += (1 - u) * p.Weight(s.parts[i]) / defined * s.keptEntropy(i)
		}
	}
	return math.Max(0, h-after)
}

// Oracle cheats: it knows which candidates pass the hidden tests and asks the
// test whose most favourable answer keeps the most correct mass and, among
// those, removes the most incorrect mass. It is a reference for evaluation
// only (it needs OutcomesInput.Correct) and greedy: it does not know which answer
// the user will give, nor look further than one question, so it is no upper
// bound — another selector can beat it at some m. It used to be called
// "ideal", which ParseSelector still accepts.
type Oracle struct{}

// Name returns "oracle".
func (Oracle) Name() string { return "oracle" }

// Score returns kept correct mass × (|S| mass + 1) + removed incorrect mass,
// for the answer part that maximises it.
func (Oracle) Score(q Query, s *Split) float64 {
	p := q.Outcomes
	var good, bad int
	tally := func(c int) {
		if ok, _ := p.Correct(c); ok {
			good += p.Count(c)
		} else {
			bad += p.Count(c)
		}
	}
	for _, c := range s.alive {
		tally(c)
	}
	badAll := bad
	scale := float64(p.Mass(s.alive) + 1)
	best := 0.0
	for i, k := range s.codes {
		if k == partError {
			continue
		}
		good, bad = 0, 0
		s.eachKept(i, tally)
		best = math.Max(best, float64(good)*scale+float64(badAll-bad))
	}
	return best
}
