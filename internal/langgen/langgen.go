package langgen

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/llm"
)

// Result is what one problem's generation produced.
type Result struct {
	// Candidates are the distinct programs with their multiplicities.
	Candidates []extract.Candidate
	// Tests are the distinct tests.
	Tests []extract.Test
	// Raw are the raw code samples as complete programs, in order.
	Raw []string
}

// Generate asks prov for codes programs and tests test replies of p. A
// provider that has recorded no tests (llm.ErrNoSamples, a replay of codes
// only) gives no tests rather than an error; tests == 0 asks for none.
func Generate(ctx context.Context, prov llm.Provider, l lang.Language, te lang.TestExtractor, p dataset.Problem, params llm.Params, codes, tests int) (Result, error) {
	out, err := Codes(ctx, prov, l, p, nil, params, codes)
	if err != nil {
		return Result{}, err
	}
	task := llm.TaskFrom(p)
	if tests <= 0 {
		return out, nil
	}
	params.N = tests
	gen, err := prov.Generate(ctx, llm.Request{Purpose: llm.PurposeTests, Task: task, Params: params})
	if errors.Is(err, llm.ErrNoSamples) {
		return out, nil
	}
	if err != nil {
		return Result{}, fmt.Errorf("tests: %w", err)
	}
	seen := map[string]int{}
	for i, text := range gen.Texts() {
		if gen.Continues != "" {
			// A completion continues `assertEquals(`.
			text = "assertEquals(" + text
		}
		for _, t := range te.ExtractTests(p.Prompt, p.EntryPoint, text) {
			key := t.Input + "\x00" + t.Expected
			if k, ok := seen[key]; ok {
				out.Tests[k].Count++
				continue
			}
			seen[key] = len(out.Tests)
			out.Tests = append(out.Tests, extract.Test{Test: t, Count: 1, First: i})
		}
	}
	return out, nil
}

// Codes asks prov for codes programs of p, as Generate does, with a code
// prompt that shows mustPass, tests the code must pass (llm.Task.Tests;
// the user's approved tests), if any. Result.Tests is empty.
func Codes(ctx context.Context, prov llm.Provider, l lang.Language, p dataset.Problem, mustPass []string, params llm.Params, codes int) (Result, error) {
	task := llm.TaskFrom(p)
	task.Tests = mustPass
	params.N = codes
	gen, err := prov.Generate(ctx, llm.Request{Purpose: llm.PurposeCode, Task: task, Params: params})
	if err != nil {
		return Result{}, err
	}
	var out Result
	index := map[string]int{}
	for i, text := range gen.Texts() {
		var prog string
		if gen.Continues != "" {
			prog = l.Program(gen.Continues, text)
		} else {
			prog = l.Program(p.Prompt, l.Extract(text))
		}
		out.Raw = append(out.Raw, prog)
		if strings.TrimSpace(prog) == "" {
			continue
		}
		key := strings.Join(strings.Fields(prog), " ")
		if k, ok := index[key]; ok {
			out.Candidates[k].Count++
			continue
		}
		index[key] = len(out.Candidates)
		out.Candidates = append(out.Candidates, extract.Candidate{Program: prog, Count: 1, First: i})
	}
	return out, nil
}
