package interact

import (
	"context"
	"fmt"
	"strings"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/lang"
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

// generateIn is Generate for a language with its own extraction: a program
// is the language's Program of the prompt (or of what the model continued)
// and the reply's code, equal programs are one candidate, and the tests
// are the value tests the language reads in the test replies.
func (g *ModelGenerator) generateIn(ctx context.Context, l lang.Language, te lang.TestExtractor, p dataset.Problem, params llm.Params, codes, tests int, rep progress.Reporter) ([]extract.Candidate, []extract.Test, error) {
	task := llm.TaskFrom(p)
	params.N = codes
	gen, err := g.Provider.Generate(ctx, llm.Request{Purpose: llm.PurposeCode, Task: task, Params: params})
	if err != nil {
		return nil, nil, modelError(g.Provider, err)
	}
	rep.Add(1)
	var cands []extract.Candidate
	index := map[string]int{}
	for i, text := range gen.Texts() {
		var prog string
		if gen.Continues != "" {
			prog = l.Program(gen.Continues, text)
		} else {
			prog = l.Program(p.Prompt, l.Extract(text))
		}
		if strings.TrimSpace(prog) == "" {
			continue
		}
		key := strings.Join(strings.Fields(prog), " ")
		if k, ok := index[key]; ok {
			cands[k].Count++
			continue
		}
		index[key] = len(cands)
		cands = append(cands, extract.Candidate{Program: prog, Count: 1, First: i})
	}
	params.N = tests
	gen, err = g.Provider.Generate(ctx, llm.Request{Purpose: llm.PurposeTests, Task: task, Params: params})
	if err != nil {
		return nil, nil, modelError(g.Provider, err)
	}
	rep.Add(1)
	var ts []extract.Test
	seen := map[string]int{}
	for i, text := range gen.Texts() {
		if gen.Continues != "" {
			// A completion continues `assertEquals(`.
			text = "assertEquals(" + text
		}
		for _, t := range te.ExtractTests(p.Prompt, p.EntryPoint, text) {
			key := t.Input + "\x00" + t.Expected
			if k, ok := seen[key]; ok {
				ts[k].Count++
				continue
			}
			seen[key] = len(ts)
			ts = append(ts, extract.Test{Test: t, Count: 1, First: i})
		}
	}
	if len(ts) == 0 {
		return nil, nil, fmt.Errorf("%w: the model wrote none for %s", ErrNoTests, p.EntryPoint)
	}
	return cands, ts, nil
}
