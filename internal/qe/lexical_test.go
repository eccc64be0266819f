package qe

import (
	"context"
	"testing"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// otherEmbedder is an embedder that is not lexical.
type otherEmbedder struct{}

func (otherEmbedder) Name() string { return "other" }
func (otherEmbedder) Embed(context.Context, Field, []string) ([]Vector, error) {
	return nil, nil
}

func TestForSyntax(t *testing.T) {
	ctx := context.Background()
	l := FitLexical(nil, nil, DefaultLexicalOptions())
	// An apostrophe in a Java comment starts a Python string that swallows
	// the code after it: read as Python, "return total" is lost.
	src := "int f() { /* it's half */ return total; }"
	want := "return total"
	sim := func(emb Embedder) float64 {
		t.Helper()
		vs, err := emb.Embed(ctx, SolutionField, []string{src, want})
		if err != nil {
			t.Fatal(err)
		}
		return Cosine(vs[0], vs[1])
	}
	java := ForSyntax(l, srcscan.Java)
	if java.Name() == l.Name() {
		t.Errorf("ForSyntax(java) kept the name %q: its vectors differ, so caches would mix them", l.Name())
	}
	if asPython, asJava := sim(l), sim(java); asJava <= asPython {
		t.Errorf("similarity to %q: read as Java %.3f, as Python %.3f; want Java higher", want, asJava, asPython)
	}
	if got := ForSyntax(l, srcscan.Python); got != Embedder(l) {
		t.Errorf("ForSyntax(python) of a Python lexical embedder returned a copy")
	}
	if got := ForSyntax(java, srcscan.Java); got != java {
		t.Errorf("ForSyntax(java) of a Java lexical embedder returned a copy")
	}
	var o Embedder = otherEmbedder{}
	if got := ForSyntax(o, srcscan.Java); got != o {
		t.Errorf("ForSyntax changed an embedder that is not lexical")
	}
}
