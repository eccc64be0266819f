package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/ticoder/ticoder/internal/atomicfile"
	"github.com/ticoder/ticoder/internal/interact"
)

// sessionFile keeps a `ticoder run` conversation on disk while the user
// answers, so that the answers survive quitting, Ctrl-C or a crash
// (--resume takes it up). It is made on the first save; not safe for
// concurrent use.
type sessionFile struct {
	// path is the file; empty until the first save, which names a new one
	// in sessionsDir after name and the time.
	path string
	name string
	// saved reports that the file holds the conversation.
	saved bool
}

// save writes the conversation to the file (atomically) once it has an
// answer. A failure is logged, not returned: the questions go on.
func (f *sessionFile) save(c *interact.Conversation) {
	if len(c.State("").History) == 0 && f.path == "" {
		return
	}
	if err := f.write(c); err != nil {
		slog.Warn("cannot keep the session file; the answers will be lost if run stops", "err", err)
		return
	}
	f.saved = true
}

func (f *sessionFile) write(c *interact.Conversation) error {
	data, err := c.MarshalJSON()
	if err != nil {
		return err
	}
	if f.path == "" {
		dir, err := sessionsDir()
		if err != nil {
			return err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		name := f.name
		if name == "" {
			name = "run"
		}
		f.path = filepath.Join(dir, fmt.Sprintf("%s-%s-%d.json", name, time.Now().Format("20060102-150405"), os.Getpid()))
	}
	return atomicfile.Write(f.path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// hint says where the answers are kept and how to resume, or "" when no
// file was saved.
func (f *sessionFile) hint(c *interact.Conversation) string {
	if !f.saved {
		return ""
	}
	what := fmt.Sprintf("your %d answers are", len(c.State("").History))
	if len(c.State("").History) == 1 {
		what = "your answer is"
	}
	return fmt.Sprintf("%s kept in %s: resume with ticoder run --resume %s", what, f.path, f.path)
}

// remove deletes the file (a new one, or the one resumed) once the code is
// written.
func (f *sessionFile) remove() {
	if f.path != "" {
		_ = os.Remove(f.path)
	}
}

// sessionsDir returns the directory that keeps run's session files, beside
// the runs' directories: $XDG_DATA_HOME/ticoder/sessions, else
// ~/.local/share/ticoder/sessions.
func sessionsDir() (string, error) {
	runs, err := runsDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(runs), "sessions"), nil
}
