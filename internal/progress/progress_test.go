package progress

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/testutil"
)

// TestBarFinishEarly: a phase that ends early (an error, Ctrl-C) is not
// drawn as 100%; a complete one is.
func TestBarFinishEarly(t *testing.T) {
	cases := []struct {
		name     string
		add      int
		want     string
		wantNone string
	}{
		{"interrupted", 2, "stopped at 2 of 5", "100%"},
		{"complete", 5, "100%", "stopped"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			b := NewBar(&buf)
			b.Start("eval", 5)
			b.Add(c.add)
			b.Finish()
			b.Finish() // a second Finish does nothing
			got := buf.String()
			if !strings.Contains(got, c.want) || strings.Contains(got, c.wantNone) {
				t.Errorf("bar output %q: want %q and no %q", got, c.want, c.wantNone)
			}
		})
	}
}

// TestTransientBar: a transient bar erases itself when its phase completes
// and leaves nothing after; one that ends early stays, saying where it
// stopped.
func TestTransientBar(t *testing.T) {
	cases := []struct {
		name     string
		add      int
		suffix   string
		newlines int
	}{
		{"complete", 5, "\r\x1b[2K", 0},
		{"interrupted", 2, "stopped at 2 of 5\n", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			b := NewTransientBar(&buf)
			b.Start("run tests", 5)
			b.Add(c.add)
			b.Finish()
			b.Finish()
			got := buf.String()
			if !strings.HasSuffix(got, c.suffix) || strings.Count(got, c.suffix) != 1 {
				t.Errorf("bar output %q: want it to end with %q, once", got, c.suffix)
			}
			if n := strings.Count(got, "\n"); n != c.newlines {
				t.Errorf("bar output %q: %d line ends, want %d", got, n, c.newlines)
			}
		})
	}
}

// fakeClock advances by step on every reading.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	c.t = c.t.Add(c.step)
	return c.t
}

func TestLines(t *testing.T) {
	cases := []struct {
		name  string
		step  time.Duration // clock advance per reading
		adds  int
		total int
		want  []string
	}{
		{
			name: "fast work writes only the first and last line", step: 100 * time.Millisecond, adds: 30, total: 30,
			want: []string{"check: 30 to do", "check: done, 30 in 3.1s"},
		},
		{
			name: "slow work writes a line per interval", step: 3 * time.Second, adds: 4, total: 4,
			want: []string{
				"check: 4 to do",
				"check: 2/4 (50%), 6s elapsed, about 6s left",
				"check: done, 4 in 15s",
			},
		},
		{
			name: "stopped early", step: time.Second, adds: 1, total: 4,
			want: []string{"check: 4 to do", "check: stopped at 1 of 4 after 2s"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			l := NewLines(&buf, LineInterval)
			clk := &fakeClock{t: time.Unix(0, 0), step: c.step}
			l.now = clk.now
			l.Start("check", c.total)
			for range c.adds {
				l.Add(1)
			}
			l.Finish()
			l.Add(1) // after Finish: ignored
			got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			if strings.Contains(buf.String(), "\r") {
				t.Errorf("lines contain a carriage return: %q", buf.String())
			}
		})
	}
}

func TestNewChooses(t *testing.T) {
	var buf bytes.Buffer
	if _, ok := New(&buf, true).(Nop); !ok {
		t.Errorf("New(quiet) is not Nop")
	}
	if _, ok := New(&buf, false).(*Lines); !ok {
		t.Errorf("New(buffer) is not Lines")
	}
	f, err := os.CreateTemp(t.TempDir(), "log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, ok := New(f, false).(*Lines); !ok {
		t.Errorf("New(a regular file) is not Lines")
	}
}

// TestNewOnTerminal: on a terminal New draws a bar redrawn in place.
func TestNewOnTerminal(t *testing.T) {
	term := testutil.OpenTerminal(t, 24, 80)
	r := New(term.TTY, false)
	if _, ok := r.(*Bar); !ok {
		t.Fatalf("New(terminal) is %T, want *Bar", r)
	}
	r.Start("eval", 3)
	for range 3 {
		r.Add(1)
		time.Sleep(120 * time.Millisecond) // past the bar's redraw throttle
	}
	r.Finish()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(term.Output(), "100%") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	out := term.Output()
	if !strings.Contains(out, "\r") || !strings.Contains(out, "100%") || !strings.Contains(out, "(3/3") {
		t.Errorf("terminal output %q: want a bar redrawn in place up to 100%% (3/3)", out)
	}
}
