package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/interact"
)

// errFileChanged: the module changed on disk while the session ran, so
// nothing is written.
var errFileChanged = errors.New("changed since the run began")

// writeInPlace puts the chosen candidate into the module in place (every
// other byte unchanged but new top-level imports), appends the approved
// tests to the project's tests file, then runs the added tests once
// against the patched project in the sandbox and shows the result. If the
// module changed since the session began, nothing is written.
func writeInPlace(ctx context.Context, p *projectRun, conv *interact.Conversation, candidate int, out io.Writer) error {
	if p.java != nil {
		return writeJavaInPlace(ctx, p, conv, candidate, out)
	}
	ex, t, err := exportUnchanged(ctx, conv, candidate, true)
	if err != nil {
		return err
	}
	testsPath, err := p.testsFile()
	if err != nil {
		return err
	}
	existing, err := os.ReadFile(testsPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", testsPath, err)
	}
	added, names := conv.ProjectTests(string(existing))
	if err := writeKeepingMode(t.File, []byte(ex.Patched)); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(testsPath), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(testsPath), err)
	}
	tests := append(existing, added...)
	if err := writeKeepingMode(testsPath, tests); err != nil {
		return err
	}
	relTests, _ := filepath.Rel(p.proj.Root, testsPath)
	fmt.Fprintf(out, "\nWrote %s::%s in place and %s to %s.\n", t.Rel, t.Name, plural(len(names), "approved test"), relTests)
	if ex.Checked && !ex.Passed && conv.Session().Conflict() == 0 {
		fmt.Fprintf(out, "Checked in the sandbox before writing: %s\n", strings.Join(ex.Failures, "; "))
	}
	failed, err := runAddedTests(ctx, p, t, relTests, string(tests), names, out)
	if err == nil && failed > 0 && conv.Session().Conflict() == 0 {
		err = fmt.Errorf("%d of the added tests fail against the patched project", failed)
	}
	return err
}

// exportUnchanged exports candidate (checked with check) and returns it
// with the session's target, or errFileChanged when the target's file
// changed on disk since the session began.
func exportUnchanged(ctx context.Context, conv *interact.Conversation, candidate int, check bool) (api.Export, *interact.ModuleTarget, error) {
	ex, err := conv.Export(ctx, candidate, check)
	if err != nil {
		return ex, nil, err
	}
	t := conv.Module()
	now, err := os.ReadFile(t.File)
	if err != nil {
		return ex, t, fmt.Errorf("read %s again: %w", t.File, err)
	}
	if !bytes.Equal(now, []byte(t.Source)) {
		return ex, t, fmt.Errorf("%s %w: nothing was written; run again on the file as it is now", t.Rel, errFileChanged)
	}
	return ex, t, nil
}

// runAddedTests runs the added tests once against the project as it is
// now on disk, in a fresh sandbox with the project's interpreter, shows
// the result and returns how many failed.
func runAddedTests(ctx context.Context, p *projectRun, t *interact.ModuleTarget, relTests, tests string, names []string, out io.Writer) (int, error) {
	if len(names) == 0 {
		return 0, nil
	}
	pool, err := p.pool(ctx, 1, nil)
	if err != nil {
		return 0, err
	}
	defer pool.Close()
	res, err := interact.CheckModuleTests(ctx, pool, t, nil, filepath.Join(p.proj.Root, relTests), tests, names)
	if err != nil {
		return 0, err
	}
	who := fmt.Sprintf("%s (Python %s)", p.interp.Path, p.interp.VersionString())
	if len(res.Failures) == 0 {
		fmt.Fprintf(out, "Ran the %s against the patched project in the sandbox with %s: all pass.\n", plural(len(names), "added test"), who)
		return 0, nil
	}
	fmt.Fprintf(out, "Ran the %s against the patched project in the sandbox with %s: %d failed:\n  %s\n",
		plural(len(names), "added test"), who, len(res.Failures), strings.Join(res.Failures, "\n  "))
	return len(res.Failures), nil
}

// writeKeepingMode replaces path's content through a temporary file in
// its directory, keeping its permission bits (0644 for a new file).
func writeKeepingMode(path string, data []byte) error {
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".ticoder-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
