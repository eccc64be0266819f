package interact

import (
	"context"
	"fmt"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/langgen"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/progress"
)

// extractorOf returns the language of a problem if ticoder reads its
// model-written programs and tests itself (lang.TestExtractor), not with
// package extract's Python tools.
func extractorOf(language string) (lang.Interactive, lang.TestExtractor, bool) {
	if language == "" {
		return nil, nil, false
	}
	l, err := languageOf(language)
	if err != nil {
		return nil, nil, false
	}
	te, ok := l.(lang.TestExtractor)
	return l, te, ok
}

// generateIn is Generate for a language with its own extraction (package
// langgen).
func (g *ModelGenerator) generateIn(ctx context.Context, l lang.Language, te lang.TestExtractor, p dataset.Problem, params llm.Params, codes, tests int, rep progress.Reporter) ([]extract.Candidate, []extract.Test, error) {
	res, err := langgen.Generate(ctx, g.Provider, l, te, p, params, codes, tests)
	rep.Add(2)
	if err != nil {
		return nil, nil, modelError(g.Provider, err)
	}
	if len(res.Tests) == 0 {
		return nil, nil, fmt.Errorf("%w: the model wrote none for %s", ErrNoTests, p.EntryPoint)
	}
	return res.Candidates, res.Tests, nil
}
