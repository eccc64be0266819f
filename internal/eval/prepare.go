package eval

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/oracle"
	"github.com/ticoder/ticoder/internal/session"
)

// Generated is what generation and extraction produced for one problem.
type Generated struct {
	// Samples is the number of raw code samples (n of pass@k).
	Samples int `json:"samples"`
	// Candidates are the distinct extracted programs.
	Candidates []extract.Candidate `json:"candidates"`
	// Tests are the distinct extracted tests.
	Tests []extract.Test `json:"tests"`
}

// Limits set the time limits of the executions behind a problem. Without an
// explicit Timeout each test's limit is Factor × the reference solution's
// time on it, at least Floor (the hidden tests: at least HiddenFloor, the
// policy of `ticoder check`); tests the reference does not finish get Floor.
type Limits struct {
	// Timeout, if positive, is every test's limit.
	Timeout time.Duration `json:"timeout,omitempty"`
	// Factor scales the reference's time (default 20).
	Factor float64 `json:"factor"`
	// Floor is the smallest limit of a generated test (default 250 ms).
	Floor time.Duration `json:"floor"`
	// HiddenFloor is the smallest limit of the hidden tests (default 500 ms).
	HiddenFloor time.Duration `json:"hidden_floor"`
	// Reference limits the reference solution's own runs (default 5 s).
	Reference time.Duration `json:"reference"`
}

// WithDefaults fills unset limits.
func (l Limits) WithDefaults() Limits {
	if l.Factor <= 0 {
		l.Factor = 20
	}
	if l.Floor <= 0 {
		l.Floor = 250 * time.Millisecond
	}
	if l.HiddenFloor <= 0 {
		l.HiddenFloor = 500 * time.Millisecond
	}
	if l.Reference <= 0 {
		l.Reference = 5 * time.Second
	}
	return l
}

func (l Limits) scaled(r execute.Result, floor time.Duration) time.Duration {
	if l.Timeout > 0 {
		return l.Timeout
	}
	if r.Outcome != execute.Pass && r.Outcome != execute.Fail {
		return floor
	}
	return max(floor, time.Duration(l.Factor*r.Seconds*float64(time.Second)))
}

