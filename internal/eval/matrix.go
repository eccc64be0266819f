package eval

import (
	"context"
	"fmt"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/inputs"
)

// Limits set the time limits of the executions behind a problem. Without an
// explicit Timeout each generated test's limit is Factor × the reference
// solution's time on it, at least Floor and at most Cap; the hidden tests'
// limit is Factor × the reference's time, at least HiddenFloor (the policy
// of `ticoder check`). The reference itself gets Reference on each
// generated test: a test it does not finish in that time is one a user could
// not answer either (the simulated user says undefined), and candidates get
// Floor on it.
//
// Looping candidates would cost the full limit once per test they loop on,
// so generated tests first run with a limit of at most Short. For each
// candidate, its first Confirm tests that timed out are run again with the
// full limit: if they all time out again, the candidate is taken to loop and
// its other short timeouts stand; if any finishes, its short timeouts are run
// again with the full limit, in order, until inputs.MaxTimeouts of them have
// timed out again (the rest stand: a candidate that loops on some inputs
// then costs a few full limits, not one per test it loops on). An explicit
// Timeout turns this off.
type Limits struct {
	// Timeout, if positive, is every test's limit (no short first pass).
	Timeout time.Duration `json:"timeout,omitempty"`
	// Factor scales the reference's time (default 20).
	Factor float64 `json:"factor"`
	// Floor is the smallest full limit of a generated test (default 100 ms).
	Floor time.Duration `json:"floor"`
	// HiddenFloor is the smallest limit of the hidden tests (default 500 ms).
	HiddenFloor time.Duration `json:"hidden_floor"`
	// Short caps the first-pass limit of generated tests (default 25 ms).
	Short time.Duration `json:"short"`
	// Confirm is how many short timeouts per candidate are confirmed with
	// the full limit (default 1).
	Confirm int `json:"confirm"`
	// Cap is the largest limit of a generated test (default 1 s).
	Cap time.Duration `json:"cap"`
	// Reference limits the reference solution on a generated test (default
	// 500 ms).
	Reference time.Duration `json:"reference"`
	// HiddenReference limits the reference solution on the hidden tests
	// (default 20 s).
	HiddenReference time.Duration `json:"hidden_reference"`
}

// WithDefaults fills unset limits.
func (l Limits) WithDefaults() Limits {
	if l.Factor <= 0 {
		l.Factor = 20
	}
	if l.Floor <= 0 {
		l.Floor = 100 * time.Millisecond
	}
	if l.HiddenFloor <= 0 {
		l.HiddenFloor = 500 * time.Millisecond
	}
	if l.Short <= 0 {
		l.Short = 25 * time.Millisecond
	}
	if l.Confirm <= 0 {
		l.Confirm = 1
	}
	if l.Cap <= 0 {
		l.Cap = time.Second
	}
	if l.Reference <= 0 {
		l.Reference = 500 * time.Millisecond
	}
	if l.HiddenReference <= 0 {
		l.HiddenReference = 20 * time.Second
	}
	return l
}

// Describe says in words what the limits are, defaults filled in, for
// reports. (Limits has no String method on purpose: its %+v form is part
// of the settings runs resume under.)
func (l Limits) Describe() string {
	if l.Timeout > 0 {
		return fmt.Sprintf("every test %v", l.Timeout)
	}
	l = l.WithDefaults()
	confirmed := "its first time-out"
	if l.Confirm > 1 {
		confirmed = fmt.Sprintf("its first %d time-outs", l.Confirm)
	}
	return fmt.Sprintf("generated tests %g × the reference's time, %v to %v (a first pass at most %v; for each candidate %s rerun at the full limit, and if it finishes, the others until %d time out again); hidden tests %g × the reference's time, at least %v; the reference %v per generated test, %v on the hidden tests",
		l.Factor, l.Floor, l.Cap, l.Short, confirmed, inputs.MaxTimeouts, l.Factor, l.HiddenFloor, l.Reference, l.HiddenReference)
}

// scaled returns the limit of a test from the reference's result on it.
func (l Limits) scaled(r execute.Result, floor, ceiling time.Duration) time.Duration {
	if l.Timeout > 0 {
		return l.Timeout
	}
	if r.Outcome != execute.Pass && r.Outcome != execute.Fail {
		return floor
	}
	return min(ceiling, max(floor, time.Duration(l.Factor*r.Seconds*float64(time.Second))))
}

// short returns the first-pass limit for a full limit.
func (l Limits) short(full time.Duration) time.Duration {
	if l.Timeout > 0 {
		return full
	}
	return min(full, l.Short)
}

