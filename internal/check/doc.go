// Package check measures the functional correctness of sample programs
// against a dataset's hidden tests: the engine behind `ticoder check`, a
// drop-in for OpenAI's evaluate_functional_correctness.
//
// Each sample's program runs with the problem's hidden test program (for
// HumanEval, check(entry_point)) as one test, in the sandboxed execution
// engine. pass@k is the unbiased estimator over each problem's samples,
// averaged over the problems that have samples.
//
// Time limits: an explicit Options.Timeout applies to every sample. Without
// one, each problem's reference solution is run first and the problem's
// limit is Factor × its run time, but at least Floor (the policy of
// evalplus). Reference runs are cached like any other execution.
//
// check must not generate code or ask a model: it runs the samples it is
// given through the caller's execute.Runner, under the time limits it
// chooses, and counts what comes back.
package check
