package eval

import (
	"sort"

	"github.com/ticoder/ticoder/internal/passk"
	"github.com/ticoder/ticoder/internal/rank"
)

// PassAtK is the unbiased pass@k estimator of Chen et al. (2021) for one
// problem with n raw samples of which c are correct: 1 − C(n−c,k)/C(n,k),
// computed as a product (see package passk).
func PassAtK(n, c, k int) float64 { return passk.Estimate(n, c, k) }

// TopK returns the expected value of "one of the top k candidates of the
// ranking passes the hidden tests". Candidates of one tie group (equal score
// and prior) are ordered by a random pick weighted by multiplicity:
// successive sampling without replacement, each draw choosing a not yet drawn
// member with probability proportional to its multiplicity. Walking the tie
// groups best first with s slots left: a group of at most s members is wholly
// in the top k (success 1 if any member is correct); the first group larger
// than s fills the s slots by s weighted draws, and the value is the
// probability that at least one draw is correct. For k = 1 this is the
// correct share of the top group's samples. An empty ranking scores 0.
//
// count(c) is candidate c's multiplicity, correct(c) its hidden verdict.
func TopK(r rank.Ranking, count func(c int) int, correct func(c int) bool, k int) float64 {
	slots := k
	for start := 0; start < len(r.Order) && slots > 0; {
		end := start
		for end < len(r.Order) && r.Tie[end] == r.Tie[start] {
			end++
		}
		group := r.Order[start:end]
		if len(group) <= slots {
			for _, c := range group {
				if correct(c) {
					return 1
				}
			}
			slots -= len(group)
			start = end
			continue
		}
		return 1 - missAll(group, count, correct, slots)
	}
	return 0
}

// missAll returns the probability that s successive multiplicity-weighted
// draws without replacement from group pick no correct candidate. Incorrect
// candidates of equal weight are interchangeable, so the recursion runs over
// how many of each weight are left.
func missAll(group []int, count func(int) int, correct func(int) bool, s int) float64 {
	total := 0
	bad := map[int]int{}
	for _, c := range group {
		w := max(count(c), 1)
		total += w
		if !correct(c) {
			bad[w]++
		}
	}
	weights := make([]int, 0, len(bad))
	for w := range bad {
		weights = append(weights, w)
	}
	sort.Ints(weights)
	left := make([]int, len(weights))
	for i, w := range weights {
		left[i] = bad[w]
	}
	var rec func(rest, draws int) float64
	rec = func(rest, draws int) float64 {
		if draws == 0 {
			return 1
		}
		p := 0.0
		for i, w := range weights {
			if left[i] == 0 {
				continue
			}
			q := float64(left[i]*w) / float64(rest)
			left[i]--
			p += q * rec(rest-w, draws-1)
			left[i]++
		}
		return p
	}
	return rec(total, s)
}
