package benchmark

import (
	"context"
	"errors"

	"github.com/ticoder/ticoder/internal/eval"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/estimate"
)

// ErrNeedsSetup is the cause of a PriorError whose estimator needs a
// labelled pool or an LLM judge, which a benchmark run does not set up.
var ErrNeedsSetup = errors.New("the estimator needs a labelled pool or an LLM judge")

// PriorError says which ranking strategy names an estimator that cannot be
// built, and why.
type PriorError struct {
	// Spec is the ranking strategy, e.g. "passing+qe:knn"; Estimator the
	// estimator's name in it.
	Spec, Estimator string
	// Err is ErrNeedsSetup or the estimator's own error.
	Err error
}

// Error says which strategy and why.
func (e *PriorError) Error() string { return e.Spec + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *PriorError) Unwrap() error { return e.Err }

// Priors builds the quality estimators that ranking strategies such as
// "passing+qe:agree" name, keyed by the prior's name in the strategy.
// Estimators that need only the sandbox (agree, run by runner) or the
// built-in lexical embedder (els, tls) are available; knn, combo, icl and
// zs need `ticoder qe`'s labelled pool or an LLM judge (a *PriorError with
// ErrNeedsSetup). The strategies must have passed eval.Config.Validate.
func Priors(ctx context.Context, rankers []string, runner execute.Runner) (map[string]estimate.Estimator, error) {
	out := map[string]estimate.Estimator{}
	lex := qe.FitLexical(nil, nil, qe.DefaultLexicalOptions())
	setup := &estimate.Setup{Runner: runner, Lexical: lex, Embedder: lex}
	for _, spec := range rankers {
		_, prior, _ := eval.ParseRanker(spec) // validated
		if prior == "" || out[prior] != nil {
			continue
		}
		name, _, err := estimate.ParsePrior(prior)
		if err != nil {
			return nil, err
		}
		if estimate.NeedsExamples(name) || estimate.NeedsJudge(name) {
			return nil, &PriorError{Spec: spec, Estimator: name, Err: ErrNeedsSetup}
		}
		est, err := setup.New(ctx, name, 0, estimate.FSPS)
		if err != nil {
			return nil, &PriorError{Spec: spec, Estimator: name, Err: err}
		}
		out[prior] = est
	}
	return out, nil
}