// Prepare executes everything one problem's simulation needs, in the
// sandbox through runner (whose cache makes reruns cheap):
//
//  1. the reference solution on every generated test and on the hidden tests
//     (its outcomes answer the questions; its times scale the limits);
//  2. every candidate on every generated test and on the hidden tests (the
//     matrix and the hidden verdicts). Tests that share a call (same setup
//     and CALL, another EXPECTED) run the call alike: where the first such
//     test timed out on a candidate, the others are recorded as timed out
//     without running (a looping candidate would otherwise cost the time
//     limit once per test);
//  3. for the tests the reference fails with a value V, `assert CALL == V` on
//     every candidate whose CALL returned a value, and on the reference
//     (Output-mode answers, compared with Python's ==); a candidate whose
//     call raised or timed out is not equal.
func Prepare(ctx context.Context, runner execute.Runner, p dataset.Problem, g Generated, lim Limits) (Problem, error) {
	lim = lim.WithDefaults()
	nt := len(g.Tests)
	all := make([]execute.Test, nt+1)
	for j, t := range g.Tests {
		all[j] = t.Test
	}
	all[nt] = execute.Test{Code: p.Test} // the hidden tests
	tests := all[:nt]
	refM, err := runner.Run(ctx, execute.Job{Programs: []string{p.Reference}, Tests: all, Timeout: lim.Reference}, nil)
	if err != nil {
		return Problem{}, fmt.Errorf("run the reference of %s: %w", p.ID, err)
	}
	ref := refM.Results[0]
	if ref[nt].Outcome != execute.Pass {
		return Problem{}, fmt.Errorf("the reference solution of %s fails its hidden tests (%s %s): check the dataset", p.ID, ref[nt].Outcome, ref[nt].Exception)
	}
	timeouts := make([]time.Duration, nt+1)
	for j := range tests {
		timeouts[j] = lim.scaled(ref[j], lim.Floor)
	}
	timeouts[nt] = lim.scaled(ref[nt], lim.HiddenFloor)
	programs := make([]string, len(g.Candidates))
	for i, c := range g.Candidates {
		programs[i] = c.Program
	}
	out := Problem{
		ID: p.ID, Samples: g.Samples, Candidates: g.Candidates, Tests: g.Tests,
		Task:    session.Task{ID: p.ID, Prompt: p.Prompt, Description: p.Description, Signature: p.Signature, EntryPoint: p.EntryPoint},
		Results: make([][]execute.Result, len(programs)), Correct: make([]bool, len(programs)),
	}
	t0 := time.Now()
	matrix, err := runMatrix(ctx, runner, programs, all, timeouts)
	if err != nil {
		return Problem{}, fmt.Errorf("run the candidates of %s: %w", p.ID, err)
	}
	for i, row := range matrix {
		out.Results[i] = row[:nt]
		out.Correct[i] = row[nt].Outcome == execute.Pass
	}
	slog.Debug("matrix", "task", p.ID, "candidates", len(programs), "tests", nt, "seconds", time.Since(t0).Seconds(), "timeouts", countTimeouts(matrix))
	eq, from := oracle.EqualTests(tests, ref[:nt])
	eqPrograms := append(append([]string{}, programs...), p.Reference)
	eqResults := make([][]execute.Result, len(eqPrograms))
	if len(eq) > 0 {
		eqTimeouts := make([]time.Duration, len(eq))
		for k, j := range from {
			eqTimeouts[k] = timeouts[j]
		}
		eqResults, err = runSparse(ctx, runner, eqPrograms, eq, eqTimeouts, func(i, k int) bool {
			return i == len(programs) || out.Results[i][from[k]].HasValue
		})
		if err != nil {
			return Problem{}, fmt.Errorf("compare outputs of %s: %w", p.ID, err)
		}
	}
	tab, usable := oracle.NewTable(eqPrograms, eq, eqResults, len(programs), tests, ref[:nt])
	out.Comparer = tab
	out.User = &oracle.User{Key: p.ID, Tests: tests, Reference: ref[:nt], Usable: usable}
	return out, nil
}

// runMatrix runs every test on every program, running only the first of the
// tests that share a call on a program where that call timed out.
func runMatrix(ctx context.Context, runner execute.Runner, programs []string, tests []execute.Test, timeouts []time.Duration) ([][]execute.Result, error) {
	first := make([]int, len(tests)) // first test with the same call, or itself
	seen := map[string]int{}
	for j, t := range tests {
		first[j] = j
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
	rows, err := runSparse(ctx, runner, programs, tests, timeouts, func(_, j int) bool { return first[j] == j })
	if err != nil {
		return nil, err
	}
	more, err := runSparse(ctx, runner, programs, tests, timeouts, func(i, j int) bool {
		return first[j] != j && rows[i][first[j]].Outcome != execute.Timeout
	})
	if err != nil {
		return nil, err
	}
	for i := range rows {
		for j := range tests {
			switch {
			case first[j] == j:
			case rows[i][first[j]].Outcome == execute.Timeout:
				rows[i][j] = rows[i][first[j]]
			default:
				rows[i][j] = more[i][j]
			}
		}
	}
	return rows, nil
}

// runSparse runs test j on program i only where want(i, j); the other cells
// are left as zero Results with Outcome Fail. Programs that want the same
// tests share one job.
func runSparse(ctx context.Context, runner execute.Runner, programs []string, tests []execute.Test, timeouts []time.Duration, want func(i, j int) bool) ([][]execute.Result, error) {
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
		job := execute.Job{Programs: make([]string, len(is)), Tests: make([]execute.Test, len(js)), Timeouts: make([]time.Duration, len(js))}
		for a, i := range is {
			job.Programs[a] = programs[i]
		}
		for b, j := range js {
			job.Tests[b], job.Timeouts[b] = tests[j], timeouts[j]
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
