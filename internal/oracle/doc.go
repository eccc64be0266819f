// Package oracle simulates the user of a TiCoder session for benchmarks
// (TiCoder §VII-D): the problem's reference solution answers every question.
//
// For a question about test t, with r the reference solution's result on t:
//
//   - r is pass: the answer is `pass`;
//   - r is fail (the assertion was false): `fail`; in Output mode, for a test
//     of the form `assert CALL == EXPECTED`, `output V` where V is the repr of
//     the value the reference's CALL returned, provided V evaluates back to a
//     value equal to it (checked in the sandbox by running
//     `assert CALL == V` on the reference); otherwise `fail`;
//   - r is error, timeout or crash, or the reference's CALL itself raised
//     AssertionError (the test's comparison did not run: its own
//     precondition, such as a guarded reference's input contract):
//     `undefined` (a precondition violation).
//
// Which candidates an `output V` answer keeps is looked up in a Table of
// `assert CALL == V` run on every candidate. That runs CALL a second time;
// where the comparison timed out but the candidate's call had returned a
// value in the matrix, SettleTimeouts decides from that value (by repr), so
// that timing noise near the limit does not prune a candidate whose value
// the selector saw.
//
// For a synthesized question (a call that shows a value y; see package
// session), with r the reference's result on the call: it raised, timed out
// or crashed: `undefined` (no pruning); its value == y: `pass`; otherwise,
// in Output mode, `output V` with V its value's repr when V is a Python
// literal, else `fail`. Values are compared by Python's == (classes computed
// in the sandbox, inputs.Classes), never by repr: 1 == 1.0 == True,
// -0.0 == 0.0, 0.1 + 0.2 != 0.3.
//
// Options:
//
//   - ProtectCorrect: a candidate that passes the hidden tests is never
//     pruned. This is the official implementation's rule; it flatters the
//     results, is off by default, and every report says whether it was on.
//   - Noise ε: with probability ε the user answers wrongly: `pass` becomes
//     `fail`, and `fail` or `output V` becomes `pass`; `undefined` stays. The
//     draw is a pure function of (seed, problem, test), so every strategy of a
//     run meets the same mistakes.
//
// Table is a session.Comparer over precomputed sandbox results: for each
// distinct (setup, CALL, V), V the reference's value, the outcome of
// `assert CALL == V` on every candidate, computed by the execution engine
// with Python's ==. EqualTests lists the tests to run for it; AddValues adds
// a synthesized question's comparisons from the values' classes.
//
// oracle must not run code itself: the reference's results and the
// comparisons come from the execution engine.
package oracle
