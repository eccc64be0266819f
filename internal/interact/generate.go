package interact

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/progress"
)

// ModelGenerator is the Generator that asks an LLM for candidate programs
// and tests and extracts them with package extract. It is safe for
// concurrent use if its Provider and Caller are.
type ModelGenerator struct {
	// Provider is the model.
	Provider llm.Provider
	// Caller runs extraction in the sandbox (an *execute.Pool).
	Caller extract.Caller
	// Temperature and TopP are the sampling parameters (default 0.8 and 0.95,
	// the TiCoder paper's).
	Temperature, TopP float64
}

// Generate asks for codes programs and tests test completions of p (the
// model sees only its visible part) and extracts them.
func (g *ModelGenerator) Generate(ctx context.Context, p dataset.Problem, codes, tests int, rep progress.Reporter) ([]extract.Candidate, []extract.Test, error) {
	rep = progress.OrNop(rep)
	if codes <= 0 {
		codes = 20
	}
	if tests <= 0 {
		tests = 20
	}
	params := llm.Params{Temperature: g.Temperature, TopP: g.TopP}
	if params.Temperature == 0 {
		params.Temperature = 0.8
	}
	if params.TopP == 0 {
		params.TopP = 0.95
	}
	task := llm.TaskFrom(p)
	rep.Start("ask the model", 2)
	defer rep.Finish()
	if l, te, ok := extractorOf(p.Language); ok {
		return g.generateIn(ctx, l, te, p, params, codes, tests, rep)
	}

	params.N = codes
	gen, err := g.Provider.Generate(ctx, llm.Request{Purpose: llm.PurposeCode, Task: task, Params: params})
	if err != nil {
		return nil, nil, modelError(g.Provider, err)
	}
	rep.Add(1)
	cp, style := p, extract.StyleAuto
	if gen.Continues != "" {
		if !strings.HasSuffix(gen.Continues, p.Prompt) {
			cp.Prompt = gen.Continues
		}
		style = extract.StyleBody
	}
	cands, _, err := extract.Codes(ctx, g.Caller, cp, gen.Texts(), style)
	if err != nil {
		return nil, nil, fmt.Errorf("extract the model's programs: %w", err)
	}

	params.N = tests
	gen, err = g.Provider.Generate(ctx, llm.Request{Purpose: llm.PurposeTests, Task: task, Params: params})
	if err != nil {
		return nil, nil, modelError(g.Provider, err)
	}
	rep.Add(1)
	var topts extract.TestOptions
	if gen.Continues != "" {
		last := gen.Continues[strings.LastIndex(gen.Continues, "\n")+1:]
		if strings.TrimSpace(last) != "" {
			topts.Prefix = last
		}
	}
	topts.Cut = make([]bool, len(gen.Choices))
	for i, c := range gen.Choices {
		topts.Cut[i] = c.FinishReason == "length" || c.FinishReason == "" && gen.Continues != "" && !strings.HasSuffix(c.Text, "\n")
	}
	ts, _, err := extract.Tests(ctx, g.Caller, p, gen.Texts(), topts)
	if err != nil {
		return nil, nil, fmt.Errorf("extract the model's tests: %w", err)
	}
	if len(ts) == 0 {
		return nil, nil, fmt.Errorf("%w: the model wrote none for %s", ErrNoTests, p.EntryPoint)
	}
	return cands, ts, nil
}

// modelError says which model failed; the llm error says what to do.
func modelError(p llm.Provider, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("%w: %s: %w", ErrModelFailed, p.Endpoint(), err)
}
