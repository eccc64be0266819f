package execute

import (
	"context"
	"time"
)

// Job asks for every test to be run on every program.
type Job struct {
	// Programs are complete Python programs (candidate code). Identical
	// programs are run once.
	Programs []string
	// Tests are run, each in a fresh copy of the program's globals.
	Tests []Test
	// Timeout is the wall-clock limit of one test on one program.
	Timeout time.Duration
	// Timeouts, when non-nil, gives each test its own limit (same length as
	// Tests) and overrides Timeout.
	Timeouts []time.Duration
	// DegradeAfter, if positive, caps the time limit of a program's later
	// tests at DegradeLimit once DegradeAfter of its tests have timed out: a
	// program that loops on every input then costs DegradeAfter full limits,
	// not one per test. Its later slow tests may then time out where a full
	// limit would have let them finish; results are cached under the limit
	// actually used only when DegradeAfter is 0.
	DegradeAfter int
	// DegradeLimit is the reduced limit (default 100 ms).
	DegradeLimit time.Duration
	// SkipAfter, if positive, stops running a program's tests from index
	// SkipFrom on (a tail of Tests) once SkipAfter of them have timed out:
	// the later ones are reported as Timeout with Exception NotRun. A
	// program that loops on many inputs of an input pool then costs
	// SkipAfter limits, not one per input. Such results are cached like
	// any other: for a given job they are what the program did.
	SkipAfter int
	// SkipFrom is the first test that SkipAfter applies to.
	SkipFrom int
	// AllowObjects lets a program return objects that are not plain data
	// and compares them inside the program's own process, as OpenAI's
	// harness does. A program written to attack ticoder can then forge its
	// own verdicts; by default such a return value fails its test.
	AllowObjects bool
}

// ReducedLimit is the Exception of a Timeout that happened under a limit
// lowered by Job.DegradeAfter; such results are not cached.
const ReducedLimit = "reduced limit"

// NotRun is the Exception of a Timeout reported without running the test:
// the program had already timed out on Job.SkipAfter tests of the tail that
// Job.SkipFrom starts.
const NotRun = "not run: timed out on earlier calls"

// Runner is what the rest of ticoder needs from the execution engine. *Pool
// implements it.
type Runner interface {
	// Run runs a job and returns its matrix. each, if not nil, is called once
	// per distinct program as its results arrive (from several goroutines).
	Run(ctx context.Context, job Job, each func(program int, results []Result)) (*Matrix, error)
	// Call runs function(arg) from the Python source in a sandboxed child and
	// decodes its JSON-serialisable return value into result.
	Call(ctx context.Context, source, function string, arg, result any) error
}
