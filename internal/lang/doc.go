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
//
// lang must not import a language's package or run code itself: a method
// that needs the sandbox takes the caller's execute.Runner.
package lang
