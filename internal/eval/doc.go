// Package eval measures TiCoder with a simulated user (TiCoder §VII): pass@k
// of raw samples, pass@k@m after m questions for every strategy combination,
// summary tables (Markdown, CSV), plots (PNG, SVG) and resumable per-problem
// JSONL results.
//
// # Metrics
//
// pass@k (Chen et al. 2021): for a problem with n raw samples of which c pass
// the hidden tests, the unbiased estimator 1 − C(n−c,k)/C(n,k), computed as
// the product 1 − Π_{i=n−c+1..n} (1 − k/i) (package passk); n counts every raw
// sample, including those that did not extract to a candidate; when n < k it
// is 1 if any sample is correct. Averaged over problems. Two baselines are
// reported: the raw samples run as they came, prompt + completion, exactly as
// `ticoder check` runs them (the Table IV baseline; only for models that
// continue the prompt; a raw program that normalises to a candidate's, as
// extraction normalises, takes that candidate's verdict instead of running,
// and one that does not parse fails), and the samples after extraction (c counts the
// samples whose extracted candidate passes), which is what TiCoder ranks:
// extraction drops trailing junk, so it can rescue a sample.
//
// pass@k@m: after m questions, the expected value of "one of the top k ranked
// remaining candidates passes the hidden tests", averaged over problems.
//
//   - Every problem counts at every m: a session that stopped early (one
//     behaviour class left, no splitting test) keeps its last state.
//   - An empty candidate set scores 0 (as does a problem with no candidates).
//   - Ties: candidates with equal ranking score and equal prior are one tie
//     group (rank.Ranking.Tie). The top k is filled group by group, best
//     first; a group that fits in the remaining s slots is wholly in the top
//     k; the first group that does not fit fills the s slots by s successive
//     draws without replacement, each picking a not yet drawn member with
//     probability proportional to its multiplicity. The value is the
//     probability that some candidate in the top k is correct, computed
//     exactly (TopK). For k = 1 it is the share of correct samples in the top
//     tie group: the expected value of a random pick weighted by multiplicity.
//   - m = 0 is the ranking before any question (the code ranker alone).
//
// # Simulation
//
// Simulate runs, for one problem, one session (package session) per answer
// mode × test selector × protect-correct setting, with the reference solution
// answering (package oracle), and scores the remaining candidates with every
// code ranker at every m: the selectors do not depend on the code ranker, so
// rankers share a session. The random selector's seed is derived from the run
// seed and the task id. Config.Ask says what the sessions may ask about:
// generated tests only (the paper: synthesized questions are left out
// altogether), synthesized questions only, or both. Each run records why it
// stopped (no-tests: nothing to ask at all), Conflict, the first answer that
// no candidate agreed with together with the earlier ones (the session goes
// on with the candidates that agree with the most answers: package
// session), and Lost, the answer after which no remaining candidate passed
// the hidden tests, when none came back by the end — the reference
// behaving, on an input outside the hidden tests' domain, unlike every
// correct candidate; the summary counts such sessions.
//
// # Execution
//
// Prepare runs the reference solution, then every candidate on every
// generated test, the Output-mode comparisons, the calls of the problem's
// input pool (package inputs, at most MaxInputs: the call matrix) and the
// hidden tests, through the execution engine and its cache. Every distinct
// call of the generated tests and every input of the pool becomes a
// synthesized question (package session); returned values are numbered by
// Python's == in the sandbox (inputs.Classes), so the simulated user, the
// comparisons and the selectors compare values as Python does. Time limits
// scale with the reference solution's time (Limits); a short first pass
// with confirmation keeps candidates that loop from costing the full limit
// on every test (one that is only slow somewhere is rerun at the full limit
// until it has timed out inputs.MaxTimeouts times more), tests sharing a
// call are not rerun where the call timed
// out, and the input pool runs last, smallest calls first, a candidate that
// timed out on inputs.MaxTimeouts of them skipping the rest (recorded as
// timeouts, execute.NotRun), as live sessions do.
//
// # Files
//
// Results are appended as one JSON line per problem, tagged with the hash of
// the run's Settings; ReadResults finds the problems already done under the
// same settings, so a killed run resumes where it stopped. Summary renders
// the paper's Table IV shape: per k, code ranker and protect setting, one row
// per selector with the baseline pass@k and pass@k@m for each mode and m.
//
// eval must not ask a person (package oracle answers for one) or run code
// but through the execute.Runner it is given; the time policy of its jobs
// (Limits, the matrix's execute.TimePolicy) is its own decision, not the
// engine's.
package eval
