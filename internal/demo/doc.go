// Package demo holds ticoder's built-in offline demo: small programming
// problems, each with a stub, a reference solution, plausible candidate
// implementations (correct ones and realistic subtle bugs, with the
// multiplicities they would have if sampled several times) and candidate
// tests in `assert f(...) == ...` form, some of them wrong and some on inputs
// outside the function's domain.
//
// Two problems are Java (Problem.Language "java": min_cost, sorted_union):
// their files are stub.java, reference.java, candidates.java (headers
// "// candidate count=N …") and tests.java (one `CALL == EXPECTED` of Java
// expressions per line, labels as "  // wrong", "  // undefined").
//
// The data lives in problems/NAME/ as plain Python and JSON, embedded in the
// binary with go:embed, so that `ticoder run --demo` and `ticoder serve --demo`
// work on a machine with no model, no network and no datasets:
//
//   - problem.json: {"title", "summary"}
//   - stub.py: imports and helpers, the def line and a docstring without examples
//   - reference.py: a complete program that solves the problem as intended
//   - candidates.py: complete programs, each introduced by a line
//     "# candidate count=N correct", "# candidate count=N bug: WHAT", or
//     "# candidate count=N hidden bug: WHAT" for a bug that no test of
//     tests.py reveals (digit_sum has such bugs: only a synthesized question,
//     an input no test tries, tells them apart)
//   - tests.py: one `assert CALL == EXPECTED` per line; a line ending in
//     "  # wrong" is a test the reference fails, "  # undefined" one whose input
//     the reference rejects by raising
//
// The labels are the author's and only tests read them; the user interfaces
// never show them. All the problems were written for ticoder; the first three
// restate, in new words, the tasks of the TiCoder paper's user study.
//
// demo must not need a model or the network: everything it holds is
// committed with the code.
package demo
