package estimate

import (
	"context"
	"fmt"
	"strings"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/qe"
)

// PriorPrefix marks a code-ranking strategy that orders candidates by a
// quality estimate: "qe:agree", "qe:knn", ... (ticoder eval --rank-codes).
const PriorPrefix = "qe:"

// ParsePrior returns the estimator named by a ranking strategy such as
// "qe:agree", and whether the strategy is a quality-estimation prior at all.
func ParsePrior(strategy string) (estimator string, ok bool, err error) {
	name, ok := strings.CutPrefix(strings.TrimSpace(strategy), PriorPrefix)
	if !ok {
		return "", false, nil
	}
	for _, e := range Estimators() {
		if e == name {
			return name, true, nil
		}
	}
	return "", true, fmt.Errorf("ranking strategy %q: unknown estimator %q (known: %s)", strategy, name, strings.Join(Estimators(), ", "))
}

// Prior scores the candidate programs of a benchmark problem with est, for
// use as rank.OutcomesInput.Prior (higher is better; it orders the candidates
// before any question and breaks ties later). Programs are complete
// (context, signature, body), as extract.Candidate.Program.
func Prior(ctx context.Context, est Estimator, p dataset.Problem, programs []string) ([]float64, error) {
	if len(programs) == 0 {
		return nil, nil
	}
	s, err := est.Score(ctx, qe.FromDataset(p), programs)
	if err != nil {
		return nil, fmt.Errorf("quality prior for %s: %w", p.ID, err)
	}
	return s, nil
}
