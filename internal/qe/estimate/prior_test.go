package estimate

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/qe"
)

func TestParsePrior(t *testing.T) {
	for _, c := range []struct {
		in      string
		name    string
		ok, err bool
	}{
		{"qe:agree", "agree", true, false},
		{" qe:knn", "knn", true, false},
		{"codet", "", false, false},
		{"qe:magic", "", true, true},
	} {
		name, ok, err := ParsePrior(c.in)
		if name != c.name || ok != c.ok || (err != nil) != c.err {
			t.Errorf("ParsePrior(%q) = %q, %v, %v", c.in, name, ok, err)
		}
	}
}

func TestPriorUsesTheProblem(t *testing.T) {
	p := dataset.Problem{ID: "HumanEval/1", Dataset: "humaneval", Prompt: "def f(x):\n", EntryPoint: "f"}
	progs := []string{"def f(x):\n    return x", "def f(x):\n    return x", "def f(x):\n    return 1"}
	got, err := Prior(context.Background(), &ELS{Embedder: qe.FitLexical(nil, progs, qe.DefaultLexicalOptions())}, p, progs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != got[1] || !(got[0] > got[2]) {
		t.Errorf("prior %v: want the two identical programs equal and above the odd one", got)
	}
	if got, err := Prior(context.Background(), Constant{}, p, nil); err != nil || got != nil {
		t.Errorf("no programs: %v, %v", got, err)
	}
	if d := cmp.Diff(qe.Problem{Dataset: "humaneval", TaskID: "HumanEval/1", Prompt: "def f(x):\n", EntryPoint: "f"}, qe.FromDataset(p)); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}
