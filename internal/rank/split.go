package rank

import (
	"math"
	"sort"
)

// Split is how the answer to one test would divide the remaining candidates.
// Each part holds the candidates that would lead the user to the same answer
// if they were the intended function: pass, fail (PassFail mode), one part
// per returned value (Output mode, for CALL == EXPECTED tests), and the
// candidates that raise, time out or crash (the user would answer
// `undefined`).
type Split struct {
	pool  *Pool
	alive []int
	// parts in increasing part code order.
	codes []int32
	parts [][]int
	npass int
	test  int
}

// NewSplit computes the split of the alive candidates by test t in mode.
func (p *Pool) NewSplit(mode Mode, alive []int, t int) *Split {
	byCode := map[int32][]int{}
	for _, c := range alive {
		k := p.part(mode, c, t)
		byCode[k] = append(byCode[k], c)
	}
	s := &Split{pool: p, alive: alive, test: t}
	for k := range byCode {
		s.codes = append(s.codes, k)
	}
	sort.Slice(s.codes, func(i, j int) bool { return s.codes[i] < s.codes[j] })
	for _, k := range s.codes {
		s.parts = append(s.parts, byCode[k])
	}
	s.npass = len(byCode[partPass])
	return s
}

// kept returns the candidates an answer coming from part i would keep: pass
// keeps the passing candidates; fail drops them; a value keeps the
// candidates that returned it; undefined keeps all.
func (s *Split) kept(i int) []int {
	switch k := s.codes[i]; {
	case k == partError:
		return s.alive
	case k == partFail:
		out := make([]int, 0, len(s.alive)-s.npass)
		for _, c := range s.alive {
			if !s.pool.Passes(c, s.test) {
				out = append(out, c)
			}
		}
		return out
	default:
		return s.parts[i]
	}
}

// Splits reports whether some answer other than undefined would keep a
// nonempty proper subset of the remaining candidates. A test that does not
// split is never asked.
func (s *Split) Splits() bool {
	n := len(s.alive)
	for i, k := range s.codes {
		switch {
		case k == partError:
		case k == partFail:
			if s.npass > 0 {
				return true
			}
		case len(s.parts[i]) < n:
			return true
		}
	}
	return false
}

// Counts returns |G+| and |G−|: the numbers of remaining candidates (not
// samples) that pass and fail the test; candidates that raise, time out or
// crash are in neither.
func (s *Split) Counts() (pass, fail int) {
	for i, k := range s.codes {
		switch {
		case k == partPass:
			pass += len(s.parts[i])
		case k == partFail || k >= partValue:
			fail += len(s.parts[i])
		}
	}
	return pass, fail
}

// entropy returns the Shannon entropy, in bits, of the distribution of the
// behaviour classes of set weighted by multiplicity.
func (p *Pool) entropy(set []int) float64 {
	mass := map[int]int{}
	total := 0
	for _, c := range set {
		mass[p.class[c]] += p.Count(c)
		total += p.Count(c)
	}
	if total == 0 {
		return 0
	}
	h := 0.0
	for _, m := range mass {
		q := float64(m) / float64(total)
		h -= q * math.Log2(q)
	}
	return h
}
