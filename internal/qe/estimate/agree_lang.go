package estimate

import (
	"context"
	"fmt"
	"time"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/lang/java"
	"github.com/ticoder/ticoder/internal/qe"
)

// languageOfProblem returns the language whose examples and inputs agree
// takes from internal/lang instead of its Python helpers; false for Python.
func languageOfProblem(name string) (lang.Language, bool) {
	if name == dataset.Java {
		return java.Java{}, true
	}
	return nil, false
}

// prepareWith reads the prompt's examples (and up to max harvested inputs)
// with language l.
func prepareWith(l lang.Language, prompt, entry string, max int) AgreeInputs {
	var in AgreeInputs
	if ep, ok := l.(lang.ExampleParser); ok {
		for _, e := range ep.Examples(prompt, entry) {
			in.Examples = append(in.Examples, Example{Call: e.Call, Expected: e.Expected})
		}
	}
	if h, ok := l.(lang.InputHarvester); ok && max > 0 {
		in.Inputs = h.Inputs(prompt, entry, max)
	}
	return in
}

// runWith runs the candidates of a problem in language l on its examples
// and inputs, on the runner for that language.
func (a *Agree) runWith(ctx context.Context, l lang.Language, p qe.Problem, candidates []string, in AgreeInputs, timeout time.Duration) (*execute.Matrix, error) {
	runner := a.Runner
	if l.Name() == dataset.Java {
		runner = a.JavaRunner
	}
	if runner == nil {
		return nil, fmt.Errorf("agree: %s is a %s problem and no %s runner is configured", p.TaskID, l.Name(), l.Name())
	}
	var tests []execute.Test
	for _, e := range in.Examples {
		tests = append(tests, l.ValueTest(e.Call, e.Expected))
	}
	for _, c := range in.Inputs {
		tests = append(tests, l.ValueTest(c, ""))
	}
	progs := make([]string, len(candidates))
	for i, c := range candidates {
		progs[i] = l.Program(p.Prompt, c)
	}
	m, err := runner.Run(ctx, execute.Job{Programs: progs, Tests: tests, TimePolicy: execute.Within(timeout)}, nil)
	if err != nil {
		return nil, fmt.Errorf("agree: run candidates of %s: %w", p.TaskID, err)
	}
	return m, nil
}
