package session

import (
	"slices"

	"github.com/ticoder/ticoder/internal/rank"
)

// Fallbacks: what an answer demotes instead of ruling out.
//
// A candidate that returns another value than the user says implements
// another function. One that raises, times out or crashes on the input more
// likely has a bug on an input its author did not think of: candidates are
// written for typical inputs and rarely handle the edge cases a question
// asks about (an empty string, zero), while the rest of what they do may be
// right. Both leave the remaining candidates, among which the questions are
// chosen and which rank first; the second are kept as fallbacks, ranked
// after every remaining candidate, so that an answer about an edge case
// does not throw away a program that is otherwise right. A fallback that a
// later answer contradicts by what it returns is ruled out like any other.

// extraDisagreements returns, for every candidate, how many more of the
// answers it disagrees with than the remaining candidates do (0 for a
// remaining candidate), or -1 for a candidate that is no fallback: one that
// disagrees with more answers by what it returned (or by passing or failing
// a test) than the remaining candidates disagree with at all, or one that
// is broken (rank.Outcomes.Broken).
func (s *Session) extraDisagreements() []int {
	n := s.agreements()
	best := 0
	for _, k := range n {
		best = max(best, k)
	}
	raised := make([]int, len(n))
	for _, st := range s.history {
		agree := st.Agree
		for c := range n {
			for len(agree) > 0 && agree[0] < c {
				agree = agree[1:]
			}
			if len(agree) > 0 && agree[0] == c {
				continue
			}
			if s.pool.Raises(c, st.Test) {
				raised[c]++
			}
		}
	}
	out := make([]int, len(n))
	for c, k := range n {
		switch {
		case k == best:
		case k+raised[c] < best || s.pool.Broken(c):
			out[c] = -1
		default:
			out[c] = best - k
		}
	}
	return out
}

// Fallbacks returns the candidates that the answers ruled out only because
// they raised, timed out or crashed on answered inputs: each disagrees with
// no more answers than the remaining candidates but for those raises. They
// are listed by how many more answers they disagree with than the remaining
// candidates (fewest first), then in increasing order.
func (s *Session) Fallbacks() []int {
	fb, _ := s.fallbacks()
	return fb
}

// fallbacks returns Fallbacks and extraDisagreements (nil before any
// answer, when there is no fallback).
func (s *Session) fallbacks() (fb, extra []int) {
	if len(s.history) == 0 {
		return nil, nil
	}
	extra = s.extraDisagreements()
	for c, e := range extra {
		if e > 0 {
			fb = append(fb, c)
		}
	}
	slices.SortStableFunc(fb, func(a, b int) int { return extra[a] - extra[b] })
	return fb, extra
}

// Ranked returns the candidates a user chooses among, best first: the
// remaining candidates ranked by the session's code ranker, then the
// fallbacks (Fallbacks), fewest extra disagreements first and each group
// ranked the same way.
func (s *Session) Ranked() rank.Ranking {
	return s.RankedWith(s.ranker, s.pool)
}

// RankedWith is Ranked with ranker r over outcomes p (p must hold the
// session's candidates and tests, e.g. with another prior).
func (s *Session) RankedWith(r rank.Ranker, p *rank.Outcomes) rank.Ranking {
	fb, extra := s.fallbacks()
	return s.rankedWith(r, p, fb, extra)
}

// rankedWith is RankedWith given s.fallbacks().
func (s *Session) rankedWith(r rank.Ranker, p *rank.Outcomes, fb, extra []int) rank.Ranking {
	tests := s.RankingTests()
	out := rank.Rank(r, p, s.alive, tests)
	for start := 0; start < len(fb); {
		end := start + 1
		for end < len(fb) && extra[fb[end]] == extra[fb[start]] {
			end++
		}
		group := rank.Rank(r, p, fb[start:end], tests)
		off := 0
		if n := len(out.Tie); n > 0 {
			off = out.Tie[n-1] + 1
		}
		for i, c := range group.Order {
			out.Order = append(out.Order, c)
			out.Score = append(out.Score, group.Score[i])
			out.Tie = append(out.Tie, group.Tie[i]+off)
		}
		start = end
	}
	return out
}

// Kept returns the remaining candidates and the fallbacks, in increasing
// order: every candidate the user can still choose.
func (s *Session) Kept() []int {
	out := append(slices.Clone(s.alive), s.Fallbacks()...)
	slices.Sort(out)
	return out
}
