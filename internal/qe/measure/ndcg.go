package measure

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// ErrTooFewDocuments is returned by NDCG for fewer than two documents, as
// scikit-learn's ndcg_score refuses them.
var ErrTooFewDocuments = errors.New("nDCG needs at least two documents")

// NDCG returns the normalised discounted cumulative gain of ranking the
// documents by scores, exactly as scikit-learn's ndcg_score(y_true=[rel],
// y_score=[scores], k=k, ignore_ties=False) computes it for one sample:
//
//   - discount(i) = 1/log2(i+2) for rank i = 0, 1, ...; 0 from rank k on
//     (k ≤ 0 means no cut-off);
//   - documents with tied scores share the mean of their gains over the sum
//     of the discounts of the ranks they occupy (McSherry & Najork 2008), so
//     the order of ties does not matter;
//   - the ideal DCG ranks by relevance; if it is 0 (no relevant document)
//     the nDCG is 0.
//
// Relevance must be non-negative; scores must not be NaN. The summations
// follow numpy's order (pairwise summation), so results agree with
// scikit-learn to within a few units in the last place.
func NDCG(relevance, scores []float64, k int) (float64, error) {
	if len(relevance) != len(scores) {
		return 0, fmt.Errorf("nDCG: %d relevance values but %d scores", len(relevance), len(scores))
	}
	if len(relevance) < 2 {
		return 0, fmt.Errorf("%w (got %d)", ErrTooFewDocuments, len(relevance))
	}
	for i := range relevance {
		if relevance[i] < 0 || math.IsNaN(relevance[i]) {
			return 0, fmt.Errorf("nDCG: relevance %v at %d is not a non-negative number", relevance[i], i)
		}
		if math.IsNaN(scores[i]) {
			return 0, fmt.Errorf("nDCG: score at %d is NaN", i)
		}
	}
	discount := discounts(len(relevance), k)
	ideal := idealDCG(relevance, discount)
	if ideal == 0 {
		return 0, nil
	}
	return tieAveragedDCG(relevance, scores, discount) / ideal, nil
}

// discounts returns 1/log2(i+2) for i < n, zero from k on (k > 0).
func discounts(n, k int) []float64 {
	d := make([]float64, n)
	for i := range d {
		if k > 0 && i >= k {
			break
		}
		d[i] = 1 / (math.Log(float64(i+2)) / math.Log(2))
	}
	return d
}

// idealDCG ranks by relevance, descending (ties do not matter there).
func idealDCG(relevance, discount []float64) float64 {
	r := append([]float64(nil), relevance...)
	sort.Sort(sort.Reverse(sort.Float64Slice(r)))
	var s float64
	for i, g := range r {
		s += g * discount[i]
	}
	return s
}

// tieAveragedDCG is scikit-learn's _tie_averaged_dcg.
func tieAveragedDCG(relevance, scores, discount []float64) float64 {
	n := len(scores)
	cum := make([]float64, n)
	var c float64
	for i, d := range discount {
		c += d
		cum[i] = c
	}
	// Distinct scores, descending (np.unique of -score, ascending).
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	group := make([]int, n) // document → group index
	var counts []int
	for pos, doc := range order {
		if pos == 0 || scores[doc] != scores[order[pos-1]] {
			counts = append(counts, 0)
		}
		group[doc] = len(counts) - 1
		counts[len(counts)-1]++
	}
	// np.add.at adds the gains in document order.
	ranked := make([]float64, len(counts))
	for doc, g := range group {
		ranked[g] += relevance[doc]
	}
	terms := make([]float64, len(counts))
	last, prev := -1, 0.0
	for g, cnt := range counts {
		ranked[g] /= float64(cnt)
		last += cnt
		terms[g] = ranked[g] * (cum[last] - prev)
		prev = cum[last]
	}
	return numpySum(terms)
}

// numpySum adds like numpy's add.reduce of a contiguous float64 array: the
// first element, plus the pairwise sum of the rest.
func numpySum(a []float64) float64 {
	if len(a) == 0 {
		return 0
	}
	return a[0] + pairwiseSum(a[1:])
}

// pairwiseSum adds like numpy's pairwise summation of a contiguous float64
// array (blocks of 8 partial sums, halves above 128 elements).
func pairwiseSum(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		var s float64
		for _, x := range a {
			s += x
		}
		return s
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-(n%8); i += 8 {
			for j := 0; j < 8; j++ {
				r[j] += a[i+j]
			}
		}
		s := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += a[i]
		}
		return s
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return pairwiseSum(a[:n2]) + pairwiseSum(a[n2:])
	}
}

// Ranking is the nDCG evaluation of an estimator on a labelled test set.
type Ranking struct {
	// Global is the nDCG of all pairs ranked together.
	Global float64 `json:"global_ndcg"`
	// Local is the mean over problems of the nDCG of each problem's solutions.
	Local float64 `json:"local_ndcg"`
	// LocalMixed is Local over the problems with both correct and incorrect
	// solutions.
	LocalMixed float64 `json:"local_ndcg_mixed"`
	// Problems and Mixed count the problems in Local and LocalMixed; Pairs
	// counts all pairs.
	Problems int `json:"problems"`
	Mixed    int `json:"mixed"`
	Pairs    int `json:"pairs"`
}

// Rank computes global and local nDCG (k ≤ 0: no cut-off) from per-problem
// relevance and scores. Problems with fewer than two solutions are left out
// of the local means (scikit-learn cannot score them).
func Rank(relevance, scores [][]float64, k int) (Ranking, error) {
	if len(relevance) != len(scores) {
		return Ranking{}, fmt.Errorf("rank: %d problems of labels but %d of scores", len(relevance), len(scores))
	}
	var r Ranking
	var allRel, allScore []float64
	var sum, sumMixed float64
	for i := range relevance {
		if len(relevance[i]) != len(scores[i]) {
			return Ranking{}, fmt.Errorf("rank: problem %d has %d labels but %d scores", i, len(relevance[i]), len(scores[i]))
		}
		allRel = append(allRel, relevance[i]...)
		allScore = append(allScore, scores[i]...)
		if len(relevance[i]) < 2 {
			continue
		}
		v, err := NDCG(relevance[i], scores[i], k)
		if err != nil {
			return Ranking{}, fmt.Errorf("rank: problem %d: %w", i, err)
		}
		r.Problems++
		sum += v
		if mixed(relevance[i]) {
			r.Mixed++
			sumMixed += v
		}
	}
	r.Pairs = len(allRel)
	g, err := NDCG(allRel, allScore, k)
	if err != nil {
		return Ranking{}, fmt.Errorf("rank: global: %w", err)
	}
	r.Global = g
	if r.Problems > 0 {
		r.Local = sum / float64(r.Problems)
	}
	if r.Mixed > 0 {
		r.LocalMixed = sumMixed / float64(r.Mixed)
	}
	return r, nil
}

// mixed reports whether relevance has both a zero and a non-zero value.
func mixed(rel []float64) bool {
	var pos, zero bool
	for _, v := range rel {
		pos = pos || v > 0
		zero = zero || v == 0
	}
	return pos && zero
}

// ConstantScores returns all-zero scores shaped like relevance: the constant
// estimator whose nDCG is the floor any estimator must beat.
func ConstantScores(relevance [][]float64) [][]float64 {
	out := make([][]float64, len(relevance))
	for i, r := range relevance {
		out[i] = make([]float64, len(r))
	}
	return out
}
