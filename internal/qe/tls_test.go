package qe

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/testutil"
)

func TestTLSLexical(t *testing.T) {
	lex := FitLexical(nil, []string{"a b", "a c", "d"}, DefaultLexicalOptions())
	got, err := (&TLS{Lexical: lex}).Score(context.Background(), Problem{}, []string{"a b", "a b", "d e"})
	if err != nil {
		t.Fatal(err)
	}
	// The two equal programs have F1 1 with each other and 0 with "d e".
	if d := cmp.Diff([]float64{0.5, 0.5, 0}, got, cmpFloat); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}

// TestScoresAreDeterministic guards against map-order float sums: equal
// inputs must give bit-identical scores, or tied scores reorder between runs.
func TestScoresAreDeterministic(t *testing.T) {
	// The CQE files have no stated licence, so no fixture holds their rows.
	test, err := LoadCQE(filepath.Join(testutil.FullData(t, "cqe/heval-codestral-22b.jsonl"), "cqe", "heval-codestral-22b.jsonl"), CQEOptions{MaxSolutions: 10})
	if err != nil {
		t.Fatal(err)
	}
	var sols []string
	for _, tk := range test.Tasks[:20] {
		sols = append(sols, tk.Codes()...)
	}
	opts := DefaultLexicalOptions()
	opts.Weighting = BM25
	for _, est := range []Estimator{&TLS{Lexical: FitLexical(nil, sols, opts)}, &ELS{Embedder: FitLexical(nil, sols, opts)}} {
		var first [][]float64
		for run := 0; run < 5; run++ {
			// A fresh model each run: nothing may depend on map order.
			lex := FitLexical(nil, sols, opts)
			switch e := est.(type) {
			case *TLS:
				e.Lexical = lex
			case *ELS:
				e.Embedder = lex
			}
			ev, err := Evaluate(context.Background(), est, &ExampleSet{Tasks: test.Tasks[:20]}, EvalOptions{})
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
