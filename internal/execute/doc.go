// Package execute is ticoder's execution engine: it runs every test on every
// candidate program, fast, in the sandbox, and caches the outcomes.
//
// A Pool keeps one long-lived sandboxed Python worker per core, each running
// the embedded harness (harness.py). For every program the worker forks a
// child with resource limits (address space, CPU, file size, open files,
// processes); the child compiles the program once and runs each test in a
// fresh namespace — the program's module code re-executed into new globals,
// the builtins restored — so no test sees another's state. Tests are
// compiled once per request in the worker and inherited by every child.
//
// The worker, not the child, enforces each test's wall-clock limit: a child
// that overruns is killed with everything it started (the worker is PID 1 of
// its pid namespace and kills every other process in it), the test is
// reported as a timeout, and a new child goes on with the next test. A child
// that dies is reported as a crash the same way. Candidates' stdout and stderr
// go to /dev/null and the protocol's file descriptors are closed before any
// candidate code runs, so nothing a candidate prints reaches ticoder.
//
// For a test of the form `assert CALL == EXPECTED` (Test.Input, Test.Expected)
// the harness evaluates the call, records a bounded repr of its value, and
// compares it itself: when the value is built of plain builtin types ==
// cannot run candidate code; otherwise the expected value's own __eq__
// decides. A candidate whose object claims to equal everything fails.
//
// Limits of that design: the child reports its own tests' results on a pipe
// of its own, so a program written to attack ticoder (one that finds that
// descriptor and writes result lines to it) can misreport its own outcomes.
// It cannot reach another program's results, the worker's protocol, the host
// or the network; garbled lines are ignored and count as a crash.
//
// Outcomes are pass, fail (AssertionError), error (any other exception,
// SystemExit included; Result.Exception names its type), timeout and crash.
// Identical programs run once per job and every result is cached by the hash
// of (program, test, time limit) in SQLite (Cache).
package execute
