package session

import (
	"fmt"
	"strings"
)

// Verdict is the kind of an answer.
type Verdict uint8

const (
	// Pass: the test matches my intent.
	Pass Verdict = iota
	// Fail: the test does not match my intent.
	Fail
	// Undefined: the input is outside my function's domain; nothing is pruned.
	Undefined
	// Output: the test does not match my intent, and this is the value the
	// call should return (Output mode, CALL == EXPECTED tests only).
	Output
)

var verdictNames = [...]string{"pass", "fail", "undefined", "output"}

// String returns pass, fail, undefined or output.
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("verdict(%d)", v)
}

// MarshalText encodes the verdict as its name.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText decodes a verdict's name.
func (v *Verdict) UnmarshalText(b []byte) error {
	for i, n := range verdictNames {
		if n == string(b) {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("unknown verdict %q (want pass, fail, undefined or output)", b)
}

// Answer is the user's answer to a question.
type Answer struct {
	// Verdict is pass, fail, undefined or output.
	Verdict Verdict `json:"verdict"`
	// Value is, for Output, a Python expression of the right value.
	Value string `json:"value,omitempty"`
}

// String returns the answer as ParseAnswer reads it: "pass", "fail",
// "undefined" or "output VALUE".
func (a Answer) String() string {
	if a.Verdict == Output {
		return "output " + a.Value
	}
	return a.Verdict.String()
}

// ParseAnswer reads "pass" (or y, yes), "fail" (n, no), "undefined" (u,
// undef) or "output VALUE" (o VALUE), where VALUE is a Python expression.
func ParseAnswer(s string) (Answer, error) {
	s = strings.TrimSpace(s)
	word, rest, _ := strings.Cut(s, " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(word) {
	case "pass", "p", "y", "yes":
		if rest == "" {
			return Answer{Verdict: Pass}, nil
		}
	case "fail", "f", "n", "no":
		if rest == "" {
			return Answer{Verdict: Fail}, nil
		}
	case "undefined", "undef", "u":
		if rest == "" {
			return Answer{Verdict: Undefined}, nil
		}
	case "output", "o":
		if rest == "" {
			return Answer{}, fmt.Errorf("answer %q: give the right value after output, e.g. `output [1, 2]`", s)
		}
		return Answer{Verdict: Output, Value: rest}, nil
	}
	return Answer{}, fmt.Errorf("cannot read answer %q: want pass, fail, undefined or output VALUE", s)
}
