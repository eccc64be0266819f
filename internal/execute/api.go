package execute

import (
	"context"
	"fmt"
	"time"
)

// Job asks for every test to be run on every program: what to run, and
// under which time policy. It carries no rules of its own: the caller that
// owns the decision (check, eval, inputs, an interactive session) chooses
// the TimePolicy.
type Job struct {
	// Programs are complete programs (candidate code). Identical programs
	// are run once.
	Programs []string
	// Tests are run, each in a fresh copy of the program's globals.
	Tests []Test
	// TimePolicy says how long each test may run. (Embedded, so that a
	// Job's JSON, the NATS job wire, keeps one flat object.)
	TimePolicy
	// AllowObjects lets a program return objects that are not plain data
	// and compares them inside the program's own process, as OpenAI's
	// harness does. A program written to attack ticoder can then forge its
	// own verdicts; by default such a return value fails its test.
	AllowObjects bool
}

// The defaults of a TimePolicy's zero fields.
const (
	// DefaultTimeout is a test's limit where a TimePolicy gives none.
	DefaultTimeout = 3 * time.Second
	// DefaultDegradeLimit is TimePolicy.DegradeLimit's default.
	DefaultDegradeLimit = 100 * time.Millisecond
)

// TimePolicy is how long a Job's tests may run, and when the engine may
// stop giving a program that keeps timing out its full limits. Its zero
// value gives every test DefaultTimeout, never lowers a limit and runs
// every test. Each language's executor applies the rules it supports (the
// Python pool all of them; see the executor's documentation).
type TimePolicy struct {
	// Timeout is the wall-clock limit of one test on one program (0:
	// DefaultTimeout).
	Timeout time.Duration
	// Timeouts, when non-nil, gives each test its own limit (same length as
	// Job.Tests; 0: DefaultTimeout) and overrides Timeout.
	Timeouts []time.Duration
	// DegradeAfter, if positive, caps the time limit of a program's later
	// tests at DegradeLimit once DegradeAfter of its tests have timed out: a
	// program that loops on every input then costs DegradeAfter full limits,
	// not one per test. Its later slow tests may then time out where a full
	// limit would have let them finish; results are cached under the limit
	// actually used only when DegradeAfter is 0.
	DegradeAfter int
	// DegradeLimit is the reduced limit (0: DefaultDegradeLimit).
	DegradeLimit time.Duration
	// SkipAfter, if positive, stops running a program's tests from index
	// SkipFrom on (a tail of Job.Tests) once SkipAfter of them have timed
	// out: the later ones are reported as Timeout with Exception NotRun. A
	// program that loops on many inputs of an input pool then costs
	// SkipAfter limits, not one per input. Such results are cached like
	// any other: for a given job they are what the program did.
	SkipAfter int
	// SkipFrom is the first test that SkipAfter applies to.
	SkipFrom int
}

// Within returns the policy that gives every test the limit d and no other
// rule.
func Within(d time.Duration) TimePolicy { return TimePolicy{Timeout: d} }

// PerTest returns the policy that gives each test its own limit (limits[j]
// for Job.Tests[j]) and no other rule.
func PerTest(limits []time.Duration) TimePolicy { return TimePolicy{Timeouts: limits} }

// EachLimit returns each of n tests' limit, the defaults applied; an error if
// Timeouts is set for another number of tests.
func (p TimePolicy) EachLimit(n int) ([]time.Duration, error) {
	if p.Timeouts != nil && len(p.Timeouts) != n {
		return nil, fmt.Errorf("run: %d timeouts for %d tests", len(p.Timeouts), n)
	}
	out := make([]time.Duration, n)
	for j := range out {
		t := p.Timeout
		if p.Timeouts != nil {
			t = p.Timeouts[j]
		}
		if t <= 0 {
			t = DefaultTimeout
		}
		out[j] = t
	}
	return out, nil
}

// reducedLimit is the limit of a program's tests after DegradeAfter
// timeouts, 0 when the policy never lowers one.
func (p TimePolicy) reducedLimit() time.Duration {
	switch {
	case p.DegradeAfter <= 0:
		return 0
	case p.DegradeLimit <= 0:
		return DefaultDegradeLimit
	}
	return p.DegradeLimit
}

// SkipFromIn returns where SkipFrom falls in a job of some of this
// policy's tests: cols are their indexes, ascending, and the result is the
// index in cols of the first that SkipFrom applies to (len(cols) if none).
func (p TimePolicy) SkipFromIn(cols []int) int {
	for i, j := range cols {
		if j >= p.SkipFrom {
			return i
		}
	}
	return len(cols)
}

// Columns returns the policy of a job of some of this policy's tests (cols
// are their indexes, ascending): each test keeps its limit, and SkipFrom
// moves to the first of cols it applies to.
func (p TimePolicy) Columns(cols []int) TimePolicy {
	q := p
	if p.Timeouts != nil {
		q.Timeouts = make([]time.Duration, len(cols))
		for i, j := range cols {
			q.Timeouts[i] = p.Timeouts[j]
		}
	}
	q.SkipFrom = p.SkipFromIn(cols)
	return q
}

// ReducedLimit is the Exception of a Timeout that happened under a limit
// lowered by TimePolicy.DegradeAfter; such results are not cached.
const ReducedLimit = "reduced limit"

// NotRun is the Exception of a Timeout reported without running the test:
// the program had already timed out on TimePolicy.SkipAfter tests of the
// tail that TimePolicy.SkipFrom starts.
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
