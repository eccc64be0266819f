package estimate

import (
	"context"
	"fmt"
	"math"

	"github.com/ticoder/ticoder/internal/qe"
)

// Estimator scores candidate programs for one problem: one score per
// candidate, higher meaning more likely functionally correct. Scores are
// comparable across problems (global nDCG ranks them together) but need not
// be probabilities. Implementations are safe for concurrent use.
type Estimator interface {
	// Name identifies the estimator and its settings, e.g. "knn(k=4,α=0.5)".
	Name() string
	// Score estimates the correctness of each candidate for problem p.
	Score(ctx context.Context, p qe.Problem, candidates []string) ([]float64, error)
}

// embedQuery embeds a problem and its candidates, read in the problem's
// language.
func embedQuery(ctx context.Context, emb qe.Embedder, p qe.Problem, candidates []string) ([]Query, error) {
	emb = qe.ForSyntax(emb, p.Syntax())
	pv, err := emb.Embed(ctx, qe.ProblemField, []string{p.Prompt})
	if err != nil {
		return nil, fmt.Errorf("embed problem %s: %w", p.TaskID, err)
	}
	sv, err := emb.Embed(ctx, qe.SolutionField, candidates)
	if err != nil {
		return nil, fmt.Errorf("embed candidates of %s: %w", p.TaskID, err)
	}
	qs := make([]Query, len(candidates))
	for i := range candidates {
		qs[i] = Query{Key: p.Key(), Problem: pv[0], Solution: sv[i]}
	}
	return qs, nil
}

// KNN is the no-LLM estimator: it retrieves the k most similar correct and
// k most similar incorrect labelled pairs (as the icl judge would see them)
// and scores the similarity-weighted share of correct ones,
//
//	score = Σ_correct w(σ) / Σ_all w(σ),  w(σ) = exp(σ/τ)
//
// (τ = Temperature; τ = 0 means w(σ) = max(σ, 0)). With Unbalanced set it
// instead takes the 2k most similar pairs regardless of label, so the share
// also reflects how often similar pairs are correct. Cost: one embedding per
// candidate and one similarity per example set pair; no LLM.
type KNN struct {
	Index       *Index
	Alpha       Alpha
	K           int
	Temperature float64
	Unbalanced  bool
}

// Name describes the settings.
func (e *KNN) Name() string {
	kind := "knn"
	if e.Unbalanced {
		kind = "knn-unbalanced"
	}
	return fmt.Sprintf("%s(k=%d,α=%g,τ=%g)", kind, e.K, float64(e.Alpha), e.Temperature)
}

// Score implements Estimator.
func (e *KNN) Score(ctx context.Context, p qe.Problem, candidates []string) ([]float64, error) {
	qs, err := embedQuery(ctx, e.Index.emb, p, candidates)
	if err != nil {
		return nil, fmt.Errorf("knn: %w", err)
	}
	out := make([]float64, len(qs))
	for i, q := range qs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = e.vote(q, e.K)
	}
	return out, nil
}

// vote returns the weighted share of correct neighbours among k+k.
func (e *KNN) vote(q Query, k int) float64 {
	if e.Unbalanced {
		pos, neg := e.Index.Neighbours(q, e.Alpha, 2*k)
		pos, neg = mergeTop(pos, neg, 2*k)
		return Vote(pos, neg, e.Temperature)
	}
	pos, neg := e.Index.Neighbours(q, e.Alpha, k)
	return Vote(pos, neg, e.Temperature)
}

// Vote is the similarity-weighted share of correct neighbours (0.5 when
// there are none or all weights are 0).
func Vote(pos, neg []Neighbour, temperature float64) float64 {
	w := func(s float64) float64 {
		if temperature > 0 {
			return math.Exp(s / temperature)
		}
		return math.Max(s, 0)
	}
	var wp, wn float64
	for _, n := range pos {
		wp += w(n.Similarity)
	}
	for _, n := range neg {
		wn += w(n.Similarity)
	}
	if wp+wn == 0 {
		return 0.5
	}
	return wp / (wp + wn)
}

// mergeTop returns the n best of two sorted lists, split back by label.
func mergeTop(pos, neg []Neighbour, n int) (p, q []Neighbour) {
	i, j := 0, 0
	for i+j < n && (i < len(pos) || j < len(neg)) {
		if j >= len(neg) || i < len(pos) && before(pos[i], neg[j]) {
			i++
		} else {
			j++
		}
	}
	return pos[:i], neg[:j]
}

// ELS is the embedding-level-similarity baseline: a candidate's score is its
// mean cosine similarity to the other candidates of the same problem (the
// paper uses CodeBERT's [CLS] vector; here any Embedder). A lone candidate
// scores 0. Cost: one embedding per candidate and n² similarities; no example set,
// no LLM.
type ELS struct {
	Embedder qe.Embedder
}

// Name implements Estimator.
func (e *ELS) Name() string { return "els" }

// Score implements Estimator.
func (e *ELS) Score(ctx context.Context, p qe.Problem, candidates []string) ([]float64, error) {
	vs, err := qe.ForSyntax(e.Embedder, p.Syntax()).Embed(ctx, qe.SolutionField, candidates)
	if err != nil {
		return nil, fmt.Errorf("els: embed candidates: %w", err)
	}
	return meanPairwise(len(vs), func(i, j int) float64 { return qe.Cosine(vs[i], vs[j]) }), nil
}

// meanPairwise returns, for each i, the mean of sim(i, j) over j ≠ i.
func meanPairwise(n int, sim func(i, j int) float64) []float64 {
	out := make([]float64, n)
	if n < 2 {
		return out
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			s := sim(i, j)
			out[i] += s
			out[j] += s
		}
	}
	for i := range out {
		out[i] /= float64(n - 1)
	}
	return out
}

// Constant scores every candidate 0: the floor an estimator must beat.
type Constant struct{}

// Name implements Estimator.
func (Constant) Name() string { return "constant" }

// Score implements Estimator.
func (Constant) Score(_ context.Context, _ qe.Problem, candidates []string) ([]float64, error) {
	return make([]float64, len(candidates)), nil
}
