package python

import (
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/lang"
)

// Python implements lang.Language.
type Python struct{}

var _ lang.Language = Python{}

// Name implements lang.Language.
func (Python) Name() string { return "python" }

// Program implements lang.Language: prompt + completion.
func (Python) Program(prompt, completion string) string { return prompt + completion }

// ValueTest implements lang.Language: `assert CALL == EXPECTED`, compared by
// the harness on plain data.
func (Python) ValueTest(call, expected string) execute.Test {
	if expected == "" {
		expected = "None"
	}
	return execute.Test{Code: "assert " + call + " == " + expected, Input: call, Expected: expected}
}

// Extract implements lang.Language.
func (Python) Extract(reply string) string {
	if b, ok := lang.FencedBlock(reply, "python", "py", "python3"); ok {
		return b
	}
	return reply
}
