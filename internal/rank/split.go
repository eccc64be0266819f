package rank

import (
	"math"
)

// Split is how the answer to one test would divide the remaining candidates.
// Each part holds the candidates that would lead the user to the same answer
// if they were the intended function: pass, fail (PassFail mode), one part
// per returned value (Output mode, for CALL == EXPECTED tests), and the
// candidates that raise, time out or crash (the user would answer
// `undefined`). A Split is only valid until the next split computed with the
// same scratch space; NewSplit returns one with its own.
type Split struct {
	pool  *Outcomes
	alive []int
	test  int
	// codes are the part codes present, increasing; parts[i] holds the
	// candidates of codes[i].
	codes []int32
	parts [][]int
	// pass is the index of the pass part in codes, or -1.
	pass int
	sc   *scratch
}

// scratch is reusable memory for computing many splits of one pool.
type scratch struct {
	count   []int
	members []int
	codes   []int32
	parts   [][]int
	mass    []float64 // weight by class
	touched []int     // classes with nonzero mass
	split   Split
	// h caches the entropy of the remaining candidates (hOK once set).
	h   float64
	hOK bool
}

func newScratch(p *Outcomes) *scratch {
	return &scratch{count: make([]int, p.maxCode), mass: make([]float64, p.nclass)}
}

// NewSplit computes the split of the alive candidates by test t in mode. A
// synthesized question is split with no pivot (nothing passes); Query.Split
// uses the query's pivots.
func (p *Outcomes) NewSplit(mode Mode, alive []int, t int) *Split {
	return p.split(mode, alive, t, -1, newScratch(p))
}

// Split computes the split of q's remaining candidates by test t, a
// synthesized question split by its pivot in q.
func (q Query) Split(t int) *Split {
	return q.Outcomes.split(q.Mode, q.Alive, t, q.pivot(t), newScratch(q.Outcomes))
}

// split computes a split in the scratch space sc, overwriting the last one.
func (p *Outcomes) split(mode Mode, alive []int, t int, pivot int32, sc *scratch) *Split {
	n := p.ncode[t]
	count := sc.count[:n]
	for _, c := range alive {
		count[p.part(mode, c, t, pivot)]++
	}
	sc.codes = sc.codes[:0]
	off := 0
	for k := range n {
		if count[k] > 0 {
			sc.codes = append(sc.codes, int32(k))
			c := count[k]
			count[k] = off // becomes the write position
			off += c
		}
	}
	if cap(sc.members) < len(alive) {
		sc.members = make([]int, len(alive))
	}
	members := sc.members[:len(alive)]
	for _, c := range alive {
		k := p.part(mode, c, t, pivot)
		members[count[k]] = c
		count[k]++
	}
	// count[k] is now the end of part k; rebuild the parts and clear count.
	sc.parts = sc.parts[:0]
	start := 0
	s := &sc.split
	*s = Split{pool: p, alive: alive, test: t, pass: -1, sc: sc}
	for i, k := range sc.codes {
		end := count[k]
		sc.parts = append(sc.parts, members[start:end])
		if k == partPass {
			s.pass = i
		}
		start = end
		count[k] = 0
	}
	s.codes, s.parts = sc.codes, sc.parts
	return s
}

// eachKept calls f for every candidate an answer coming from part i would
// keep: pass keeps the passing candidates; fail drops them; a value keeps
// the candidates that returned it; undefined keeps all.
func (s *Split) eachKept(i int, f func(c int)) {
	switch k := s.codes[i]; {
	case k == partError:
		for _, c := range s.alive {
			f(c)
		}
	case k == partFail:
		for j, part := range s.parts {
			if j == s.pass {
				continue
			}
			for _, c := range part {
				f(c)
			}
		}
	default:
		for _, c := range s.parts[i] {
			f(c)
		}
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
			if s.pass >= 0 {
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

// keptEntropy returns the entropy of the behaviour classes of what an answer
// from part i keeps.
func (s *Split) keptEntropy(i int) float64 {
	sc := s.sc
	total := 0.0
	s.eachKept(i, func(c int) {
		cl := s.pool.class[c]
		if sc.mass[cl] == 0 {
			sc.touched = append(sc.touched, cl)
		}
		w := s.pool.weight[c]
		sc.mass[cl] += w
		total += w
	})
	return sc.drain(total)
}

// drain returns the entropy of the weights accumulated in sc and clears them.
func (sc *scratch) drain(total float64) float64 {
	h := 0.0
	for _, cl := range sc.touched {
		if total > 0 {
			q := sc.mass[cl] / total
			h -= q * math.Log2(q)
		}
		sc.mass[cl] = 0
	}
	sc.touched = sc.touched[:0]
	return h
}

// entropy returns the Shannon entropy, in bits, of the distribution of the
// behaviour classes of set, each candidate weighing sqrt(multiplicity).
func (p *Outcomes) entropy(set []int, sc *scratch) float64 {
	total := 0.0
	for _, c := range set {
		cl := p.class[c]
		if sc.mass[cl] == 0 {
			sc.touched = append(sc.touched, cl)
		}
		sc.mass[cl] += p.weight[c]
		total += p.weight[c]
	}
	return sc.drain(total)
}
