package estimate

import (
	"context"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/qe"
)

func TestParseAlpha(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Alpha
		err  bool
	}{
		{"p", FSP, false},
		{"FS-PS", FSPS, false},
		{" s ", FSS, false},
		{"0.25", 0.25, false},
		{"1", 1, false},
		{"0", 0, false},
		{"1.5", 0, true},
		{"-0.1", 0, true},
		{"NaN", 0, true},
		{"nan", 0, true},
		{"inf", 0, true},
		{"0.5x", 0, true},
		{"", 0, true},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseAlpha(c.in)
			if (err != nil) != c.err || got != c.want {
				t.Errorf("ParseAlpha(%q) = %v, %v; want %v, error %v", c.in, got, err, c.want, c.err)
			}
		})
	}
}

// shortEstimator returns one score too few.
type shortEstimator struct{}

func (shortEstimator) Name() string { return "short" }

func (shortEstimator) Score(_ context.Context, _ qe.Problem, c []string) ([]float64, error) {
	return make([]float64, len(c)-1), nil
}

func TestSumRejectsMisshapenPart(t *testing.T) {
	sum := &Sum{Parts: []Estimator{Constant{}, shortEstimator{}}, Weights: []float64{1, 1}}
	got, err := sum.Score(context.Background(), qe.Problem{}, []string{"a", "b", "c"})
	if err == nil || !strings.Contains(err.Error(), "short returned 2 scores for 3 candidates") {
		t.Errorf("Score = %v, %v; want an error naming the part", got, err)
	}
	got, err = (&Sum{Parts: []Estimator{Constant{}}, Weights: []float64{2}}).Score(context.Background(), qe.Problem{}, []string{"a", "b"})
	if err != nil || len(got) != 2 {
		t.Errorf("Score = %v, %v; want 2 scores", got, err)
	}
}
