package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ticoder/ticoder/internal/demo"
)

// tmuxWindow is `ticoder run` in a tmux window of a fixed size, driven as a
// user would drive it.
type tmuxWindow struct {
	t      *testing.T
	tmux   string
	socket string
	w, h   int
}

// startRun builds the binary and starts `ticoder run ARGS` in a w×h tmux
// window, with its own data directory and cache; the window stays after
// the program exits. It skips the test without tmux.
func startRun(t *testing.T, dir string, w, h int, args ...string) *tmuxWindow {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (apt-get install tmux)")
	}
	bin := buildTicoder(t, dir)
	win := &tmuxWindow{t: t, tmux: tmux, socket: filepath.Join(dir, "tmux.sock"), w: w, h: h}
	// COLUMNS and LINES are what the program falls back on when the
	// terminal cannot say its size: the window's, not the caller's.
	cmd := "env XDG_DATA_HOME=" + filepath.Join(dir, "data") + " TERM=xterm-256color" +
		" COLUMNS=" + strconv.Itoa(w) + " LINES=" + strconv.Itoa(h) + " " + bin +
		" run " + strings.Join(args, " ") + " --cache " + filepath.Join(dir, "cache.db")
	win.run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), cmd, ";", "set-option", "-t", "t", "remain-on-exit", "on")
	t.Cleanup(func() { _ = exec.Command(tmux, "-S", win.socket, "kill-server").Run() })
	return win
}

// size is the pane's size as tmux reports it ("80x23"): failures show it,
// since the program lays its screen out for the size it is told.
func (win *tmuxWindow) size() string {
	win.t.Helper()
	return strings.TrimSpace(win.run("display-message", "-p", "-t", "t", "#{pane_width}x#{pane_height}"))
}

// run runs a tmux command on the window's server.
func (win *tmuxWindow) run(args ...string) string {
	win.t.Helper()
	b, err := exec.Command(win.tmux, append([]string{"-S", win.socket}, args...)...).CombinedOutput()
	if err != nil {
		win.t.Fatalf("tmux %v: %v\n%s", args, err, b)
	}
	return string(b)
}

// keys sends key names (Enter, Escape, y) to the window.
func (win *tmuxWindow) keys(keys ...string) {
	win.t.Helper()
	win.run(append([]string{"send-keys", "-t", "t"}, keys...)...)
}

// typeText types text literally.
func (win *tmuxWindow) typeText(text string) {
	win.t.Helper()
	win.run("send-keys", "-t", "t", "-l", text)
}

// screen waits until the window shows want and returns what it shows.
func (win *tmuxWindow) screen(want string) string {
	win.t.Helper()
	var s string
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		s = win.run("capture-pane", "-p", "-t", "t")
		if strings.Contains(s, want) {
			return s
		}
	}
	win.t.Fatalf("the screen never showed %q:\n%s", want, s)
	return ""
}

// scrollback returns what the window shows and what scrolled off its top.
func (win *tmuxWindow) scrollback() string {
	win.t.Helper()
	return win.run("capture-pane", "-p", "-t", "t", "-S", "-")
}

// fits checks that s, a screen, has no more lines than the window and that
// no line was cut at its right edge ("…" at a full line's end).
func (win *tmuxWindow) fits(s string) {
	win.t.Helper()
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > win.h {
		win.t.Errorf("%d lines on a %d-line screen", len(lines), win.h)
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > win.w {
			win.t.Errorf("a line of %d columns: %q", n, l)
		}
		if strings.HasSuffix(l, "…") && utf8.RuneCountInString(l) == win.w {
			win.t.Errorf("a line cut at the right edge: %q", l)
		}
	}
}

// TestRunTerminal80x24 runs the real binary's terminal UI in an 80×24 tmux
// window, as a user would: the question, its key line and, after an answer
// and q, the way to write the code must all be on the screen, no line wider
// than 80 columns; esc asks before discarding the answer, and enter writes
// the files. No progress bar is left above what run prints at the end. It
// needs tmux (apt-get install tmux) and skips without it.
func TestRunTerminal80x24(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	win := startRun(t, dir, 80, 24, "--demo", "text_match", "--out", out)
	s := win.screen("Question 1")
	win.fits(s)
	for _, want := range []string{"y yes", "q stop asking", "ctrl+c quit", "samples left ("} {
		if !strings.Contains(s, want) {
			t.Errorf("question screen (pane %s) lacks %q:\n%s", win.size(), want, s)
		}
	}
	win.keys("y")
	win.screen("Question 2")
	win.keys("q")
	s = win.screen("enter write the code and tests")
	win.fits(s)
	if !strings.Contains(s, "esc quit without writing") || !strings.Contains(s, "▸ ") {
		t.Errorf("final screen:\n%s", s)
	}
	win.keys("Escape")
	s = win.screen("Quit without writing the code?")
	win.fits(s)
	win.keys("Enter")
	s = win.screen("Wrote ")
	if _, err := os.Stat(filepath.Join(out, "test_text_match.py")); err != nil {
		t.Errorf("after enter: %v\n%s", err, s)
	}
	if all := win.scrollback(); strings.Contains(all, "run tests") {
		t.Errorf("a progress bar is left above the end:\n%s", all)
	}
}

// TestRunTerminalJava80x24 answers the Java demo sorted_union in an 80×24
// tmux window and types a value for the third question: the whole stub and
// both answers show, nothing is cut at the right edge; after quitting no
// progress bar is left above run's message. It needs tmux and a JDK.
func TestRunTerminalJava80x24(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	p, err := demo.Get("sorted_union")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	win := startRun(t, dir, 80, 24, "--demo", "sorted_union", "--mode", "output", "--out", filepath.Join(dir, "out"))
	win.fits(win.screen("Question 1"))
	win.keys("y")
	win.screen("Question 2")
	win.keys("y")
	win.screen("Question 3")
	win.keys("o")
	win.typeText("new int[] {1, 2}")
	s := win.screen("value> new int[] {1, 2}")
	win.fits(s)
	for _, l := range strings.Split(strings.TrimRight(p.Stub, "\n"), "\n") {
		if !strings.Contains(s, l) {
			t.Errorf("the stub's line %q does not show:\n%s", l, s)
		}
	}
	if !strings.Contains(s, "Your answers:\n  1. yes") || !strings.Contains(s, "  2. yes") {
		t.Errorf("the two answers do not show:\n%s", s)
	}
	win.keys("Escape")
	win.screen("y yes")
	win.keys("q")
	win.fits(win.screen("enter write the code and tests"))
	win.keys("Escape")
	win.screen("Quit without writing the code?")
	win.keys("Escape")
	s = win.screen("nothing written")
	if all := win.scrollback(); strings.Contains(all, "run tests") {
		t.Errorf("a progress bar is left above the end:\n%s", all)
	}
}

// buildTicoder builds the binary into dir and returns its path; it skips
// the test with -short.
func buildTicoder(t *testing.T, dir string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if bin := os.Getenv("TICODER_TEST_BINARY"); bin != "" {
		return bin // built beforehand (.ci/run, for a user without a build cache)
	}
	bin := filepath.Join(dir, "ticoder")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}
