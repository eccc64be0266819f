// Package execute is ticoder's execution engine: it runs every test on every
// candidate program, fast, in the sandbox, and caches the outcomes.
//
// A Pool keeps long-lived sandboxed Python workers, each running the embedded
// harness (the Python package pyworker/, whose layout shows which process
// each part runs in) as PID 1 of its sandbox. Untrusted code never runs in
// a worker. For every program the worker forks a child with resource limits
// (address space, CPU, file size, open files, processes) that compiles the
// program once and runs its part of each test in a fresh namespace (the
// program's module code re-executed into new globals, the builtins
// restored), so no test sees another's state.
//
// # Who decides a verdict
//
// The program's process never holds a channel that carries verdicts. It
// reports only what the program did — the value a call returned, encoded as
// plain data (None, bool, int, float, complex, str, bytes and lists, tuples,
// dicts, sets, frozensets, ranges, Fractions, Decimals and deques of them;
// subclasses such as namedtuple or Counter as their base type's data, read
// through the base type), or the name of the exception it raised — on a pipe
// to the worker, and each message must carry a token the process is given
// when it is forked. Then:
//
//   - `assert CALL == EXPECTED` (Test.Input, Test.Expected): the program's
//     process evaluates CALL and sends the value; the worker compares it with
//     EXPECTED itself, by Python's == on plain data. A literal EXPECTED is
//     parsed with ast.literal_eval; any other is evaluated once, in a
//     process that never sees a program, and kept as plain data. A
//     generated test that asserts one thing of one call of a program's
//     function (`assert f(x)`, `assert not f(x)`, `assert f(x) is None`,
//     `assert f(x) != LITERAL`, `in`, `<`, …) is run the same way: the
//     worker decides it on the call's plain value, as a judge process
//     would, without forking one.
//   - A benchmark's own hidden tests (Test.Trusted): the test code runs in
//     the worker against proxies of the program's functions; a call sends
//     its arguments to the program's process and gets a plain value back.
//   - Any other test: the same, in a judge process forked for that one test,
//     whose calls the worker relays and checks and from which it reads one
//     verdict, for that test only. Its processes and directory are removed
//     before the program's next test.
//
// A test sees only the program's names it uses: the global names of its
// code that are not builtins (and not bound by the test itself), and
// Test.Entry, the function under test, even where that is a builtin's name.
// Its builtins are the real ones, so a program that also defines abs or len
// changes nothing the test does; a module reaches a test only under its
// own name.
//
// A value that is not plain data fails its test with a reason; with
// Job.AllowObjects the program's process runs the tests itself and reports
// verdicts, as OpenAI's harness does, and a hostile program can forge them.
//
// The worker enforces every deadline (a child that ignores signals or spins in
// C code is killed with everything it started), reports a timeout or a crash,
// and goes on with the next test in a fresh child. A value test past its
// deadline is first told to stop (SIGUSR1, which raises in the test's code):
// a child that stops at once, in the call rather than in its module code,
// goes on with the next test itself, and forks are saved. Value tests with
// the same call are decided on one run of it per program. After each program every
// process of the sandbox but the worker is killed and /tmp is emptied without
// following links, so nothing a program leaves reaches the next one; a /tmp
// that cannot be emptied retires the worker. The worker is not dumpable, so
// its /proc entries (descriptors, memory, environment) are out of reach of
// its children even when they share its uid. Every message from a child is
// bounded and validated: anything malformed is a crash of that test only.
// Exception names, values and error texts are capped.
//
// Every process that runs untrusted code (a program's, a judge's, an
// expected value's, a tool call's) is forked from a zygote that the worker
// starts before any request and that is never sent a request's data: the
// process reads what it runs from the worker, over a pipe of its own, after
// the fork. So no hidden test, expected value, other test or earlier program
// is in its address space: a program's holds its own code, the call
// expressions (and setup) of the value tests it runs, the names its other
// tests take and the literal calls of its first hidden test (sent with its
// code, so that they cost no round trip). It works in /tmp, which the
// worker empties after it.
//
// The process writes its messages without waking the worker for each: it
// rings a bell (a byte on a third pipe) when it has written what the worker
// waits for, e.g. the answers to a batch of calls. The worker sleeps on the
// bell, looks at the pipe every few milliseconds while it waits, and reads
// the pipe itself once a message arrives in pieces or the bell is closed, so
// verdicts do not depend on the bell: a test still ends at the first answer
// that fails it, even if a later call of the batch hangs.
//
// # Known limits
//
// The token is in the program's own address space while it runs. A program
// written against this harness's internals — one that finds the token by
// inspecting its own interpreter — can still misreport its own return values
// and exceptions. It cannot reach another program's results, a verdict, the
// worker, the host or the network.
//
// # Other languages
//
// A language whose programs need a runtime of their own implements Driver
// in a package of its own and is run by a DriverPool, from the same Job,
// Matrix and Cache: Java's is internal/execute/jvm (long-lived sandboxed
// JVMs that compile a program in memory and run each test on a thread of
// its own, in a fresh class loader). internal/lang/langs lists each such
// language's Starter.
//
// Outcomes are pass, fail (AssertionError, or a value that is not plain
// data), error (any other exception, SystemExit included; Result.Exception
// names its type), timeout and crash. Identical programs run once per job and
// every result is cached by the hash of (harness version, program, test, time
// limit) in SQLite (Cache).
//
// execute must not know a benchmark's rules or read a language's programs in
// Go: which tests run, under which TimePolicy, is its caller's choice;
// values are judged by the workers.
package execute
