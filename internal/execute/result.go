package execute

import (
	"fmt"
)

// Outcome is what happened when one test ran on one program.
type Outcome uint8

// The outcomes of a test on a program. The zero value is Pass only by
// accident of ordering; every Result the engine returns sets it explicitly.
const (
	// Pass: the test ran to completion and its assertion held.
	Pass Outcome = iota
	// Fail: the assertion was false.
	Fail
	// Error: the program or the test raised an exception other than
	// AssertionError; Result.Exception names its type.
	Error
	// Timeout: the test did not finish within its time limit.
	Timeout
	// Crash: the process running the program died (os._exit, a signal,
	// memory exhaustion, a segfault in C code).
	Crash
)

var outcomeNames = [...]string{"pass", "fail", "error", "timeout", "crash"}

// String returns the outcome's name: pass, fail, error, timeout or crash.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return fmt.Sprintf("outcome(%d)", o)
}

// ParseOutcome parses an outcome's name.
func ParseOutcome(s string) (Outcome, error) {
	for i, n := range outcomeNames {
		if n == s {
			return Outcome(i), nil
		}
	}
	return 0, fmt.Errorf("unknown outcome %q (want pass, fail, error, timeout or crash)", s)
}

// MarshalText encodes the outcome as its name.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText decodes an outcome's name.
func (o *Outcome) UnmarshalText(b []byte) error {
	v, err := ParseOutcome(string(b))
	if err != nil {
		return err
	}
	*o = v
	return nil
}

// Result is the outcome of one test on one program.
type Result struct {
	Outcome Outcome `json:"outcome"`
	// Exception is the exception's type name for Error (e.g. "ZeroDivisionError"),
	// and a short description for Crash (e.g. "exit status 0", "signal 11").
	Exception string `json:"exception,omitempty"`
	// Value is a bounded repr of the value the call returned, for tests of the
	// form `assert CALL == EXPECTED`; empty when the call did not return.
	Value string `json:"value,omitempty"`
	// HasValue reports whether the call returned (Value may be "" only if it
	// did not).
	HasValue bool `json:"has_value,omitempty"`
	// Seconds is the wall time the test took inside the sandbox: the
	// program's module code and the test, not the process's start.
	Seconds float64 `json:"seconds,omitempty"`
	// Suite holds, for a Suite test, its first failing input and (when the
	// suite records) the reference's outputs; nil for other tests.
	Suite *SuiteResult `json:"suite,omitempty"`
}

// Test is one test: an assertion and the setup statements it needs.
//
// When the assertion has the form `assert CALL == EXPECTED`, Input holds CALL
// and Expected holds EXPECTED; the program's process then evaluates only the
// call and reports its value as plain data, and the engine compares it with
// EXPECTED itself (a candidate's own __eq__ cannot make a test pass).
// Otherwise Code is executed outside the program's process, calling the
// program's functions through proxies.
type Test struct {
	// Setup is run first, in the same fresh namespace (imports, helpers,
	// variables the assertion uses). It may be empty.
	Setup string `json:"setup,omitempty"`
	// Code is the test's statement(s), e.g. "assert f(1) == 2".
	Code string `json:"code"`
	// Input is the call expression of an `assert CALL == EXPECTED` test.
	Input string `json:"input,omitempty"`
	// Expected is the expected-value expression of such a test.
	Expected string `json:"expected,omitempty"`
	// Trusted marks test code written by a benchmark's authors (hidden
	// tests). It runs in the worker itself against proxies of the program's
	// functions, which saves a process per program. Model-written and user
	// tests must leave it false: they run in a judge process of their own.
	Trusted bool `json:"trusted,omitempty"`
	// Entry names the function under test. A test takes from the program
	// only the names its code uses that are not builtins, and Entry, so a
	// program that also defines abs or len changes nothing the test does;
	// Entry is needed where the function under test has a builtin's name
	// (MBPP's sum). It may be empty.
	Entry string `json:"entry,omitempty"`
	// Suite, when set, makes the test a suite of calls of one function,
	// judged as evalplus judges (see Suite); the other fields are then
	// unused. A Suite test's time limit should be its Budget.
	Suite *Suite `json:"suite,omitempty"`
}

// String returns the test's source: its setup followed by its code.
func (t Test) String() string {
	if t.Setup == "" {
		return t.Code
	}
	return t.Setup + "\n" + t.Code
}

// Matrix holds the outcome of every test on every program of one problem.
// Results[i][j] is the result of Tests[j] on Programs[i].
type Matrix struct {
	Programs []string   `json:"programs"`
	Tests    []Test     `json:"tests"`
	Results  [][]Result `json:"results"`
}
