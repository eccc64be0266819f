package session

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/srcscan"
)

// Comparer decides, for an `output VALUE` answer, which candidates' calls
// return a value equal to VALUE under Python's ==.
type Comparer interface {
	// Equal reports for each program whether, after test.Setup, evaluating
	// test.Input gives a value == the Python expression value. It returns an
	// error when value cannot be evaluated at all.
	Equal(ctx context.Context, programs []string, test execute.Test, value string) ([]bool, error)
}

// RunnerComparer is the Comparer that evaluates `(INPUT) == (VALUE)` on every
// program in the execution engine's sandbox. It is safe for concurrent use if
// its Runner is.
type RunnerComparer struct {
	// Runner runs the programs.
	Runner execute.Runner
	// Timeout limits one evaluation (default 5 s).
	Timeout time.Duration
}

// ErrBadValue is returned (wrapped) when an answer's value does not evaluate.
var ErrBadValue = fmt.Errorf("value does not evaluate")

// Equal runs `assert (INPUT) == (VALUE)` on each program, and also VALUE on
// its own: if VALUE raises in every program, it is not a usable value.
func (rc RunnerComparer) Equal(ctx context.Context, programs []string, test execute.Test, value string) ([]bool, error) {
	if len(programs) == 0 {
		return nil, nil
	}
	timeout := rc.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	job := execute.Job{
		Programs: programs,
		Tests: []execute.Test{
			EqualTest(test, value),
			{Setup: test.Setup, Code: "_ = (" + value + ")"},
		},
		TimePolicy: execute.Within(timeout),
	}
	m, err := rc.Runner.Run(ctx, job, nil)
	if err != nil {
		return nil, fmt.Errorf("compare outputs with %s: %w", value, err)
	}
	out := make([]bool, len(programs))
	usable := false
	exc := ""
	for i, row := range m.Results {
		out[i] = row[0].Outcome == execute.Pass
		if row[1].Outcome == execute.Pass {
			usable = true
		} else {
			exc = row[1].Exception
		}
	}
	if !usable {
		return nil, fmt.Errorf("%w: %s raised %s; give a Python expression such as [1, 2] or 'abc'", ErrBadValue, value, exc)
	}
	return out, nil
}

// EqualTest returns the test `assert INPUT == VALUE` built from a
// CALL == EXPECTED test and a value: the test the user approved when
// answering `output VALUE`. VALUE is parenthesised when it needs to be
// (`output 1, 2` gives `assert f(x) == (1, 2)`, not `== 1, 2`, which Python
// reads as an assertion with a message). The engine evaluates Input and
// Expected on their own, so Code only matters to people and exports.
func EqualTest(test execute.Test, value string) execute.Test {
	expr := value
	if needsParens(value) {
		expr = "(" + value + ")"
	}
	return execute.Test{
		Setup:    test.Setup,
		Code:     "assert " + test.Input + " == " + expr,
		Input:    test.Input,
		Expected: value,
	}
}

// needsParens reports whether a Python expression may bind looser than ==
// when written after it: whether it has a comma, a comparison or '=' sign,
// or white space (around `if`, `or`, `and`, `not`, `in`, `lambda` …) outside
// brackets and string literals. It errs towards parentheses.
func needsParens(expr string) bool {
	for p := range srcscan.Python.Pieces(expr) {
		if p.Kind == srcscan.Code && p.Depth == 0 && strings.IndexByte(",<>=! \t\n", expr[p.Start]) >= 0 {
			return true
		}
	}
	return false
}
