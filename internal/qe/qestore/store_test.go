package qestore

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/qetest"
	"github.com/ticoder/ticoder/internal/store"
)

func openTestStore(t *testing.T) *Store {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "qe.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := OpenStore(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStorePoolRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	p := qetest.TinyExamples()
	p.Tasks[0].Reference = "def add(a, b): return b + a"
	if err := s.SaveExamples(ctx, p, "test"); err != nil {
		t.Fatal(err)
	}
	// Saving again replaces, not duplicates.
	if err := s.SaveExamples(ctx, p, "test"); err != nil {
		t.Fatal(err)
	}
	got, err := s.LoadExamples(ctx, p.Name)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(p, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	infos, err := s.ExampleSets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 1 || infos[0].Pairs != p.Size() || infos[0].Positives != p.Positives() || infos[0].Problems != 3 {
		t.Errorf("pools = %+v, want one pool of 3 problems, %d pairs, %d positives", infos, p.Size(), p.Positives())
	}
	if _, err := s.LoadExamples(ctx, "nope"); err == nil {
		t.Error("loading a missing pool succeeded")
	}
}

// countingEmbedder counts the texts it is asked to embed.
type countingEmbedder struct {
	qe.Embedder
	n atomic.Int64
}

func (c *countingEmbedder) Embed(ctx context.Context, f qe.Field, texts []string) ([]qe.Vector, error) {
	c.n.Add(int64(len(texts)))
	return c.Embedder.Embed(ctx, f, texts)
}

func TestCachedEmbedder(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	inner := &countingEmbedder{Embedder: qe.FitLexical([]string{"a b"}, []string{"x = 1"}, qe.DefaultLexicalOptions())}
	emb := s.CachedEmbedder(inner)
	texts := []string{"def f(): return 1", "def g(): return 2"}
	first, err := emb.Embed(ctx, qe.SolutionField, texts)
	if err != nil {
		t.Fatal(err)
	}
	second, err := emb.Embed(ctx, qe.SolutionField, append(texts, "new text"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(first, second[:2]); d != "" {
		t.Errorf("cached vectors differ (-first +second)\n%s", d)
	}
	if got := inner.n.Load(); got != 3 {
		t.Errorf("inner embedder saw %d texts, want 3 (2, then only the new one)", got)
	}
	// Another field is another key.
	if _, err := emb.Embed(ctx, qe.ProblemField, texts[:1]); err != nil {
		t.Fatal(err)
	}
	if got := inner.n.Load(); got != 4 {
		t.Errorf("inner embedder saw %d texts, want 4", got)
	}
}

func TestAPIEmbedderAgainstFakeServer(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{Respond: func(c llmtest.Call) llmtest.Reply {
		vs := make([][]float32, len(c.Input))
		for i := range vs {
			vs[i] = []float32{3, 4}
		}
		return llmtest.Reply{Embeddings: vs}
	}})
	p, err := llm.Open(llm.Spec{Kind: llm.KindVLLM, Model: "emb", BaseURL: srv.URL}, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	emb := &qe.APIEmbedder{Client: p, Model: "emb"}
	got, err := emb.Embed(context.Background(), qe.SolutionField, []string{"x", "  ", "y"})
	if err != nil {
		t.Fatal(err)
	}
	want := []qe.Vector{{Dense: []float32{0.6, 0.8}}, {}, {Dense: []float32{0.6, 0.8}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	if calls := srv.Calls(); len(calls) != 1 || len(calls[0].Input) != 2 {
		t.Errorf("calls = %d, want one with the two non-blank texts", len(calls))
	}
}
