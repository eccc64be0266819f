// Package session is the TiCoder interaction as a library type, used by the
// terminal UI, the web server and the simulated-user benchmark alike.
//
// A Session is built from a Spec: the task, the distinct candidate programs
// (with multiplicities), the distinct generated tests, the matrix of results
// of every test on every candidate, the mode (PassFail or Output), the test
// selection and code ranking strategies (package rank) and a maximum number of
// questions.
//
// # Loop
//
// Next returns the pending question, choosing the best splitting test with the
// selector when none is pending. Answer takes the answer to exactly that
// question (answering any other test is ErrNotAsked) and prunes, as DESIGN.md
// defines (TiCoder §IV-B3):
//
//   - pass: keep the candidates whose outcome on the test is pass;
//   - fail: drop the candidates whose outcome is pass;
//   - undefined: keep all (the input is outside the function's domain);
//   - output v (Output mode, CALL == EXPECTED tests only): keep the candidates
//     whose CALL returns a value equal to v under Python's ==. The comparison
//     runs in the sandbox through a Comparer (RunnerComparer), never on
//     strings; a v that raises in every program is rejected with ErrBadValue
//     and nothing changes.
//
// With Spec.ProtectCorrect (evaluation only) a candidate that passes the
// hidden tests is never pruned: the official implementation's flattering rule,
// off by default.
//
// Undo takes back the last answer and restores the previous state exactly
// (remaining candidates, unasked tests, pending question).
//
// # Stopping
//
// The session stops (Next returns ok false; Status says why) when
// MaxQuestions answers were given, when at most one behaviour class of
// candidates remains (identical outcome and value on every test), or when no
// unasked test splits the remaining candidates (see package rank).
//
// # Results
//
// Ranking ranks every remaining candidate; Suggestions shows one
// representative per behaviour class with the class's multiplicity. Approved
// lists the tests answered pass plus, for each `output v`, the corrected test
// `assert CALL == v`; Rejected and Undefined list the others.
//
// # Storage
//
// A Session encodes to JSON (MarshalJSON) with its spec and history, and Load
// resumes it exactly. A Session is not safe for concurrent use.
package session
