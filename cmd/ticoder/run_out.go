package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ticoder/ticoder/api"
)

// runDestination is where `ticoder run` writes NAME.py and test_NAME.py:
// --out, or a new directory per run.
type runDestination struct {
	// dir is --out; empty means a new directory under runs.
	dir string
	// runs holds the per-run directories when dir is empty.
	runs string
	// now returns the time that names a per-run directory.
	now func() time.Time
}

// destination checks, before the first question, that run can write its
// files, so that a bad place cannot lose the answers: --out is made if
// needed and its files are not overwritten without --force; without --out
// the runs directory is made.
func (o *runOptions) destination(names api.Export) (*runDestination, error) {
	d := &runDestination{dir: o.out, now: time.Now}
	if o.out != "" {
		for _, name := range []string{names.CodeFile, names.TestFile, names.PatchFile} {
			if name == "" {
				continue
			}
			p := filepath.Join(o.out, name)
			if _, err := os.Stat(p); err == nil && !o.force {
				return nil, usagef("run: %s exists; choose another --out directory, or pass --force to overwrite it", p)
			}
		}
		if err := os.MkdirAll(o.out, 0o755); err != nil {
			return nil, fmt.Errorf("create the output directory: %w (choose another --out)", err)
		}
		return d, nil
	}
	runs, err := runsDir()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(runs, 0o755); err != nil {
		return nil, fmt.Errorf("create the directory for the runs' files: %w (choose a directory with --out)", err)
	}
	d.runs = runs
	return d, nil
}

// paths returns the files to write. Without --out it makes a new directory,
// NAME-YYYYMMDD-HHMMSS (then -2, -3, … if that exists), so that no run
// overwrites another's files.
func (d *runDestination) paths(names api.Export) (code, test string, err error) {
	dir := d.dir
	if dir == "" {
		if dir, err = newRunDir(d.runs, strings.TrimSuffix(names.CodeFile, filepath.Ext(names.CodeFile)), d.now()); err != nil {
			return "", "", err
		}
	}
	return filepath.Join(dir, names.CodeFile), filepath.Join(dir, names.TestFile), nil
}

// newRunDir makes and returns a directory in parent named after name and
// now that did not exist before.
func newRunDir(parent, name string, now time.Time) (string, error) {
	if name == "" {
		name = "run"
	}
	base := filepath.Join(parent, name+"-"+now.Format("20060102-150405"))
	for i := 1; ; i++ {
		dir := base
		if i > 1 {
			dir = fmt.Sprintf("%s-%d", base, i)
		}
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, fs.ErrExist) || i == 1000 {
			return "", fmt.Errorf("create a directory for this run's files: %w (choose a directory with --out)", err)
		}
	}
}

// runsDir returns the directory that holds a directory per run:
// $XDG_DATA_HOME/ticoder/runs, else ~/.local/share/ticoder/runs.
func runsDir() (string, error) {
	dir, err := dataHome()
	if err != nil {
		return "", fmt.Errorf("no home directory to keep the run's files in (%w): choose a directory with --out", err)
	}
	return filepath.Join(dir, "runs"), nil
}
