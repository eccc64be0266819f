"""ticoder's Python worker: the Python half of the execution engine.

One long-lived worker runs this package as PID 1 of its sandbox. It reads
requests from fd 3 and writes replies to fd 4, each a 4-byte big-endian
length followed by JSON. The package itself comes first on fd 3, one frame
per module, which a small bootstrap installs as modules before it runs
worker.main (see bootstrap.go): nothing is written into the sandbox.
Untrusted code never runs in the worker's process.

Who decides a test's verdict (see doc.go for the threat model):

  * The candidate program runs in a child, C, forked per program. C holds
    no channel that carries verdicts: it only reports what the program did
    (the value a call returned, encoded as plain data, or the name of the
    exception it raised) on a pipe to the worker, and answers calls.
    With each test's first message it reports how long its part took
    ("s": checked, and cut to what the worker saw pass): a test's time
    is that plus the worker's part, without the fork and scheduling.
  * `assert CALL == LITERAL` tests (kind "A"): C evaluates CALL and sends
    the value; the worker compares it with the literal itself. Expected
    values that are not literals are evaluated once, in a process of
    their own that never sees a program, and kept as plain data.
  * A benchmark's own hidden tests (trusted code, kind "T") run in the
    worker against proxies: calling a program's function sends the
    arguments to C, which calls it and sends back the plain value.
  * Any other test (generated, kind "J") runs the same way in a judge
    process forked for that one test (from the zygote: it holds nothing
    of the worker's); its calls are relayed and checked by the worker,
    and only its own verdict is read from it.
  * With allow_objects (kind "L"), C runs the tests itself and reports
    verdicts, as OpenAI's harness does: a hostile program can then forge
    its own results. Off by default.

Every process that runs untrusted code is forked from a zygote that never
holds a request's data (see zygote.Zygote): C reads its token, its program,
its side of the tests and the literal calls of its first hidden test from
the worker after its fork. A test sees only the names of the program it
uses (prepare.wanted_names) and the real builtins. C rings a bell (a byte
on a third pipe) once it has written what the worker waits for, so a batch
of answers wakes the worker once (see wire.LineReader). Everything read
from a child is bounded and validated; anything malformed is a crash of
that test only. After each program every process but the worker and the
zygote is killed and /tmp is emptied, so nothing leaks to the next one.

The modules, in the order they are installed (each imports only modules
before it), by where their code runs:

  Shared by every process (no request data of their own):
    wire      framing, JSON, the line reader and the bounds on what is read
    baseline  what every process starts from: preloaded modules, the
              project's module, the builtins and random's state
    values    plain values: encode, decode, compare, render
    limits    rlimits, a forked process's setup, its allocator, the time
              rules
  The worker and the zygote (trusted):
    cleanup   killing what a program left, emptying /tmp
    zygote    the fork server and what runs in it
    suite     evalplus's comparison rules (C also digests its outputs
              with them: nothing C computes is trusted)
  Processes forked from the zygote, which run untrusted code:
    program   process C: the candidate program
    testenv   a test's globals and run: a generated test in a judge
              process; also the worker's, for a benchmark's own tests
    child     the entry of every forked process; expected values and
              tool calls (task processes)
  The worker (trusted):
    session   the worker's side of C
    task      running a task (expected value, tool call) in a process
    suiterun  judging input suites (HumanEval+, MBPP+)
    prepare   compiling a request's tests, deciding who judges each
    judge     the judges: values, trusted tests, forked judges
    worker    the request loop and the run of one program
"""
