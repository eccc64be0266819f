package eval

import (
	"context"
	"slices"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/inputs"
	"github.com/ticoder/ticoder/internal/oracle"
	"github.com/ticoder/ticoder/internal/session"
)

// MaxInputs bounds the input pool of one problem (see package inputs): the
// call matrix costs at most MaxInputs calls per candidate, each under the
// time limit of a generated test (Limits: a short first pass, at most Cap),
// besides the generated tests themselves.
const MaxInputs = inputs.DefaultMaxInputs

// synthesize turns the problem's columns after its Generated tests — the
// calls of the input pool ins, run on every candidate (Results) and on the
// reference (ref, which also covers the generated tests) — into
// synthesized questions, and appends them to Tests and Results (with
// pool.Unlike[j], generated test j and the question about its call are
// atypical; both have its pool.Traits[j], and each input its own):
//
//   - one per distinct call (with its setup) of the generated tests
//     `assert CALL == EXPECTED`, whose value each candidate's call returned
//     is already known from that test's column;
//   - one per call of the input pool.
//
// It numbers every value returned by Python's == (inputs.Classes, in the
// sandbox), so that the simulated user, the Output-mode comparisons
// (tab) and the selectors compare values as Python does, and extends the
// simulated user with the reference's results on the questions' calls.
func (p *Problem) synthesize(ctx context.Context, runner inputs.Caller, ins []inputs.Input, pool inputs.Pool, ref []execute.Result, tab *oracle.Table) error {
	ng := p.Generated
	var syn []extract.Test
	tests := make([]execute.Test, ng)
	for j, t := range p.Tests[:ng] {
		tests[j] = t.Test
	}
	col := inputs.TestCalls(tests) // the column each question's results come from
	for _, j := range col {
		syn = append(syn, session.SynthesizedTest(tests[j].Setup, tests[j].Input))
	}
	for i, in := range ins {
		syn = append(syn, session.SynthesizedTest("", in.Call))
		col = append(col, ng+i)
	}
	var reprs []string
	have := map[string]bool{}
	add := func(r execute.Result) {
		if r.HasValue && !have[r.Value] {
			have[r.Value] = true
			reprs = append(reprs, r.Value)
		}
	}
	for _, row := range p.Results {
		for _, r := range row {
			add(r)
		}
	}
	for _, r := range ref {
		add(r)
	}
	classes, literal, err := inputs.Classes(ctx, runner, reprs)
	if err != nil {
		return err
	}
	programs := make([]string, len(p.Candidates))
	for i, c := range p.Candidates {
		programs[i] = c.Program
	}
	column := func(j int) []execute.Result {
		out := make([]execute.Result, len(p.Results))
		for c, row := range p.Results {
			out[c] = row[j]
		}
		return out
	}
	u := p.User
	// Clipped: appending must not write over the columns still to be read.
	u.Tests, u.Reference, u.Usable = slices.Clip(u.Tests), slices.Clip(u.Reference), slices.Clip(u.Usable)
	u.Synthesized = make([]bool, ng, ng+len(syn))
	for k, j := range col {
		r := ref[j]
		u.Tests = append(u.Tests, syn[k].Test)
		u.Reference = append(u.Reference, r)
		u.Usable = append(u.Usable, r.HasValue && literal[r.Value])
		u.Synthesized = append(u.Synthesized, true)
		if r.HasValue {
			tab.AddValues(syn[k].Test, r.Value, programs, column(j), classes)
		}
	}
	u.ValueClass = classes
	for c, row := range p.Results {
		out := slices.Clip(row[:ng])
		for _, j := range col {
			out = append(out, row[j])
		}
		p.Results[c] = out
	}
	p.Tests = append(slices.Clip(p.Tests[:ng]), syn...)

	p.Synthesized = slices.Clone(u.Synthesized)
	p.Atypical, p.Traits = inputs.Marks(pool, len(p.Tests), col[:len(col)-len(ins)], ng)
	p.ValueClass = classes
	p.Inputs = len(ins)
	return nil
}
