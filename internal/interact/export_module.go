package interact

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/project"
)

// exportModule exports the chosen candidate of a session on a function
// inside a project's module: NAME.py (the function), NAME.patch (the
// module's diff, relative to the project's root) and test_NAME.py (the
// approved tests, importing from the real module); with check, the tests
// run in the sandbox against the patched module.
func (c *Conversation) exportModule(ctx context.Context, candidate int, check bool, rejected []execute.Test) (api.Export, error) {
	t := c.module
	program := c.sess.Spec().Candidates[candidate].Program
	if t.Java {
		return c.exportJava(ctx, candidate, program, check, rejected)
	}
	program = t.ModuleSource(program)
	fn := t.Function()
	tests, names := ModuleTests(t, c.sess.Approved(), rejected, true, nil)
	ex := api.Export{
		CodeFile: fn + ".py", Code: t.FunctionText(program), TestFile: "test_" + fn + ".py", Tests: tests, TestCount: len(names),
		Command: "python3 test_" + fn + ".py", PatchFile: fn + ".patch", Patch: project.UnifiedDiff(t.Rel, t.Source, program),
		Module: t.Module, Patched: program, Candidate: candidate,
	}
	if !check {
		return ex, nil
	}
	res, err := CheckModuleTests(ctx, c.runner, t, &program, ex.TestFile, ex.Tests, nil)
	if err != nil {
		return ex, err
	}
	ex.Checked, ex.Failures, ex.Passed = true, res.Failures, len(res.Failures) == 0
	return ex, nil
}

// testName matches the test functions a file defines.
var testName = regexp.MustCompile(`(?m)^(?:async\s+)?def\s+(test_\w+)\s*\(`)

// TestNames returns the names of the test functions that source defines.
func TestNames(source string) []string {
	var out []string
	for _, m := range testName.FindAllStringSubmatch(source, -1) {
		out = append(out, m[1])
	}
	return out
}

// ModuleTests renders approved tests of t's function as pytest functions
// (plain asserts: they also run without pytest) that import what they use
// from t's module. whole gives a file of its own (a docstring, the rejected
// tests as comments, and a way to run it without pytest); otherwise the
// text is to be appended to an existing file, whose test functions are
// taken (their names are not reused). It returns the text and the names of
// the new test functions.
func ModuleTests(t *ModuleTarget, approved, rejected []execute.Test, whole bool, taken []string) (string, []string) {
	var b strings.Builder
	if whole {
		fmt.Fprintf(&b, "\"\"\"Tests of %s.%s approved with ticoder.\"\"\"\n", t.Module, t.Name)
	} else {
		fmt.Fprintf(&b, "\n\n# Tests of %s.%s approved with ticoder.\n", t.Module, t.Name)
	}
	fmt.Fprintf(&b, "from %s import %s\n", t.Module, strings.Join(usedNames(t, approved), ", "))
	if len(approved) == 0 {
		b.WriteString("\n# No test was approved.\n")
	}
	base := "test_" + moduleName(t.Function())
	k := 1
	var names []string
	for _, test := range approved {
		for slices.Contains(taken, fmt.Sprintf("%s_%d", base, k)) {
			k++
		}
		names = append(names, fmt.Sprintf("%s_%d", base, k))
		test.Code, test.Setup = t.naturalCalls(test.Code), t.naturalCalls(test.Setup)
		writeTestFunction(&b, names[len(names)-1], test)
		k++
	}
	if whole {
		writeRejected(&b, rejected)
		b.WriteString(runWithoutPytest)
	}
	return b.String(), names
}

// usedNames returns the function and the module's other top-level names
// that the tests use.
func usedNames(t *ModuleTarget, tests []execute.Test) []string {
	first, _, _ := strings.Cut(t.Name, ".")
	out := []string{first}
	var code strings.Builder
	for _, test := range tests {
		code.WriteString(test.String() + "\n")
	}
	for _, n := range t.Names {
		if n == first || strings.HasPrefix(n, "test_") {
			continue
		}
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\b`).MatchString(code.String()) {
			out = append(out, n)
		}
	}
	return out
}

// ModuleTestResult is what CheckModuleTests found.
type ModuleTestResult struct {
	// Ran counts the test functions run; Failures names each that failed,
	// with why.
	Ran      int
	Failures []string
	// Python is the version of the interpreter that ran them.
	Python string
}

// CheckModuleTests runs the test functions names (all when empty) of
// tests, a test file's source, in the sandbox r runs programs in (the
// project's interpreter), with t's module taken from patched when not nil,
// else imported from the project as it is on disk.
func CheckModuleTests(ctx context.Context, r execute.Runner, t *ModuleTarget, patched *string, testFile, tests string, names []string) (ModuleTestResult, error) {
	arg := checkTestsArg{File: t.File, Module: t.Module, Names: names, Patched: patched, TestFile: testFile, Tests: tests}
	out, err := checkTestsFunc.Call(ctx, r, arg)
	if err != nil {
		return ModuleTestResult{}, fmt.Errorf("run %s: %w", testFile, err)
	}
	res := ModuleTestResult{Python: out.Python, Ran: len(out.Results)}
	if out.Error != "" {
		res.Failures = append(res.Failures, out.Error)
	}
	for _, x := range out.Results {
		if !x.OK {
			res.Failures = append(res.Failures, x.Name+": "+x.Error)
		}
	}
	return res, nil
}

// ProjectTests returns the approved tests to add to the project's tests
// file whose bytes are existing: a file of their own when existing is
// empty, else new test functions (with the imports they need) to append,
// named apart from existing's. It also returns the new functions' names.
func (c *Conversation) ProjectTests(existing string) (string, []string) {
	if strings.TrimSpace(existing) == "" {
		return ModuleTests(c.module, c.sess.Approved(), nil, true, nil)
	}
	text, names := ModuleTests(c.module, c.sess.Approved(), nil, false, TestNames(existing))
	if !strings.HasSuffix(existing, "\n") {
		text = "\n" + text
	}
	return text, names
}
