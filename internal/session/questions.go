package session

import (
	"fmt"
	"strings"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
)

// Questions says what a session may ask about: the generated tests, the
// synthesized questions (inputs on which the candidates disagree), or both.
type Questions uint8

const (
	// Both asks generated tests and synthesized questions, whichever the
	// selector scores best (the default).
	Both Questions = iota
	// TestsOnly asks only generated tests (the TiCoder paper).
	TestsOnly
	// InputsOnly asks only synthesized questions; generated tests still
	// rank the candidates.
	InputsOnly
)

var questionsNames = [...]string{"both", "tests", "inputs"}

// String returns both, tests or inputs.
func (q Questions) String() string {
	if int(q) < len(questionsNames) {
		return questionsNames[q]
	}
	return fmt.Sprintf("questions(%d)", q)
}

// ParseQuestions parses "tests", "inputs" or "both" ("" is both).
func ParseQuestions(s string) (Questions, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return Both, nil
	}
	for i, n := range questionsNames {
		if n == s {
			return Questions(i), nil
		}
	}
	return 0, fmt.Errorf("unknown kind of questions %q (want tests, inputs or both)", s)
}

// MarshalText encodes the setting as its name.
func (q Questions) MarshalText() ([]byte, error) { return []byte(q.String()), nil }

// UnmarshalText decodes a setting's name.
func (q *Questions) UnmarshalText(b []byte) error {
	v, err := ParseQuestions(string(b))
	if err != nil {
		return err
	}
	*q = v
	return nil
}

// SynthesizedTest returns the test that stands for a synthesized question
// about call (after setup) in Spec.Tests: Input is the call, Code the call
// alone and Expected empty (the question shows a value chosen when it is
// asked).
func SynthesizedTest(setup, call string) extract.Test {
	return extract.Test{Test: execute.Test{Setup: setup, Code: call, Input: call}, Count: 1}
}

// AddSynthesized appends synthesized questions to the spec: tests (built
// with SynthesizedTest) and results[c][k], what candidate c's call of
// tests[k] did (the value it returned, or the exception). classes numbers
// values by Python's == (inputs.Classes), nil to compare reprs; it replaces
// the spec's. The new questions are not Atypical and have no Traits (the
// caller sets them).
func (s *Spec) AddSynthesized(tests []extract.Test, results [][]execute.Result, classes map[string]int32) error {
	if len(results) != len(s.Candidates) {
		return fmt.Errorf("synthesized questions: %d result rows for %d candidates", len(results), len(s.Candidates))
	}
	for c, row := range results {
		if len(row) != len(tests) {
			return fmt.Errorf("synthesized questions: candidate %d has %d results for %d questions", c, len(row), len(tests))
		}
	}
	for _, t := range tests {
		if t.Input == "" {
			return fmt.Errorf("synthesized questions: %q has no call", t.Code)
		}
	}
	if s.Synthesized == nil {
		s.Synthesized = make([]bool, len(s.Tests))
	}
	for _, t := range tests {
		s.Tests = append(s.Tests, t)
		s.Synthesized = append(s.Synthesized, true)
		if s.Atypical != nil {
			s.Atypical = append(s.Atypical, false)
		}
		if s.Traits != nil {
			s.Traits = append(s.Traits, nil)
		}
	}
	rows := make([][]execute.Result, len(s.Results))
	for c := range s.Results {
		rows[c] = append(append([]execute.Result{}, s.Results[c]...), results[c]...)
	}
	s.Results = rows
	s.ValueClass = classes
	return nil
}
