package interact

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/session"
)

// Errors of Export.
var (
	// ErrNoCandidate: the session has no candidate at all.
	ErrNoCandidate = errors.New("there is no candidate to export")
	// ErrBadCandidate: the chosen candidate is not among the remaining ones.
	ErrBadCandidate = errors.New("no such remaining candidate")
)

var nonIdent = regexp.MustCompile(`[^A-Za-z0-9_]+`)

// moduleName returns a Python module name for the exported code.
func moduleName(entry string) string {
	name := strings.Trim(nonIdent.ReplaceAllString(entry, "_"), "_")
	if name == "" || (name[0] >= '0' && name[0] <= '9') {
		name = "solution_" + name
	}
	return name
}

// Export returns the code of candidate (an api.Candidate.Index; the best
// remaining one when candidate < 0) and the approved tests as files of the
// task's language (Python: NAME.py and the pytest file test_NAME.py; Java:
// CLASS.java and the JUnit 5 class CLASSTest.java). With check, the tests are
// run against the code in the sandbox, as the language's test runner would
// run them, and the outcome reported (Unchecked says why not, when the test
// runner is not installed).
func (c *Conversation) Export(ctx context.Context, candidate int, check bool) (api.Export, error) {
	alive := c.sess.Alive()
	if len(alive) == 0 {
		return api.Export{}, fmt.Errorf("%w: undo an answer", ErrNoCandidate)
	}
	if candidate < 0 {
		candidate = c.Candidates()[0].Index
	} else if !slices.Contains(c.sess.Kept(), candidate) {
		return api.Export{}, fmt.Errorf("%w: candidate %d was pruned or does not exist; choose one of the list", ErrBadCandidate, candidate)
	}
	// Tests corrected with `output` are among the approved ones; list only
	// those answered fail as rejected.
	var rejected []execute.Test
	for _, h := range c.sess.History() {
		if h.Answer.Verdict == session.Fail {
			rejected = append(rejected, c.sess.Shown(h))
		}
	}
	if c.module != nil {
		return c.exportModule(ctx, candidate, check, rejected)
	}
	f, err := c.lang.Export(c.task.Stub, c.task.EntryPoint, c.sess.Spec().Candidates[candidate].Program, c.sess.Approved(), rejected)
	if err != nil {
		return api.Export{}, err
	}
	ex := exportOf(f)
	ex.Candidate = candidate
	if !check {
		return ex, nil
	}
	fails, err := c.lang.CheckExport(ctx, c.runner, f)
	if errors.Is(err, jvm.ErrNoJUnit) {
		ex.Unchecked = err.Error()
		return ex, nil
	}
	if err != nil {
		return ex, err
	}
	ex.Checked, ex.Failures, ex.Passed = true, fails, len(fails) == 0
	return ex, nil
}

// exportOf returns files as an api.Export, not checked.
func exportOf(f lang.Files) api.Export {
	return api.Export{CodeFile: f.CodeFile, Code: f.Code, TestFile: f.TestFile, Tests: f.Tests, TestCount: f.TestCount, Command: f.Command}
}

// PytestFile renders approved tests as pytest functions that import the
// code from module, and lists rejected tests as comments, with strings
// quoted as the questions showed them (reprQuotes). It returns the file and
// the number of test functions.
func PytestFile(module, entry string, approved, rejected []execute.Test) (string, int) {
	var b strings.Builder
	fmt.Fprintf(&b, "\"\"\"Tests of %s approved with ticoder.\"\"\"\n", entry)
	fmt.Fprintf(&b, "from %s import *  # noqa: F401,F403\n", module)
	if len(approved) == 0 {
		b.WriteString("\n# No test was approved.\n")
	}
	fn := moduleName(entry)
	for i, t := range approved {
		writeTestFunction(&b, fmt.Sprintf("test_%s_%d", fn, i+1), t)
	}
	writeRejected(&b, rejected)
	b.WriteString(runWithoutPytest)
	return b.String(), len(approved)
}

// writeTestFunction writes test t as the pytest function name, after two
// blank lines.
func writeTestFunction(b *strings.Builder, name string, t execute.Test) {
	fmt.Fprintf(b, "\n\ndef %s():\n", name)
	for _, line := range strings.Split(strings.TrimRight(reprQuotes(t.String()), "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString("    " + line + "\n")
	}
}

// writeRejected lists the rejected tests as comments.
func writeRejected(b *strings.Builder, rejected []execute.Test) {
	if len(rejected) == 0 {
		return
	}
	b.WriteString("\n\n# Tests you rejected (they do not match your intent):\n")
	for _, t := range rejected {
		for _, line := range strings.Split(strings.TrimRight(reprQuotes(t.String()), "\n"), "\n") {
			b.WriteString("#   " + line + "\n")
		}
	}
}

// runWithoutPytest ends an exported test file: `python3 test_NAME.py` runs
// its tests where pytest is not installed (pytest ignores it).
const runWithoutPytest = `

if __name__ == "__main__":
    # Without pytest: python3 THIS_FILE runs the tests above.
    import sys
    import traceback

    tests = [f for n, f in list(globals().items()) if n.startswith("test_") and callable(f)]
    failed = 0
    for t in tests:
        try:
            t()
        except Exception:
            failed += 1
            print("FAILED", t.__name__)
            traceback.print_exc()
    print("%d of %d tests passed" % (len(tests) - failed, len(tests)))
    sys.exit(1 if failed else 0)
`

// CheckExport runs each test function of ex.Tests against ex.Code in the
// sandbox and records the outcome in ex.
func CheckExport(ctx context.Context, r execute.Runner, ex *api.Export) error {
	arg := runTestsArg{Code: ex.Code, CodeFile: ex.CodeFile, TestFile: ex.TestFile, Tests: ex.Tests}
	out, err := runTestsFunc.Call(ctx, r, arg)
	if err != nil {
		return fmt.Errorf("check %s against %s: %w", ex.TestFile, ex.CodeFile, err)
	}
	ex.Checked = true
	ex.Failures = nil
	if out.Error != "" {
		ex.Failures = append(ex.Failures, out.Error)
	}
	for _, r := range out.Results {
		if !r.OK {
			ex.Failures = append(ex.Failures, r.Name+": "+r.Error)
		}
	}
	ex.Passed = len(ex.Failures) == 0
	return nil
}
