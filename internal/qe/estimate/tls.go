package estimate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ticoder/ticoder/internal/qe"
)

// TLS is the token-level-similarity baseline (after CodeBERTScore): a
// candidate's score is its mean BERTScore-style F1 against the other
// candidates of the same problem, where
//
//	P(x, y) = Σ_{t∈x} w(t)·max_{u∈y} sim(t, u) / Σ_{t∈x} w(t),  R(x, y) = P(y, x),
//	F1 = 2PR/(P+R).
//
// With a Lexical model the "token vectors" are one-hot (sim = 1 for equal
// tokens, else 0) and w is the token's idf in the solution field, so P is
// the idf-weighted share of x's tokens that occur in y. With any other
// Embedder (an embeddings API has no per-token output) the units are the
// non-blank lines of the code, each embedded, with w = 1. Cost: n² token
// alignments per problem (and, for an API embedder, one embedding per line).
type TLS struct {
	// Lexical, if set, selects token overlap.
	Lexical *qe.Lexical
	// Embedder is used for line vectors when Lexical is nil.
	Embedder qe.Embedder
}

// Name implements Estimator.
func (e *TLS) Name() string { return "tls" }

// Score implements Estimator.
func (e *TLS) Score(ctx context.Context, p qe.Problem, candidates []string) ([]float64, error) {
	if e.Lexical != nil {
		opts := e.Lexical.Options().Tokenizer
		opts.Syntax = p.Syntax()
		return e.lexical(candidates, opts), nil
	}
	if e.Embedder == nil {
		return nil, fmt.Errorf("tls: no lexical model and no embedder configured")
	}
	return e.lines(ctx, candidates)
}

// lexical computes idf-weighted exact-match BERTScore F1 over the tokens
// opts makes.
func (e *TLS) lexical(candidates []string, opts qe.TokenizerOptions) []float64 {
	// A bag is a token's idf times its occurrences, as a sparse vector with
	// sorted keys, so sums run in a fixed order.
	bags := make([]qe.Vector, len(candidates))
	totals := make([]float64, len(candidates))
	for i, c := range candidates {
		w := map[uint64]float64{}
		for _, t := range qe.Tokenize(c, opts) {
			k := qe.TokenKey(t)
			w[k] += e.Lexical.IDF(qe.SolutionField, k)
		}
		b := qe.Vector{Keys: make([]uint64, 0, len(w))}
		for k := range w {
			b.Keys = append(b.Keys, k)
		}
		slices.Sort(b.Keys)
		b.Vals = make([]float32, len(b.Keys))
		for j, k := range b.Keys {
			b.Vals[j] = float32(w[k])
			totals[i] += float64(b.Vals[j])
		}
		bags[i] = b
	}
	prec := func(x, y int) float64 {
		if totals[x] == 0 {
			return 0
		}
		var s float64
		a, b := bags[x], bags[y]
		for i, j := 0, 0; i < len(a.Keys) && j < len(b.Keys); {
			switch {
			case a.Keys[i] < b.Keys[j]:
				i++
			case a.Keys[i] > b.Keys[j]:
				j++
			default:
				s += float64(a.Vals[i])
				i++
				j++
			}
		}
		return s / totals[x]
	}
	return meanPairwise(len(bags), func(i, j int) float64 {
		return f1(prec(i, j), prec(j, i))
	})
}

// lines computes BERTScore F1 over embedded code lines.
func (e *TLS) lines(ctx context.Context, candidates []string) ([]float64, error) {
	var all []string
	spans := make([][2]int, len(candidates))
	for i, c := range candidates {
		start := len(all)
		for _, l := range strings.Split(c, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				all = append(all, l)
			}
		}
		spans[i] = [2]int{start, len(all)}
	}
	vs, err := e.Embedder.Embed(ctx, qe.SolutionField, all)
	if err != nil {
		return nil, fmt.Errorf("tls: embed lines: %w", err)
	}
	prec := func(x, y []qe.Vector) float64 {
		if len(x) == 0 || len(y) == 0 {
			return 0
		}
		var s float64
		for _, a := range x {
			best := -1.0
			for _, b := range y {
				if c := qe.Cosine(a, b); c > best {
					best = c
				}
			}
			s += best
		}
		return s / float64(len(x))
	}
	lines := func(i int) []qe.Vector { return vs[spans[i][0]:spans[i][1]] }
	return meanPairwise(len(candidates), func(i, j int) float64 {
		return f1(prec(lines(i), lines(j)), prec(lines(j), lines(i)))
	}), nil
}

func f1(p, r float64) float64 {
	if p+r <= 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}
