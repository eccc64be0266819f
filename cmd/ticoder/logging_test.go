package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestLogRepeatsSummarised: 164 identical warnings become one line and a
// count; -v shows each.
func TestLogRepeatsSummarised(t *testing.T) {
	cases := []struct {
		name    string
		verbose bool
		want    int // lines
		summary bool
	}{
		{"quiet by default", false, 4, true},
		{"every one with -v", true, 166, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			h := newLogHandler(&buf, c.verbose, false)
			log := slog.New(h).With("cmd", "gen")
			for i := range 164 {
				log.Warn("fewer samples than asked for", "task", i, "got", 3, "asked", 100)
			}
			log.Warn("another warning")
			log.Error("an error")
			h.Flush()
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if len(lines) != c.want {
				t.Errorf("%d lines, want %d:\n%s", len(lines), c.want, buf.String())
			}
			summary := `ticoder: "fewer samples than asked for" was logged 163 more times (not shown; -v shows each)`
			if got := strings.Contains(buf.String(), summary); got != c.summary {
				t.Errorf("summary line present = %v, want %v:\n%s", got, c.summary, buf.String())
			}
		})
	}
	var nilHandler *logHandler
	nilHandler.Flush() // safe on nil
}
