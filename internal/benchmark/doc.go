// Package benchmark runs `ticoder eval`'s benchmark over a set of problems:
// for each problem it generates candidates and tests (package generate,
// cached in eval's generation cache), runs the matrix in the sandbox and
// simulates the sessions (package eval), appends the problem's result to
// results.jsonl as it finishes, and at the end writes the summary files.
//
// The run is resumable: New reads the results already in the output
// directory under the same settings (eval.Resume) and refuses a directory
// that holds results of other settings; Run does only the problems left. A
// problem that fails on its own (no recording, nothing extracted) is left
// out and reported; an error that would fail every problem (an interrupt,
// an unreachable model) stops the run, keeping the results so far.
//
// The generation cache is keyed on the generation and extraction rules'
// versions (generate.RulesVersion, extract.RulesVersion) and the settings
// that change what is generated, not on the binary, so it survives a
// rebuild.
//
// The sandboxed steps (extraction, the matrix, execution-based estimators)
// go through the Runner the caller gives, so a benchmark of another
// language passes that language's runner.
//
// The package writes nothing to stdout or stderr: progress goes to a
// progress.Reporter, and what a person should hear about (a failed problem)
// to the Events the caller gives.
//
// benchmark must not hold the rules it sequences: generation is package
// generate's, the matrix, the time limits and the simulated sessions package
// eval's, verdicts the execution engine's.
package benchmark
