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
// An answer is evidence, not a guillotine: each answer records which of all
// the candidates agree with it (Step.Agree), and the remaining candidates
// are those that agree with the most answers. While some candidate agrees
// with every answer that is the pruning above. An answer that no remaining
// candidate agrees with (the user's intent is in none of them, or the
// question was outside the domain the candidates model) does not empty the
// pool: those that disagree with the fewest answers remain, Conflict says
// how many answers they disagree with, and the answer stays an approved
// test that the code does not yet pass. AddCandidates brings in new
// candidates (say, from the model, with the approved tests in the prompt),
// judged by every answer so far.
//
// With Spec.ProtectCorrect (evaluation only) a candidate that passes the
// hidden tests is never pruned (it agrees with every answer): the official
// implementation's flattering rule, off by default.
//
// # Synthesized questions
//
// Spec.Tests may end with synthesized questions (AddSynthesized,
// Spec.Synthesized): a call with no expected value, an input on which the
// candidates may disagree (package inputs). Asked, it shows the value the
// best-ranked remaining candidate returns, or in PassFail mode the value
// the remaining candidates return that the selector scores highest
// (rank.Query.BestPivot) (Question.Expected, with the other candidates'
// values in Question.Choices): "f(x) == y ?". pass keeps
// the candidates whose call returned a value == y, fail drops them, output
// v keeps those whose value == v (the Comparer), undefined keeps all.
// Approved lists `assert f(x) == y` (or `== v`). Spec.Questions restricts
// what is asked to generated tests or synthesized questions; both is the
// default.
//
// Choosing: the selector scores every askable question (package rank). A
// question about a call that an answer pass, output or undefined has
// settled (its value, or its being undefined, is known) is not asked again,
// whatever its form; after fail, one that shows another value may be. After
// the first answer, the chance that a question is answered undefined is the
// weight of the candidates that raise, time out or crash on it among the
// candidates that best predicted which of the answers so far were undefined
// (rank.Query.Undefined), and at least, for a question that shares a trait
// (Spec.Traits: a way its input leaves the written examples) with one
// answered undefined, that trait's rate of undefined answers (Laplace's
// rule): an undefined answer prunes nothing, but it shows which candidates
// model the function's domain as the user does, and which kinds of input
// the user will call undefined again. From the first question on, a
// question whose input lacks a property the problem declares (a trait
// "K:!P", package inputs) is undefined with chance at least
// DeclaredUndefined. In
// PassFail mode infogain weighs each remaining candidate by the generated
// tests' agreement (rank.Outcomes.Agreement: sqrt(multiplicity) × (1 + its
// CodeT score on the unasked tests)), so that a yes or no tells apart the
// candidates the ranking would put first; in Output mode, where an answer
// tells every value apart at once, by sqrt(multiplicity).
//
// Undo takes back the last answer and restores the previous state exactly
// (remaining candidates, unasked tests, pending question); candidates added
// since stay, judged by the answers that remain.
//
// # Stopping
//
// The session stops (Next returns ok false; Status says why) when
// MaxQuestions answers were given, when there is nothing to ask about at all
// (no test and no synthesized question: NoTests), when at most one behaviour
// class of candidates remains (identical outcome and value on every test and
// synthesized question), or when no askable test splits the remaining
// candidates (see package rank).
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
//
// A Session must not run code but through its Comparer (RunnerComparer runs
// the comparisons in the sandbox): the matrices it is built from are
// computed by its callers.
package session
