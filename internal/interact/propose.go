package interact

import (
	"context"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/inputs"
	"github.com/ticoder/ticoder/internal/llm"
)

// inputProposer is a Generator that can also ask its model for inputs only
// (inputs.Propose), which join the input pool of synthesized questions.
type inputProposer interface {
	ProposeInputs(ctx context.Context, p dataset.Problem) ([]string, error)
}

// ProposeInputs asks the model for calls of p's entry point, without
// expected values (the model sees only p's visible part).
func (g *ModelGenerator) ProposeInputs(ctx context.Context, p dataset.Problem) ([]string, error) {
	return inputs.Propose(ctx, g.Provider, llm.TaskFrom(p))
}
