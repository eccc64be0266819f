package inputs

import (
	"context"
	"fmt"

	"github.com/ticoder/ticoder/internal/llm"
)

// ProposeCount is how many inputs Propose asks a model for.
const ProposeCount = 10

// proposePrompt asks a model for inputs only: calls, no expected values and
// no code, so that its answer cannot leak a (possibly wrong) intent.
const proposePrompt = `Here is a Python function to be written:

%s

Write %d different calls of %s with literal arguments that a person would use to check that the function does what its description says: typical cases, edge cases and boundaries, all inside the domain the description allows. Write one call per line, as a Python expression, and nothing else: no expected values, no explanations.`

// Propose asks a model for inputs of task's entry point (Request.Proposed):
// one chat request for ProposeCount calls, at temperature 0.8. It returns the
// model's answer as text; Generate keeps the calls of the entry point with
// literal arguments found in it.
func Propose(ctx context.Context, prov llm.Provider, task llm.Task) ([]string, error) {
	stub := task.Prompt
	if stub == "" {
		stub = task.Signature + "\n    \"\"\"" + task.Description + "\"\"\""
	}
	req := llm.Request{
		Purpose:  llm.PurposeOther,
		Task:     task,
		Messages: []llm.Message{{Role: "user", Content: fmt.Sprintf(proposePrompt, stub, ProposeCount, task.EntryPoint)}},
		Params:   llm.Params{N: 1, Temperature: 0.8, MaxTokens: 600},
	}
	gen, err := prov.Generate(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("ask %s for inputs of %s: %w", prov.Endpoint(), task.EntryPoint, err)
	}
	var out []string
	for _, c := range gen.Choices {
		out = append(out, c.Text)
	}
	return out, nil
}
