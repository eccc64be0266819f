// Package gentest gives the tests of packages that generate candidates the
// committed fixture problems (HumanEval without examples) and a replay
// provider of their recorded CodeGen-16B samples.
//
// Only tests (and other test helpers) import it; ticoder's own code must
// not.
package gentest
