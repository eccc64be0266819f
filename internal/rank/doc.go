// Package rank chooses which test to ask the user next and ranks the
// candidate programs, from the matrix of outcomes of every generated test on
// every candidate (TiCoder, §IV-B2 and §IV-B3).
//
// # Data
//
// An Outcomes holds the results of tests on candidates, the candidates'
// multiplicities (raw samples that normalised to the candidate), the index of
// each candidate's first sample, an optional prior score per candidate (for a
// quality estimate), which tests are of the form `assert CALL == EXPECTED`,
// which are synthesized questions, the classes of returned values under
// Python's ==, and, for evaluation only, which candidates pass the hidden
// tests.
//
// A synthesized question (package inputs) is a call with no expected value
// of its own: an input on which the candidates may disagree. Only what each
// candidate's call did counts — the value it returned, or that it raised,
// timed out or crashed — and rankers never count it. When it is asked it
// shows a value, its pivot (Query.Pivot): the value of the best-ranked
// remaining candidate whose call returned one (Outcomes.Pivots); a candidate
// that returned the pivot passes it, one that returned another value fails
// it. In PassFail mode, with Query.BestPivot (sessions set it), the
// selector may instead show whichever value the remaining candidates return
// that it scores highest (Scored.Pivot; ties keep the best-ranked
// candidate's): "f(x) == y ?" is a question for every such y, and with the
// best-ranked candidate's value a yes could never change which candidate
// leads — the rankers do not count synthesized questions, and that
// candidate passes. In Output mode every value is its own answer, so the
// pivot changes no split.
//
// # Definitions
//
// Equal values: two returned values are equal when Python's == says so
// (OutcomesInput.ValueClass, computed in the sandbox: 1, 1.0 and True are one
// value; a list is never a tuple); values it does not know are compared by
// repr.
//
// Behaviour class: candidates with the same outcome (pass, fail, error,
// timeout, crash) and equal returned values (where the call returned) on
// every test, and equal values or the same outcome on every synthesized
// question, form one class. The exception's name does not count.
//
// Split of the remaining candidates S by a test t, in a mode: the parts are
// the candidates that would make the user give the same answer if they were
// the intended function. PassFail mode (and tests that are not calls): pass,
// fail (the assertion was false), error (raised, timed out or crashed).
// Output mode, for CALL == EXPECTED tests and synthesized questions: pass,
// one part per distinct returned value of the failing candidates, error. The
// error part models the `undefined` answer: the input is outside the
// intended function's domain.
//
// What an answer keeps (the pruning rules of DESIGN.md): pass keeps the
// candidates that pass; fail keeps those that do not pass; a value v keeps
// the candidates whose call returned a value == v; undefined keeps all.
//
// A test splits S when some answer other than undefined would keep a
// nonempty proper subset of S. A test that does not split is never asked.
//
// # Test selection (Selector)
//
//   - discr (the paper): G+ and G− are the remaining candidates that pass and
//     fail t; errors, timeouts and crashes are in neither.
//     s(t) = min(|G+|,|G−|) / max(|G+|,|G−|), 0 when both are empty. |G±|
//     count distinct candidates (after normalisation), not samples: the paper
//     counts code suggestions, and Figure 3's suggestions are distinct.
//   - random: a uniformly random splitting test, a pure function of (seed,
//     step, test), so a session needs no random state to be resumed.
//   - infogain: the expected reduction of the entropy (bits) of the remaining
//     candidates' behaviour classes. Each candidate weighs sqrt(multiplicity)
//     (samples are evidence with diminishing returns, as in CodeT's
//     sqrt(samples) group score; measured on HumanEval with CodeGen-16B it
//     beats both unit weights and raw multiplicity); a class weighs the sum
//     of its members. Outcomes.Agreement gives the weights sqrt(multiplicity)
//     × (1 + the candidate's CodeT score on the unasked tests) instead:
//     infogain's belief about the intended function then follows the
//     generated tests' agreement, as the codet ranker does (package session
//     uses it in PassFail mode). gain(t) = H(S) − Σ_a P(a)·H(S_a), a over the parts of
//     the split in the mode, P(undefined) = u the chance that the input is
//     outside the domain (Query.Undefined; by default the weight of the error
//     part over weight(S): inputs most candidates reject are probably
//     outside the domain and gain little), P(a) = (1 − u)·weight(a)/weight(S
//     minus the error part) for the others, S_a what answer a
//     keeps, and S itself for the error part (an `undefined` answer gains
//     nothing).
//   - oracle (evaluation only; formerly "ideal", still accepted): knows which
//     candidates pass the hidden tests; asks the test whose most favourable
//     answer keeps the most correct mass, then removes the most incorrect
//     mass. It is greedy and does not know the user's answer, so it is a
//     reference, not an upper bound: other selectors beat it at some m.
//
// Generated tests and synthesized questions compete in one pool under every
// selector. Scores are rounded to 1e-9; ties go to the lowest test index:
// generated tests in order of first appearance, then the synthesized
// questions in the order their caller gives (package eval and interact: the
// tests' own calls, then the input pool, whose order puts the prompt's
// examples and the calls written in tests first and mutations of the
// smallest seeds next, so that ties go to questions close to real examples
// and small).
//
// # Code ranking (Ranker)
//
//   - passing (the paper): the number of still-unasked tests a candidate
//     passes; each distinct test counts once.
//   - codet (CodeT's dual execution agreement with multiplicities): remaining
//     candidates that pass exactly the same set of unasked tests form a group;
//     each scores sqrt(samples in the group) × (tests the group passes).
//   - prior: the prior score alone.
//
// Order: first every candidate that returns on some test or input, then the
// broken ones (Outcomes.Broken: raised, timed out or crashed on every test
// and input, at least two: a missing import, a name never defined; with
// no tests, as in a replay of code samples alone, no ranker's score sees
// them); within each, score descending, then prior descending (the prior
// orders candidates before any question and breaks every tie), then
// multiplicity descending, then first sample ascending. Candidates both
// broken or both not, with equal score and equal prior, form a tie group:
// the metric in package eval treats them as one random pick weighted by
// multiplicity; the rest of the order is only for display.
// Classes groups a ranking into behaviour classes, each shown by its
// best-ranked member with the class's total multiplicity.
//
// rank must not run code: it reads the matrix it is given.
package rank
