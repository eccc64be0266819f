// Package pyunit runs the unit tests of ticoder's embedded Python files
// (the execution worker's package pyworker/, extract.py, inputs.py,
// agree.py, tools.py) from Go tests, with Debian's /usr/bin/python3, the
// interpreter that runs them in the sandbox.
//
// Those files are ticoder's own, trusted code: their tests run directly, not
// in the sandbox. Each test file imports the file it tests as a module, so
// every embedded file must import on its own (see the files' headers).
package pyunit

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Python is the interpreter the tests run with.
const Python = "/usr/bin/python3"

// Run runs the unittest files test_*.py of dir (relative to the calling
// test's package directory) with the directories in path on PYTHONPATH, and
// fails t with their output when any test fails. It skips t when
// /usr/bin/python3 is missing. The run has a deadline of two minutes.
func Run(t *testing.T, dir string, path ...string) {
	t.Helper()
	if _, err := os.Stat(Python); err != nil {
		t.Skipf("no %s: the Python unit tests need Debian's python3", Python)
	}
	abs := make([]string, 0, len(path)+1)
	for _, p := range append([]string{dir}, path...) {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatalf("python path %s: %v", p, err)
		}
		abs = append(abs, a)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// -B and a private TMPDIR: the tests write nothing into the tree.
	cmd := exec.CommandContext(ctx, Python, "-B", "-m", "unittest", "discover", "-s", abs[0], "-p", "test_*.py", "-t", abs[0])
	cmd.Env = append(os.Environ(), "PYTHONPATH="+strings.Join(abs, string(os.PathListSeparator)),
		"PYTHONDONTWRITEBYTECODE=1", "TMPDIR="+t.TempDir())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("python unit tests in %s: no result after 2 minutes:\n%s", dir, out.String())
	}
	if err != nil {
		t.Fatalf("python unit tests in %s: %v\n%s", dir, err, out.String())
	}
	if !strings.Contains(out.String(), "\nOK") || strings.Contains(out.String(), "Ran 0 tests") {
		t.Fatalf("python unit tests in %s: no OK line:\n%s", dir, out.String())
	}
	t.Logf("python unit tests in %s:\n%s", dir, out.String())
}
