package estimate

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/qe"
)

func TestTLSLexical(t *testing.T) {
	lex := qe.FitLexical(nil, []string{"a b", "a c", "d"}, qe.DefaultLexicalOptions())
	got, err := (&TLS{Lexical: lex}).Score(context.Background(), qe.Problem{}, []string{"a b", "a b", "d e"})
	if err != nil {
		t.Fatal(err)
	}
	// The two equal programs have F1 1 with each other and 0 with "d e".
	if d := cmp.Diff([]float64{0.5, 0.5, 0}, got, cmpFloat); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}
