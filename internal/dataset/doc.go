// Package dataset loads code-generation benchmarks (HumanEval, HumanEval
// without docstring examples, MBPP full and sanitized, and any JSONL file of
// HumanEval-style rows) into Problems, and fetches and verifies the known
// benchmark files.
//
// Every Problem carries the prompt a body completion is appended to, the
// natural-language description, the code context and signature, the entry
// point, a complete reference program and the hidden test program; see
// Problem for the exact definitions and mbppProblem's documentation for how
// an MBPP prompt is built. The data directory is resolved by DataDir:
// the --data-dir flag, else $TICODER_DATA, else ./data.
//
// Loading never panics on bad input: a malformed file yields a *LineError
// naming the file and line ("HumanEval.jsonl:17: missing field \"test\"").
package dataset
