package estimate

import (
	"context"
	"fmt"
	"sort"

	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/srcscan"
)

// Index is a labelled example set prepared for retrieval: the embedding of every
// task's problem and of every solution. It is read-only after NewIndex and
// safe for concurrent use.
type Index struct {
	pool    *qe.ExampleSet
	emb     qe.Embedder
	keys    []qe.ProblemKey
	probVec []qe.Vector
	solVec  [][]qe.Vector
}

// NewIndex embeds the example set's problems and solutions with emb.
func NewIndex(ctx context.Context, pool *qe.ExampleSet, emb qe.Embedder) (*Index, error) {
	ix := &Index{pool: pool, emb: emb}
	probs := make([]string, len(pool.Tasks))
	var sols []string
	for i, t := range pool.Tasks {
		probs[i] = t.Prompt
		ix.keys = append(ix.keys, t.Key())
		for _, s := range t.Solutions {
			sols = append(sols, s.Code)
		}
	}
	pv, err := embedBySyntax(ctx, emb, qe.ProblemField, probs, func(i int) srcscan.Syntax { return pool.Tasks[i].Syntax() })
	if err != nil {
		return nil, fmt.Errorf("index pool %s: embed problems: %w", pool.Name, err)
	}
	solTask := make([]int, 0, len(sols))
	for i, t := range pool.Tasks {
		for range t.Solutions {
			solTask = append(solTask, i)
		}
	}
	sv, err := embedBySyntax(ctx, emb, qe.SolutionField, sols, func(j int) srcscan.Syntax { return pool.Tasks[solTask[j]].Syntax() })
	if err != nil {
		return nil, fmt.Errorf("index pool %s: embed solutions: %w", pool.Name, err)
	}
	ix.probVec = pv
	ix.solVec = make([][]qe.Vector, len(pool.Tasks))
	n := 0
	for i, t := range pool.Tasks {
		ix.solVec[i] = sv[n : n+len(t.Solutions)]
		n += len(t.Solutions)
	}
	return ix, nil
}

// Set returns the indexed example set.
func (ix *Index) Set() *qe.ExampleSet { return ix.pool }

// Embedder returns the embedder the index was built with.
func (ix *Index) Embedder() qe.Embedder { return ix.emb }

// Neighbour is one retrieved labelled pair.
type Neighbour struct {
	// Task and Solution index the pair in the example set.
	Task, Solution int
	// Similarity is σ between the query and the pair.
	Similarity float64
	Correct    bool
}

// Query is a (problem, solution) pair to retrieve neighbours for.
type Query struct {
	// Key is the query's problem; pairs of the same problem are never
	// retrieved.
	Key qe.ProblemKey
	// Problem and Solution are the embeddings of the two texts.
	Problem, Solution qe.Vector
}

// Alpha weighs problem against solution similarity: σ = α·sim(problem) +
// (1−α)·sim(solution).
type Alpha float64

// The paper's three variants.
const (
	FSP  Alpha = 1   // problems only
	FSPS Alpha = 0.5 // both
	FSS  Alpha = 0   // solutions only
)

// Neighbours returns the k most similar correct and the k most similar
// incorrect pairs of the example set (fewer if the example set has fewer), each list in
// decreasing σ; equal σ is broken by example set order. Pairs of the query's own
// problem are skipped.
func (ix *Index) Neighbours(q Query, alpha Alpha, k int) (correct, incorrect []Neighbour) {
	if k <= 0 {
		return nil, nil
	}
	a := float64(alpha)
	pos, neg := newTopK(k), newTopK(k)
	for ti := range ix.pool.Tasks {
		if ix.keys[ti] == q.Key {
			continue
		}
		var ps float64
		if a != 0 {
			ps = a * qe.Cosine(q.Problem, ix.probVec[ti])
		}
		for si, s := range ix.pool.Tasks[ti].Solutions {
			sigma := ps
			if a != 1 {
				sigma += (1 - a) * qe.Cosine(q.Solution, ix.solVec[ti][si])
			}
			nb := Neighbour{Task: ti, Solution: si, Similarity: sigma, Correct: s.Correct}
			if s.Correct {
				pos.push(nb)
			} else {
				neg.push(nb)
			}
		}
	}
	return pos.sorted(), neg.sorted()
}

// Pair returns the labelled pair a neighbour refers to.
func (ix *Index) Pair(n Neighbour) (qe.Problem, qe.Solution) {
	t := ix.pool.Tasks[n.Task]
	return t.Problem, t.Solutions[n.Solution]
}

// before orders neighbours: higher σ first, then example set order.
func before(a, b Neighbour) bool {
	if a.Similarity != b.Similarity {
		return a.Similarity > b.Similarity
	}
	if a.Task != b.Task {
		return a.Task < b.Task
	}
	return a.Solution < b.Solution
}

// topK keeps the k best neighbours seen (a small sorted slice: k is tiny).
type topK struct {
	k     int
	items []Neighbour
}

func newTopK(k int) *topK { return &topK{k: k, items: make([]Neighbour, 0, k+1)} }

func (t *topK) push(n Neighbour) {
	if len(t.items) == t.k && !before(n, t.items[t.k-1]) {
		return
	}
	i := sort.Search(len(t.items), func(i int) bool { return before(n, t.items[i]) })
	t.items = append(t.items, Neighbour{})
	copy(t.items[i+1:], t.items[i:])
	t.items[i] = n
	if len(t.items) > t.k {
		t.items = t.items[:t.k]
	}
}

func (t *topK) sorted() []Neighbour { return t.items }

// embedBySyntax embeds texts, each read in the syntax syntaxOf gives it: one
// Embed call per syntax, so an example set in one language costs one call.
func embedBySyntax(ctx context.Context, emb qe.Embedder, field qe.Field, texts []string, syntaxOf func(int) srcscan.Syntax) ([]qe.Vector, error) {
	groups := map[srcscan.Syntax][]int{}
	var order []srcscan.Syntax
	for i := range texts {
		sx := syntaxOf(i)
		if _, ok := groups[sx]; !ok {
			order = append(order, sx)
		}
		groups[sx] = append(groups[sx], i)
	}
	out := make([]qe.Vector, len(texts))
	for _, sx := range order {
		idx := groups[sx]
		part := make([]string, len(idx))
		for j, i := range idx {
			part[j] = texts[i]
		}
		vs, err := qe.ForSyntax(emb, sx).Embed(ctx, field, part)
		if err != nil {
			return nil, err
		}
		if len(vs) != len(part) {
			return nil, fmt.Errorf("embedder %s returned %d vectors for %d texts", emb.Name(), len(vs), len(part))
		}
		for j, i := range idx {
			out[i] = vs[j]
		}
	}
	return out, nil
}
