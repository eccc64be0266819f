package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestRunTerminal80x24 runs the real binary's terminal UI in an 80×24 tmux
// window, as a user would: the question, its key line and, after an answer
// and q, the way to write the code must all be on the screen, no line wider
// than 80 columns; esc asks before discarding the answer, and enter writes
// the files. It needs tmux (apt-get install tmux) and skips without it.
func TestRunTerminal80x24(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (apt-get install tmux)")
	}
	dir := t.TempDir()
	bin := buildTicoder(t, dir)
	out := filepath.Join(dir, "out")
	socket := filepath.Join(dir, "tmux.sock")
	run := func(args ...string) string {
		t.Helper()
		b, err := exec.Command(tmux, append([]string{"-S", socket}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, b)
		}
		return string(b)
	}
	cmd := "env XDG_DATA_HOME=" + filepath.Join(dir, "data") + " TERM=xterm-256color " + bin +
		" run --demo text_match --out " + out + " --cache " + filepath.Join(dir, "cache.db")
	run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "80", "-y", "24", cmd, ";", "set-option", "-t", "t", "remain-on-exit", "on")
	t.Cleanup(func() { _ = exec.Command(tmux, "-S", socket, "kill-server").Run() })

	// screen waits until the pane shows want and returns it.
	screen := func(want string) string {
		t.Helper()
		var s string
		for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
			s = run("capture-pane", "-p", "-t", "t")
			if strings.Contains(s, want) {
				return s
			}
		}
		t.Fatalf("the screen never showed %q:\n%s", want, s)
		return ""
	}
	fits := func(s string) {
		t.Helper()
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		if len(lines) > 24 {
			t.Errorf("%d lines on a 24-line screen", len(lines))
		}
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n > 80 {
				t.Errorf("a line of %d columns: %q", n, l)
			}
		}
	}
	s := screen("Question 1")
	fits(s)
	for _, want := range []string{"y yes", "q stop asking", "ctrl+c quit", "samples left ("} {
		if !strings.Contains(s, want) {
			t.Errorf("question screen lacks %q:\n%s", want, s)
		}
	}
	run("send-keys", "-t", "t", "y")
	screen("Question 2")
	run("send-keys", "-t", "t", "q")
	s = screen("enter write the code and tests")
	fits(s)
	if !strings.Contains(s, "esc quit without writing") || !strings.Contains(s, "▸ ") {
		t.Errorf("final screen:\n%s", s)
	}
	run("send-keys", "-t", "t", "Escape")
	s = screen("Quit without writing the code?")
	fits(s)
	run("send-keys", "-t", "t", "Enter")
	s = screen("Wrote ")
	if _, err := os.Stat(filepath.Join(out, "test_text_match.py")); err != nil {
		t.Errorf("after enter: %v\n%s", err, s)
	}
}

// buildTicoder builds the binary into dir and returns its path; it skips
// the test with -short.
func buildTicoder(t *testing.T, dir string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(dir, "ticoder")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}