// runMatrix runs every test on every program with the limits full (test
// hidden, the hidden tests, runs with its full limit at once). Tests that
// share a call (same setup and CALL) run the call once per program, and
// each is decided on its value (the worker does so within a job); where
// the call timed out, they all did, with the first's result. Short first-pass timeouts are
// confirmed as Limits describes. The tests from skipFrom on (the input pool,
// a tail) are skipped for a program once inputs.MaxTimeouts of them have
// timed out in the first pass (execute.TimePolicy.SkipAfter); skipped tests
// are timeouts with Exception execute.NotRun and are not confirmed.
func runMatrix(ctx context.Context, runner execute.Runner, programs []string, tests []execute.Test, full []time.Duration, lim Limits, hidden, skipFrom int) ([][]execute.Result, error) {
	first := make([]int, len(tests)) // first test with the same call, or itself
	seen := map[string]int{}
	short := make([]time.Duration, len(tests))
	for j, t := range tests {
		first[j] = j
		short[j] = lim.short(full[j])
		if j == hidden {
			short[j] = full[j]
		}
		if t.Input == "" {
			continue
		}
		k := t.Setup + "\x00" + t.Input
		if f, ok := seen[k]; ok {
			first[j] = f
		} else {
			seen[k] = j
		}
	}
	rows, err := runSparse(ctx, runner, programs, tests, execute.TimePolicy{Timeouts: short, SkipAfter: inputs.MaxTimeouts, SkipFrom: skipFrom}, func(_, _ int) bool { return true })
	if err != nil {
		return nil, err
	}
	if err := confirmTimeouts(ctx, runner, programs, tests, short, full, lim.Confirm, rows); err != nil {
		return nil, err
	}
	// A first test's timeout, confirmed or not, is its call's: the others
	// take it (their own first-pass copies of it were not confirmed).
	for i := range rows {
		for j := range tests {
			if f := first[j]; f != j && rows[i][f].Outcome == execute.Timeout {
				rows[i][j] = rows[i][f]
			}
		}
	}
	return rows, nil
}

// confirmTimeouts reruns with the full limit the first n short timeouts of
// each program, and, if any of those finishes, its other short timeouts
// until inputs.MaxTimeouts of them time out again (see Limits).
func confirmTimeouts(ctx context.Context, runner execute.Runner, programs []string, tests []execute.Test, short, full []time.Duration, n int, rows [][]execute.Result) error {
	shortOut := func(i, j int) bool {
		r := rows[i][j]
		return r.Outcome == execute.Timeout && r.Exception != execute.NotRun && short[j] < full[j]
	}
	picked := make([]map[int]bool, len(programs))
	for i := range programs {
		picked[i] = map[int]bool{}
		for j := range tests {
			if len(picked[i]) < n && shortOut(i, j) {
				picked[i][j] = true
			}
		}
	}
	conf, err := runSparse(ctx, runner, programs, tests, execute.PerTest(full), func(i, j int) bool { return picked[i][j] })
	if err != nil {
		return err
	}
	finished := make([]bool, len(programs))
	for i := range programs {
		for j := range picked[i] {
			rows[i][j] = conf[i][j]
			finished[i] = finished[i] || conf[i][j].Outcome != execute.Timeout
		}
	}
	redoPolicy := execute.TimePolicy{Timeouts: full, SkipAfter: inputs.MaxTimeouts}
	redo, err := runSparse(ctx, runner, programs, tests, redoPolicy, func(i, j int) bool { return finished[i] && shortOut(i, j) })
	if err != nil {
		return err
	}
	for i := range programs {
		for j := range tests {
			if finished[i] && shortOut(i, j) && redo[i][j].Exception != execute.NotRun {
				rows[i][j] = redo[i][j]
			}
		}
	}
	return nil
}

// runSparse runs test j on program i only where want(i, j), under policy
// (whose Timeouts and SkipFrom are those of tests); the other cells are
// left as zero Results with Outcome Fail. Programs that want the same tests
// share one job.
func runSparse(ctx context.Context, runner execute.Runner, programs []string, tests []execute.Test, policy execute.TimePolicy, want func(i, j int) bool) ([][]execute.Result, error) {
	rows := make([][]execute.Result, len(programs))
	groups := map[string][]int{}
	var order []string
	cols := map[string][]int{}
	for i := range programs {
		rows[i] = make([]execute.Result, len(tests))
		for j := range rows[i] {
			rows[i][j].Outcome = execute.Fail
		}
		var js []int
		for j := range tests {
			if want(i, j) {
				js = append(js, j)
			}
		}
		if len(js) == 0 {
			continue
		}
		k := fmt.Sprint(js)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
			cols[k] = js
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		js, is := cols[k], groups[k]
		job := execute.Job{Programs: make([]string, len(is)), Tests: make([]execute.Test, len(js)), TimePolicy: policy.Columns(js)}
		for a, i := range is {
			job.Programs[a] = programs[i]
		}
		for b, j := range js {
			job.Tests[b] = tests[j]
		}
		m, err := runner.Run(ctx, job, nil)
		if err != nil {
			return nil, err
		}
		for a, i := range is {
			for b, j := range js {
				rows[i][j] = m.Results[a][b]
			}
		}
	}
	return rows, nil
}

// countTimeouts counts the timed-out results of a matrix.
func countTimeouts(rows [][]execute.Result) int {
	n := 0
	for _, row := range rows {
		for _, r := range row {
			if r.Outcome == execute.Timeout {
				n++
			}
		}
	}
	return n
}
