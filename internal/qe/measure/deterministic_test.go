package measure

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/estimate"
	"github.com/ticoder/ticoder/internal/qe/qestore"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestScoresAreDeterministic guards against map-order float sums: equal
// inputs must give bit-identical scores, or tied scores reorder between runs.
func TestScoresAreDeterministic(t *testing.T) {
	// The CQE files have no stated licence, so no fixture holds their rows.
	test, err := qestore.LoadCQE(filepath.Join(testutil.FullData(t, "cqe/heval-codestral-22b.jsonl"), "cqe", "heval-codestral-22b.jsonl"), qestore.CQEOptions{MaxSolutions: 10})
	if err != nil {
		t.Fatal(err)
	}
	var sols []string
	for _, tk := range test.Tasks[:20] {
		sols = append(sols, tk.Codes()...)
	}
	opts := qe.DefaultLexicalOptions()
	opts.Weighting = qe.BM25
	for _, est := range []estimate.Estimator{&estimate.TLS{Lexical: qe.FitLexical(nil, sols, opts)}, &estimate.ELS{Embedder: qe.FitLexical(nil, sols, opts)}} {
		var first [][]float64
		for run := 0; run < 5; run++ {
			// A fresh model each run: nothing may depend on map order.
			lex := qe.FitLexical(nil, sols, opts)
			switch e := est.(type) {
			case *estimate.TLS:
				e.Lexical = lex
			case *estimate.ELS:
				e.Embedder = lex
			}
			ev, err := Evaluate(context.Background(), est, &qe.ExampleSet{Tasks: test.Tasks[:20]}, EvalOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if run == 0 {
				first = ev.Scores
			} else if d := cmp.Diff(first, ev.Scores); d != "" {
				t.Fatalf("%s: run %d differs (-first +now)\n%s", est.Name(), run, d)
			}
		}
	}
}
