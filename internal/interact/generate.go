package interact

import (
	"context"
	"errors"
	"fmt"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/generate"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/progress"
)

// DefaultSamples is how many code and how many test samples a session asks
// the model for when Options say none.
const DefaultSamples = 20

// ModelGenerator is the Generator that asks an LLM for candidate programs
// and tests and extracts them, by generate.Problem. It is safe for
// concurrent use if its Provider and Caller are.
type ModelGenerator struct {
	// Provider is the model.
	Provider llm.Provider
	// Caller runs extraction in the sandbox (an *execute.Pool).
	Caller extract.Caller
	// Temperature and TopP are the sampling parameters (0: the defaults,
	// generate.DefaultTemperature and generate.DefaultTopP, the TiCoder
	// paper's).
	Temperature, TopP float64
}

// Generate asks for codes programs and tests test completions of p (the
// model sees only its visible part; 0 asks for DefaultSamples) and extracts
// them.
func (g *ModelGenerator) Generate(ctx context.Context, p dataset.Problem, codes, tests int, rep progress.Reporter) ([]extract.Candidate, []extract.Test, error) {
	rep = progress.OrNop(rep)
	o := generate.Options{Codes: codes, Tests: tests}
	if o.Codes <= 0 {
		o.Codes = DefaultSamples
	}
	if o.Tests <= 0 {
		o.Tests = DefaultSamples
	}
	o.Temperature, o.TopP = g.sampling()
	if m, ok := llm.ParseMethod(p.EntryPoint); ok {
		o.TestEntry = m.Alias
	}
	rep.Start("ask the model", 2)
	defer rep.Finish()
	if l, te, ok := extractorOf(p.Language); ok {
		params := llm.Params{Temperature: o.Temperature, TopP: o.TopP}
		return g.generateIn(ctx, l, te, p, params, o.Codes, o.Tests, rep)
	}
	r, err := generate.Problem(ctx, g.Provider, g.Caller, p, o, rep)
	var ge *generate.Error
	if errors.As(err, &ge) {
		switch ge.Step {
		case generate.StepModel:
			return nil, nil, modelError(g.Provider, ge.Err)
		case generate.StepExtractCodes:
			return nil, nil, fmt.Errorf("extract the model's programs: %w", ge.Err)
		case generate.StepExtractTests:
			return nil, nil, fmt.Errorf("extract the model's tests: %w", ge.Err)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	if len(r.Tests) == 0 {
		return nil, nil, fmt.Errorf("%w: the model wrote none for %s", ErrNoTests, p.EntryPoint)
	}
	return r.Candidates, r.Tests, nil
}

// sampling returns the sampling parameters, the paper's defaults
// (generate.DefaultTemperature and generate.DefaultTopP) where g sets none.
func (g *ModelGenerator) sampling() (temperature, topP float64) {
	temperature, topP = g.Temperature, g.TopP
	if temperature == 0 {
		temperature = generate.DefaultTemperature
	}
	if topP == 0 {
		topP = generate.DefaultTopP
	}
	return temperature, topP
}

// modelError says which model failed; the llm error says what to do.
func modelError(p llm.Provider, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("%w: %s: %w", ErrModelFailed, p.Endpoint(), err)
}
