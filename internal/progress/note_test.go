package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestWithNote: the note follows the label when a phase starts and, on a
// Describer, replaces it when the note changes (looked at once a second at
// most); a Reporter that cannot be relabelled keeps the first note.
func TestWithNote(t *testing.T) {
	clock := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	var note string
	cases := []struct {
		name string
		make func(*bytes.Buffer) Reporter
		// want and wantNone are checked on everything written.
		want, wantNone []string
	}{
		{"lines", func(b *bytes.Buffer) Reporter {
			l := NewLines(b, 0)
			l.now = now
			return l
		}, []string{"checking [1 worker]: 4 to do", "checking [2 workers]: 2/4", "checking [2 workers]: done"}, []string{"[3 workers]"}},
		{"no Describer", func(b *bytes.Buffer) Reporter { return linesOnly{NewLines(b, 0)} },
			[]string{"checking [1 worker]: 4 to do", "checking [1 worker]: 2/4"}, []string{"[2 workers]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			note = "1 worker"
			r := WithNote(c.make(&buf), func() string { return note })
			r.(*noted).now = now
			r.Start("checking", 4)
			note = "2 workers"
			clock = clock.Add(2 * time.Second)
			r.Add(1) // relabels; this line has the old label
			r.Add(1)
			note = "3 workers" // within a second: not looked at
			r.Add(1)
			r.Add(1)
			r.Finish()
			got := buf.String()
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
			for _, w := range c.wantNone {
				if strings.Contains(got, w) {
					t.Errorf("output has %q:\n%s", w, got)
				}
			}
		})
	}
}

// linesOnly hides Lines' Describe.
type linesOnly struct{ l *Lines }

func (o linesOnly) Start(label string, total int) { o.l.Start(label, total) }
func (o linesOnly) Add(n int)                     { o.l.Add(n) }
func (o linesOnly) Finish()                       { o.l.Finish() }

// TestNotice: a notice shows beside the current phase, on a bar at once
// (its clock redrawn) and in lines once an interval; with no phase on,
// Notice says so and shows nothing.
func TestNotice(t *testing.T) {
	const wait = "waiting for the model at http://127.0.0.1:9/v1, no answer yet (7s)"
	clock := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		make func(*bytes.Buffer) Noticer
		want string
	}{
		{"bar", func(b *bytes.Buffer) Noticer {
			bar := NewBar(b)
			bar.throttle = 0
			return bar
		}, "gen: " + wait},
		{"lines", func(b *bytes.Buffer) Noticer {
			l := NewLines(b, time.Second)
			l.now = func() time.Time { return clock }
			return l
		}, "gen: 0/3 (0%), 7s elapsed; " + wait},
		{"lines with a note", func(b *bytes.Buffer) Noticer {
			l := NewLines(b, time.Second)
			l.now = func() time.Time { return clock }
			return WithNote(l, func() string { return "1 worker" }).(Noticer)
		}, "gen [1 worker]: 0/3 (0%), 7s elapsed; " + wait},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			n := c.make(&buf)
			if n.Notice(wait) {
				t.Error("Notice before Start reports a phase")
			}
			if buf.Len() > 0 {
				t.Errorf("Notice before Start wrote %q", buf.String())
			}
			r := n.(Reporter)
			r.Start("gen", 3)
			clock = clock.Add(7 * time.Second)
			if !n.Notice(wait) {
				t.Error("Notice during a phase reports none")
			}
			n.Notice("")
			r.Finish()
			if got := buf.String(); !strings.Contains(got, c.want) {
				t.Errorf("output lacks %q:\n%q", c.want, got)
			}
			clock = clock.Add(-7 * time.Second)
		})
	}
}
