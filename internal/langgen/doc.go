// Package langgen asks a model for the candidate programs and tests of a
// problem in a language that reads its own programs and tests
// (lang.TestExtractor, e.g. Java), as package extract does for Python: a
// program is the language's Program of the prompt (or of what the model
// continued) and the reply's code, equal programs (up to white space) are
// one candidate, and the tests are the value tests the language reads in
// the test replies.
//
// langgen must not run or judge what the model wrote: its caller runs it.
package langgen
