package oracle

import (
	"context"
	"fmt"
	"hash/fnv"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
)

// Options configure a simulated user.
type Options struct {
	// ProtectCorrect never prunes a candidate that passes the hidden tests
	// (see the package doc; off by default).
	ProtectCorrect bool `json:"protect_correct"`
	// Noise is the probability ε of a wrong answer, in [0, 1].
	Noise float64 `json:"noise"`
	// Seed seeds the noise.
	Seed uint64 `json:"seed"`
}

// Validate checks the options.
func (o Options) Validate() error {
	if o.Noise < 0 || o.Noise > 1 {
		return fmt.Errorf("noise %v is not a probability; give a value in [0, 1]", o.Noise)
	}
	return nil
}

// User answers questions as the reference solution behaves. It is immutable
// and safe for concurrent use.
type User struct {
	// Key names the problem (it seeds the noise).
	Key string
	// Tests are the problem's tests.
	Tests []execute.Test
	// Reference[t] is the reference solution's result on Tests[t].
	Reference []execute.Result
	// Usable[t] reports whether the reference's value repr on Tests[t]
	// evaluates to a value equal to it, so it can be given as `output`; nil
	// means no test's value is usable (Output mode then answers `fail`).
	Usable []bool
	// Synthesized[t] reports whether Tests[t] is a synthesized question (a
	// call without an expected value; see session.Spec.Synthesized); nil
	// means none is.
	Synthesized []bool
	// ValueClass numbers values by Python's == (inputs.Classes): it decides
	// whether the value a synthesized question shows is the reference's.
	// Reprs it lacks are equal only to themselves.
	ValueClass map[string]int32
	// Options are the user's options.
	Options Options
}

// Truth returns the noiseless answer to question q in mode.
func (u *User) Truth(mode rank.Mode, q session.Question) session.Answer {
	t := q.Test
	r := u.Reference[t]
	if u.Synthesized != nil && u.Synthesized[t] {
		return u.synthesized(mode, q, r)
	}
	switch r.Outcome {
	case execute.Pass:
		return session.Answer{Verdict: session.Pass}
	case execute.Fail:
		if u.Tests[t].Input != "" && !r.HasValue && r.Exception != "" {
			// The call raised AssertionError: the reference's own
			// precondition, not the test's comparison.
			return session.Answer{Verdict: session.Undefined}
		}
		if mode == rank.Output && u.Tests[t].Input != "" && r.HasValue && u.Usable != nil && u.Usable[t] {
			return session.Answer{Verdict: session.Output, Value: r.Value}
		}
		return session.Answer{Verdict: session.Fail}
	}
	return session.Answer{Verdict: session.Undefined}
}

// synthesized answers a synthesized question from the reference's result r
// on its call: undefined where the reference returned nothing (it raised,
// timed out or crashed: the input is outside the function's domain); pass
// where the shown value == the reference's; else, in Output mode, the
// reference's value when it is usable, or fail.
func (u *User) synthesized(mode rank.Mode, q session.Question, r execute.Result) session.Answer {
	switch {
	case !r.HasValue:
		return session.Answer{Verdict: session.Undefined}
	case u.equal(r.Value, q.Expected):
		return session.Answer{Verdict: session.Pass}
	case mode == rank.Output && u.Usable != nil && u.Usable[q.Test]:
		return session.Answer{Verdict: session.Output, Value: r.Value}
	}
	return session.Answer{Verdict: session.Fail}
}

// equal reports whether two reprs stand for == values.
func (u *User) equal(a, b string) bool {
	ca, okA := u.ValueClass[a]
	cb, okB := u.ValueClass[b]
	if okA && okB {
		return ca == cb
	}
	return a == b
}

// Answer returns the user's answer to question q in mode: the truth, or with
// probability Noise a wrong answer.
func (u *User) Answer(mode rank.Mode, q session.Question) session.Answer {
	t := q.Test
	a := u.Truth(mode, q)
	if u.Options.Noise <= 0 || a.Verdict == session.Undefined || u.draw(t) >= u.Options.Noise {
		return a
	}
	if a.Verdict == session.Pass {
		return session.Answer{Verdict: session.Fail}
	}
	return session.Answer{Verdict: session.Pass}
}

// draw returns a number in [0, 1) that depends only on seed, key and test.
func (u *User) draw(t int) float64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%d", u.Options.Seed, u.Key, t)
	x := h.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return float64(x>>11) / (1 << 53)
}

