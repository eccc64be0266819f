package rank

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ticoder/ticoder/internal/execute"
)

// Mode is the kind of answer the user gives: PassFail (pass, fail,
// undefined) or Output (pass, undefined, or the right value of the call).
type Mode uint8

const (
	// PassFail is TiCoder-PassFail: the user only says pass, fail or undefined.
	PassFail Mode = iota
	// Output is TiCoder-Output: on a wrong test of the form
	// `assert CALL == EXPECTED` the user gives the right value of CALL.
	Output
)

// String returns "passfail" or "output".
func (m Mode) String() string {
	switch m {
	case PassFail:
		return "passfail"
	case Output:
		return "output"
	}
	return fmt.Sprintf("mode(%d)", m)
}

// ParseMode parses "passfail" or "output".
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "passfail", "pass-fail", "pf":
		return PassFail, nil
	case "output", "out":
		return Output, nil
	}
	return 0, fmt.Errorf("unknown mode %q (want passfail or output)", s)
}

// MarshalText encodes the mode as its name.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes a mode's name.
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := ParseMode(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// Part codes of a candidate under one test (see Outcomes.part). Values from
// partValue upwards are distinct returned values (Output mode only).
const (
	partError int32 = iota // error, timeout or crash: the answer would be `undefined`
	partPass               // the assertion held
	partFail               // the assertion was false (PassFail, or no value to tell apart)
	partValue              // first distinct returned value of a failing call
)

// Outcomes is the fixed data that test selection and code ranking work on: the
// results of every test on every candidate with the candidates' multiplicities.
// Build it with NewOutcomes. An Outcomes is immutable and safe for concurrent use.
type Outcomes struct {
	in OutcomesInput
	// pf[c][t] is partPass, partFail or partError.
	pf [][]int32
	// out[c][t] is pf[c][t], except that a failing call with a value gets
	// partValue + the index of its value repr among the test's values.
	out [][]int32
	// class[c] is the behaviour class of candidate c.
	class []int
	// nclass is the number of behaviour classes.
	nclass int
	// ncode[t] bounds the part codes of test t; maxCode is the largest.
	ncode   []int
	maxCode int
	// weight[c] is sqrt(Count(c)), the weight infogain gives candidate c.
	weight []float64
	// vid[c][t] numbers the value candidate c's call returned on test t
	// among that test's distinct values (by ValueClass), -1 for none.
	vid [][]int32
	// values[t] maps a value's key (valueKey) to its number on test t.
	values []map[string]int32
}

// OutcomesInput is what an Outcomes is built from. Only Results is required; without
// candidates, the length of Calls gives the number of tests.
type OutcomesInput struct {
	// Results[c][t] is the result of test t on candidate c.
	Results [][]execute.Result
	// Counts[c] is candidate c's multiplicity (raw samples); nil means 1 each.
	Counts []int
	// First[c] is the index of candidate c's first raw sample, the last
	// tie-break; nil means c itself.
	First []int
	// Prior[c] is an optional score of candidate c (higher is better, e.g. a
	// quality estimate); it orders candidates before any test is asked and
	// breaks ties of every ranker. nil means no prior.
	Prior []float64
	// Calls[t] reports whether test t has the form `assert CALL == EXPECTED`
	// (execute.Test.Input is set), so that Output mode can ask for CALL's
	// value; nil means no test has.
	Calls []bool
	// Correct[c] reports whether candidate c passes the hidden tests. Only the
	// oracle selector reads it (evaluation only); nil means unknown.
	Correct []bool
	// Synthesized[t] reports whether test t is a synthesized question: a
	// call with no expected value of its own (package inputs). Only what
	// its call did counts — the value it returned, or that it returned
	// none — never its pass/fail outcome; rankers do not count it; and what
	// passes is decided per question by a pivot value (Query.Pivot). nil
	// means no test is.
	Synthesized []bool
	// Atypical[t] reports that question t asks about an input unlike the
	// written examples (package inputs: a mutation that breaks a property
	// all the seeds share, or a generated test whose call is unlike most
	// seeds): infogain takes the chance that the user calls it undefined to
	// be at least AtypicalUndefined. nil means none is.
	Atypical []bool
	// ValueClass numbers returned values by Python's == (inputs.Classes):
	// reprs with the same number stand for equal values, so they are one
	// part of a split and one behaviour. A repr it lacks (or a nil map) is
	// equal only to itself.
	ValueClass map[string]int32
}

// NewOutcomes checks in and precomputes the partitions and behaviour classes.
func NewOutcomes(in OutcomesInput) (*Outcomes, error) {
	nc := len(in.Results)
	nt := len(in.Calls) // without candidates, Calls alone tells the tests
	if nc > 0 {
		nt = len(in.Results[0])
	}
	if err := in.check(nc, nt); err != nil {
		return nil, err
	}
	p := &Outcomes{in: in, pf: make([][]int32, nc), out: make([][]int32, nc), class: make([]int, nc), ncode: make([]int, nt),
		vid: make([][]int32, nc), values: make([]map[string]int32, nt)}
	for t := range p.values {
		p.values[t] = map[string]int32{}
	}
	classes := map[string]int{}
	var key []byte
	for c, row := range in.Results {
		p.pf[c] = make([]int32, nt)
		p.out[c] = make([]int32, nt)
		p.vid[c] = make([]int32, nt)
		key = key[:0]
		for t, r := range row {
			v := int32(-1)
			if r.HasValue {
				v = p.valueID(t, r.Value, true)
			}
			p.vid[c][t] = v
			code := partError
			switch {
			case p.synth(t):
				// Told apart by value only, against a pivot (see part).
			case r.Outcome == execute.Pass:
				code = partPass
			case r.Outcome == execute.Fail:
				code = partFail
			}
			p.pf[c][t] = code
			p.out[c][t] = code
			if code == partFail && v >= 0 && p.call(t) {
				p.out[c][t] = partValue + v
			}
			switch {
			case v >= 0 && p.synth(t):
				key = append(key, 'v')
			case v >= 0:
				key = append(key, byte('0'+r.Outcome), 'v')
			default:
				key = append(key, byte('0'+r.Outcome))
			}
			if v >= 0 {
				key = strconv.AppendInt(key, int64(v), 10)
			}
			key = append(key, '|')
		}
		id, ok := classes[string(key)]
		if !ok {
			id = len(classes)
			classes[string(key)] = id
		}
		p.class[c] = id
	}
	p.weight = make([]float64, nc)
	for c := range p.weight {
		p.weight[c] = math.Sqrt(float64(p.Count(c)))
	}
	for t := range p.values {
		p.ncode[t] = int(partValue) + len(p.values[t])
		p.maxCode = max(p.maxCode, p.ncode[t])
	}
	p.nclass = len(classes)
	return p, nil
}

// check checks the shape of an OutcomesInput with nc candidates and nt tests.
func (in OutcomesInput) check(nc, nt int) error {
	for c, row := range in.Results {
		if len(row) != nt {
			return fmt.Errorf("results of candidate %d have %d tests, candidate 0 has %d: the matrix must be rectangular", c, len(row), nt)
		}
	}
	for name, n := range map[string]int{"counts": len(in.Counts), "first": len(in.First), "prior": len(in.Prior), "correct": len(in.Correct)} {
		if n != 0 && n != nc {
			return fmt.Errorf("%s has %d entries for %d candidates", name, n, nc)
		}
	}
	for name, n := range map[string]int{"calls": len(in.Calls), "synthesized": len(in.Synthesized), "atypical": len(in.Atypical)} {
		if n != 0 && n != nt {
			return fmt.Errorf("%s has %d entries for %d tests", name, n, nt)
		}
	}
	for c, n := range in.Counts {
		if n < 1 {
			return fmt.Errorf("candidate %d has multiplicity %d; want at least 1", c, n)
		}
	}
	return nil
}

// valueKey is the key of a returned value's repr: its class under ==
// where ValueClass knows it, else its text.
func (p *Outcomes) valueKey(repr string) string {
	if id, ok := p.in.ValueClass[repr]; ok {
		return "#" + strconv.Itoa(int(id))
	}
	return "=" + repr
}

// valueID returns the number of a value on test t, numbering it if add.
func (p *Outcomes) valueID(t int, repr string, add bool) int32 {
	k := p.valueKey(repr)
	id, ok := p.values[t][k]
	if !ok {
		if !add {
			return -1
		}
		id = int32(len(p.values[t]))
		p.values[t][k] = id
	}
	return id
}

// Candidates returns the number of candidates.
func (p *Outcomes) Candidates() int { return len(p.in.Results) }

// Tests returns the number of tests.
func (p *Outcomes) Tests() int {
	if len(p.in.Results) == 0 {
		return len(p.in.Calls)
	}
	return len(p.in.Results[0])
}

// Result returns the result of test t on candidate c.
func (p *Outcomes) Result(c, t int) execute.Result { return p.in.Results[c][t] }

// Count returns candidate c's multiplicity.
func (p *Outcomes) Count(c int) int {
	if p.in.Counts == nil {
		return 1
	}
	return p.in.Counts[c]
}

// First returns the index of candidate c's first raw sample.
func (p *Outcomes) First(c int) int {
	if p.in.First == nil {
		return c
	}
	return p.in.First[c]
}

// Prior returns candidate c's prior score, 0 without a prior.
func (p *Outcomes) Prior(c int) float64 {
	if p.in.Prior == nil {
		return 0
	}
	return p.in.Prior[c]
}

// HasPrior reports whether the pool has prior scores.
func (p *Outcomes) HasPrior() bool { return p.in.Prior != nil }

// Correct reports whether candidate c passes the hidden tests and whether
// that is known.
func (p *Outcomes) Correct(c int) (correct, known bool) {
	if p.in.Correct == nil {
		return false, false
	}
	return p.in.Correct[c], true
}

// Class returns candidate c's behaviour class: candidates with the same
// outcome and the same returned value (when there is one) on every test share
// a class.
func (p *Outcomes) Class(c int) int { return p.class[c] }

// call reports whether test t is a CALL == EXPECTED test.
func (p *Outcomes) call(t int) bool { return p.in.Calls != nil && p.in.Calls[t] }

// Call reports whether test t has the form `assert CALL == EXPECTED`.
func (p *Outcomes) Call(t int) bool { return p.call(t) }

// Passes reports whether candidate c passes test t.
func (p *Outcomes) Passes(c, t int) bool { return p.pf[c][t] == partPass }

// part returns candidate c's part under test t in mode: which answer the user
// would give if c were the intended function. In PassFail mode, and for tests
// that are not calls, it is pass, fail or error; in Output mode a failing
// call is told apart by the value it returned. On a synthesized question,
// whose shown value is pivot (a value number of t, -1 for none), a candidate
// that returned the pivot passes, one that returned another value fails (in
// Output mode: is told apart by that value), one that returned none errs.
func (p *Outcomes) part(mode Mode, c, t int, pivot int32) int32 {
	if p.synth(t) {
		v := p.vid[c][t]
		switch {
		case v < 0:
			return partError
		case v == pivot:
			return partPass
		case mode == Output:
			return partValue + v
		}
		return partFail
	}
	if mode == Output {
		return p.out[c][t]
	}
	return p.pf[c][t]
}

// Raises reports whether candidate c's call of test t raised, timed out or
// crashed (for a test that is not a call: the test did): if c were the
// intended function, the user would call the input undefined.
func (p *Outcomes) Raises(c, t int) bool {
	if p.synth(t) {
		return p.vid[c][t] < 0
	}
	return p.pf[c][t] == partError
}

// Broken reports whether candidate c raised, timed out or crashed on every
// test and input, of which there are at least two: a program that never
// returns (a missing import, a name the model never defined) is wrong
// whatever the function is for, and says nothing of which inputs are
// valid.
func (p *Outcomes) Broken(c int) bool {
	n := p.Tests()
	if n < 2 {
		return false
	}
	for t := 0; t < n; t++ {
		if !p.Raises(c, t) {
			return false
		}
	}
	return true
}

// atypical reports whether question t asks about an input unlike the
// written examples (OutcomesInput.Atypical).
func (p *Outcomes) atypical(t int) bool {
	return p.in.Atypical != nil && p.in.Atypical[t]
}

// synth reports whether test t is a synthesized question.
func (p *Outcomes) synth(t int) bool { return p.in.Synthesized != nil && p.in.Synthesized[t] }

// Synthesized reports whether test t is a synthesized question.
func (p *Outcomes) Synthesized(t int) bool { return p.synth(t) }

// Value returns the number of the value candidate c's call returned on test
// t among the test's distinct values (equal under ValueClass), or -1 when
// it returned none.
func (p *Outcomes) Value(c, t int) int32 { return p.vid[c][t] }

// ValueOf returns the number on test t of the value whose repr is given, or
// -1 when no candidate returned a value equal to it.
func (p *Outcomes) ValueOf(t int, repr string) int32 { return p.valueID(t, repr, false) }

// valuesOf appends to out the distinct values (value numbers) that the
// candidates of set returned on test t, in increasing order.
func (p *Outcomes) valuesOf(t int, set []int, out []int32) []int32 {
	for _, c := range set {
		if v := p.vid[c][t]; v >= 0 && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// Pivots returns, for each synthesized question, the value its shown
// expected value is taken from: the value returned by the best-ranked
// candidate of r whose call returned one (-1 when none did, and for tests).
func (p *Outcomes) Pivots(r Ranking) []int32 {
	out := make([]int32, p.Tests())
	for t := range out {
		out[t] = -1
		if !p.synth(t) {
			continue
		}
		for _, c := range r.Order {
			if v := p.vid[c][t]; v >= 0 {
				out[t] = v
				break
			}
		}
	}
	return out
}

// Weight returns the total infogain weight, Σ sqrt(multiplicity), of the
// candidates in set.
func (p *Outcomes) Weight(set []int) float64 {
	w := 0.0
	for _, c := range set {
		w += p.weight[c]
	}
	return w
}

// Mass returns the total multiplicity of the candidates in set.
func (p *Outcomes) Mass(set []int) int {
	m := 0
	for _, c := range set {
		m += p.Count(c)
	}
	return m
}

// NumClasses returns the number of behaviour classes among set.
func (p *Outcomes) NumClasses(set []int) int {
	seen := map[int]bool{}
	for _, c := range set {
		seen[p.class[c]] = true
	}
	return len(seen)
}
