package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
)

// AnswerCall says how a user who wants what the reference solution does
// answers a question about call (after setup) that shows the value shown —
// a synthesized question, which no label covers: "undefined" where the
// reference raises, times out or crashes on the call; "pass" where its value
// == shown (Python's ==, in the sandbox); otherwise "output" with the repr
// of the reference's value when output is true, else "fail".
func (p Problem) AnswerCall(ctx context.Context, r execute.Runner, setup, call, shown string, output bool) (verdict, value string, err error) {
	test := execute.Test{Setup: setup, Code: "assert " + call + " == " + shown, Input: call, Expected: shown}
	m, err := r.Run(ctx, execute.Job{Programs: []string{p.Reference}, Tests: []execute.Test{test}, TimePolicy: execute.Within(5 * time.Second)}, nil)
	if err != nil {
		return "", "", fmt.Errorf("run the reference of %s on %s: %w", p.Name, call, err)
	}
	res := m.Results[0][0]
	switch {
	case res.Outcome == execute.Pass:
		return "pass", "", nil
	case !res.HasValue:
		return "undefined", "", nil
	case output:
		return "output", res.Value, nil
	}
	return "fail", "", nil
}