// EqualTests returns, for the tests where the reference's CALL returned a
// value and the assertion was false, the tests `assert CALL == V` (V the
// reference's value repr), one per distinct (setup, call, V), with the index
// of the first test each came from. Run them on the candidates and the
// reference, then build a Table.
func EqualTests(tests []execute.Test, reference []execute.Result) (eq []execute.Test, from []int) {
	seen := map[string]bool{}
	for t, r := range reference {
		if !needsEqual(tests[t], r) {
			continue
		}
		e := session.EqualTest(tests[t], r.Value)
		if k := equalKey(e.Setup, e.Input, e.Expected); !seen[k] {
			seen[k] = true
			eq = append(eq, e)
			from = append(from, t)
		}
	}
	return eq, from
}

// needsEqual reports whether the reference's answer to test could be
// `output V`.
func needsEqual(test execute.Test, r execute.Result) bool {
	return r.Outcome == execute.Fail && r.HasValue && test.Input != ""
}

func equalKey(setup, input, value string) string { return setup + "\x00" + input + "\x00" + value }

// SettleTimeouts makes the comparisons of EqualTests agree with the calls
// they repeat. results[p][k] is the result of eq[k] on program p, and
// calls[p][k] program p's result on the test eq[k] came from (from[k]),
// which ran the same call. Where the comparison timed out but the call had
// returned a value, the comparison becomes pass when that value's repr is
// eq[k]'s value and fail otherwise: the value is known, and a second run
// of the same call that crossed the time limit (timing noise, e.g. on a
// loaded machine) must not decide the answer — the selector saw the value.
// Values with other reprs that Python's == would still equal (1 and 1.0)
// count as unequal here. results is changed in place.
func SettleTimeouts(eq []execute.Test, results, calls [][]execute.Result) {
	for p, row := range results {
		for k, r := range row {
			c := calls[p][k]
			if r.Outcome != execute.Timeout || !c.HasValue {
				continue
			}
			row[k] = execute.Result{Outcome: execute.Fail, Value: c.Value, HasValue: true}
			if c.Value == eq[k].Expected {
				row[k].Outcome = execute.Pass
			}
		}
	}
}

// Table is a session.Comparer that looks up precomputed sandbox results of
// `assert CALL == V`. It is immutable and safe for concurrent use.
type Table struct {
	// byKey[equalKey][program] is whether the outcome was pass.
	byKey map[string]map[string]bool
}

// NewTable builds a Table, and the Usable flags of a User, from the results
// of EqualTests' tests: results[p][k] is the result of eq[k] on programs[p],
// and programs[ref] is the reference solution. tests and reference are the
// original tests and the reference's results on them. A value is usable when
// the reference's own call equals it.
func NewTable(programs []string, eq []execute.Test, results [][]execute.Result, ref int, tests []execute.Test, reference []execute.Result) (*Table, []bool) {
	tab := &Table{byKey: map[string]map[string]bool{}}
	refOK := map[string]bool{}
	for k, test := range eq {
		key := equalKey(test.Setup, test.Input, test.Expected)
		row := map[string]bool{}
		for p, prog := range programs {
			pass := results[p][k].Outcome == execute.Pass
			if p == ref {
				refOK[key] = pass
				continue
			}
			row[prog] = pass
		}
		tab.byKey[key] = row
	}
	usable := make([]bool, len(tests))
	for t, r := range reference {
		usable[t] = needsEqual(tests[t], r) && refOK[equalKey(tests[t].Setup, tests[t].Input, r.Value)]
	}
	return tab, usable
}

// AddValues adds the comparisons of a synthesized question's call with
// value, decided from the values the programs' calls returned (results[i]
// for programs[i]) by their classes under Python's == (inputs.Classes);
// an existing entry for the same call and value is kept.
func (tab *Table) AddValues(test execute.Test, value string, programs []string, results []execute.Result, classes map[string]int32) {
	key := equalKey(test.Setup, test.Input, value)
	if _, ok := tab.byKey[key]; ok {
		return
	}
	want, known := classes[value]
	row := map[string]bool{}
	for i, prog := range programs {
		r := results[i]
		got, ok := classes[r.Value]
		row[prog] = r.HasValue && ((known && ok && got == want) || (!known && r.Value == value))
	}
	tab.byKey[key] = row
}

// Equal reports which programs returned value for test's call. It fails for a
// (call, value) pair or a program that was not precomputed.
func (tab *Table) Equal(_ context.Context, programs []string, test execute.Test, value string) ([]bool, error) {
	row, ok := tab.byKey[equalKey(test.Setup, test.Input, value)]
	if !ok {
		return nil, fmt.Errorf("no precomputed comparison of %s with %s", test.Input, value)
	}
	out := make([]bool, len(programs))
	for i, p := range programs {
		v, ok := row[p]
		if !ok {
			return nil, fmt.Errorf("no precomputed comparison of %s with %s for a program", test.Input, value)
		}
		out[i] = v
	}
	return out, nil
}
