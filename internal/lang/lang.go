// Package lang is what ticoder needs to know of a programming language, so
// that the packages above it need not branch on one: how a program is
// assembled from a prompt and a completion, how a value test is written,
// how code is taken out of a model's reply, and (for languages whose prompts
// show examples ticoder can run) how a prompt's examples become tests.
// Python and Java implement it (internal/lang/python, internal/lang/java).
//
// Python's own parsing still lives where it grew (dataset, qe, inputs,
// interact); this interface covers what the Java support needs and what
// both languages share.
package lang

import (
	"github.com/ticoder/ticoder/internal/execute"
)

// Language describes one programming language.
type Language interface {
	// Name is the language's name as users write it: "python", "java".
	Name() string
	// Program assembles the program under test from a prompt and a
	// completion (a body the prompt leaves open, or a whole program).
	Program(prompt, completion string) string
	// ValueTest is the test that evaluates call (an expression of the
	// language calling the program) and compares its value with expected
	// (an expression; empty: only the value is reported).
	ValueTest(call, expected string) execute.Test
	// Extract takes the program out of a model's reply: the first fenced
	// code block of the language, or the whole reply when it has none.
	Extract(reply string) string
}

// Example is one example a prompt shows: a call and the value it should
// have, both expressions of the prompt's language.
type Example struct {
	Call     string `json:"call"`
	Expected string `json:"expected"`
}

// ExampleParser is implemented by languages whose prompts' examples ticoder
// turns into tests itself.
type ExampleParser interface {
	// Examples returns the examples the prompt shows for its function
	// entry, as tests can run them; examples it cannot read are left out.
	Examples(prompt, entry string) []Example
}

// InputHarvester is implemented by languages that derive more inputs from a
// prompt's examples (the behaviour of candidates on them is compared).
type InputHarvester interface {
	// Inputs returns at most max new call expressions of entry.
	Inputs(prompt, entry string, max int) []string
}
