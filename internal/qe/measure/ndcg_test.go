package measure

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
)

type ndcgGolden struct {
	Sklearn string `json:"sklearn"`
	Cases   []struct {
		Name      string    `json:"name"`
		Relevance []float64 `json:"relevance"`
		Scores    []float64 `json:"scores"`
		K         int       `json:"k"`
		NDCG      float64   `json:"ndcg"`
	} `json:"cases"`
	Rank struct {
		Relevance  [][]float64 `json:"relevance"`
		Scores     [][]float64 `json:"scores"`
		Global     float64     `json:"global"`
		Local      float64     `json:"local"`
		LocalMixed float64     `json:"local_mixed"`
		Mixed      int         `json:"mixed"`
	} `json:"rank"`
}

func loadNDCGGolden(t *testing.T) ndcgGolden {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "ndcg_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g ndcgGolden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) == 0 {
		t.Fatal("no golden cases")
	}
	return g
}

// closeTo allows a few units in the last place: BLAS and numpy may add in
// another order than Go.
func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// TestNDCGMatchesSklearn compares with values computed by scikit-learn's
// ndcg_score (testdata/gen_ndcg_golden.py).
func TestNDCGMatchesSklearn(t *testing.T) {
	g := loadNDCGGolden(t)
	for _, c := range g.Cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := NDCG(c.Relevance, c.Scores, c.K)
			if err != nil {
				t.Fatal(err)
			}
			if !closeTo(got, c.NDCG) {
				t.Errorf("NDCG = %.17g, sklearn %s gives %.17g", got, g.Sklearn, c.NDCG)
			}
		})
	}
}

func TestRankMatchesSklearn(t *testing.T) {
	g := loadNDCGGolden(t).Rank
	r, err := Rank(g.Relevance, g.Scores, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"global", r.Global, g.Global},
		{"local", r.Local, g.Local},
		{"local mixed", r.LocalMixed, g.LocalMixed},
	} {
		if !closeTo(c.got, c.want) {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
	if r.Mixed != g.Mixed || r.Problems != len(g.Relevance) {
		t.Errorf("counted %d problems, %d mixed; want %d, %d", r.Problems, r.Mixed, len(g.Relevance), g.Mixed)
	}
}

func TestNDCGTiesAreOrderFree(t *testing.T) {
	rel := []float64{1, 0, 0, 1, 1, 0}
	a, err := NDCG(rel, []float64{2, 1, 1, 1, 1, 0}, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Permuting documents inside the tie group must not change the value.
	b, err := NDCG([]float64{1, 1, 1, 0, 0, 0}, []float64{2, 1, 1, 1, 1, 0}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("permuted ties changed nDCG: %v vs %v", a, b)
	}
}

func TestNDCGErrors(t *testing.T) {
	for _, c := range []struct {
		name     string
		rel, sc  []float64
		sentinel error
	}{
		{"one document", []float64{1}, []float64{1}, ErrTooFewDocuments},
		{"length mismatch", []float64{1, 0}, []float64{1}, nil},
		{"NaN score", []float64{1, 0}, []float64{math.NaN(), 1}, nil},
		{"negative relevance", []float64{-1, 0}, []float64{1, 0}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NDCG(c.rel, c.sc, 0)
			if err == nil {
				t.Fatal("no error")
			}
			if c.sentinel != nil && !errors.Is(err, c.sentinel) {
				t.Errorf("error %v is not %v", err, c.sentinel)
			}
		})
	}
}
