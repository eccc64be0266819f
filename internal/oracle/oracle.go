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
	// Options are the user's options.
	Options Options
}

// Truth returns the noiseless answer to test t in mode.
func (u *User) Truth(mode rank.Mode, t int) session.Answer {
	r := u.Reference[t]
	switch r.Outcome {
	case execute.Pass:
		return session.Answer{Verdict: session.Pass}
	case execute.Fail:
		if mode == rank.Output && u.Tests[t].Input != "" && r.HasValue && u.Usable != nil && u.Usable[t] {
			return session.Answer{Verdict: session.Output, Value: r.Value}
		}
		return session.Answer{Verdict: session.Fail}
	}
	return session.Answer{Verdict: session.Undefined}
}

// Answer returns the user's answer to test t in mode: the truth, or with
// probability Noise a wrong answer.
func (u *User) Answer(mode rank.Mode, t int) session.Answer {
	a := u.Truth(mode, t)
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

// EqualTests returns, for every test where the reference's CALL returned a
// value and the assertion was false, the test `assert CALL == V` (V the
// reference's value repr), with the index of the test it came from. Run them
// on the candidates and the reference, then build a Table.
func EqualTests(tests []execute.Test, reference []execute.Result) (eq []execute.Test, from []int) {
	for t, r := range reference {
		if r.Outcome == execute.Fail && r.HasValue && tests[t].Input != "" {
			eq = append(eq, session.EqualTest(tests[t], r.Value))
			from = append(from, t)
		}
	}
	return eq, from
}

// Table is a session.Comparer that looks up precomputed sandbox results of
// `assert CALL == V`. It is immutable and safe for concurrent use.
type Table struct {
	// byTest[input + "\x00" + value][program] is the outcome's pass.
	byTest map[string]map[string]bool
}

// NewTable builds a Table and the Usable flags of a User from the results
// of EqualTests' tests: results[p][k] is the result of eq[k] on programs[p];
// reference indexes the reference solution among programs, and ntests is the
// number of original tests.
func NewTable(programs []string, eq []execute.Test, from []int, results [][]execute.Result, reference, ntests int) (*Table, []bool) {
	tab := &Table{byTest: map[string]map[string]bool{}}
	usable := make([]bool, ntests)
	for k, test := range eq {
		row := map[string]bool{}
		for p, prog := range programs {
			if p == reference {
				usable[from[k]] = results[p][k].Outcome == execute.Pass
				continue
			}
			row[prog] = results[p][k].Outcome == execute.Pass
		}
		tab.byTest[test.Input+"\x00"+test.Expected] = row
	}
	return tab, usable
}

// Equal reports which programs returned value for test's call. It fails for a
// (call, value) pair or a program that was not precomputed.
func (tab *Table) Equal(_ context.Context, programs []string, test execute.Test, value string) ([]bool, error) {
	row, ok := tab.byTest[test.Input+"\x00"+value]
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
