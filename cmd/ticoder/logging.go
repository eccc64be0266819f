package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"sync"

	"github.com/spf13/cobra"
)

// logHandler writes log records as text to stderr. Unless verbose, it shows
// each warning or info message once and counts the repeats, which Flush
// reports in one line each: a run over 164 problems that all come back
// short says so once, with the count, instead of 164 times.
type logHandler struct {
	slog.Handler
	state *logState
}

// logState is shared by a handler and those WithAttrs and WithGroup derive.
type logState struct {
	mu sync.Mutex
	w  io.Writer
	// every shows every record, repeats included.
	every bool
	// repeats counts, by message, the records held back after the first.
	repeats map[string]int
}

// batchAnnotation marks a command that runs through a batch of work (a
// dataset, a samples file), whose repeated warnings are summarised; a
// server's log keeps every line.
const batchAnnotation = "ticoder-batch"

// batch marks cmd and its subcommands as batch commands.
func batch(cmd *cobra.Command) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[batchAnnotation] = "true"
	return cmd
}

// isBatch reports whether cmd or a command above it is marked by batch.
func isBatch(cmd *cobra.Command) bool {
	for c := cmd; c != nil; c = c.Parent() {
		if c.Annotations[batchAnnotation] == "true" {
			return true
		}
	}
	return false
}

// newLogHandler returns a handler writing to w: warnings and errors with
// repeats summarised, or, when verbose (-v: debug records too) or every,
// every record as it comes.
func newLogHandler(w io.Writer, verbose, every bool) *logHandler {
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelDebug
	}
	return &logHandler{
		Handler: slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}),
		state:   &logState{w: w, every: verbose || every, repeats: map[string]int{}},
	}
}

// Handle writes r unless it repeats an earlier message below error level.
func (h *logHandler) Handle(ctx context.Context, r slog.Record) error {
	if !h.state.every && r.Level < slog.LevelError && h.state.seen(r.Message) {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

// seen reports whether msg was logged before, counting it if so.
func (s *logState) seen(msg string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.repeats[msg]
	if ok {
		s.repeats[msg] = n + 1
	} else {
		s.repeats[msg] = 0
	}
	return ok
}

// WithAttrs returns a handler with attrs that shares h's counts.
func (h *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &logHandler{Handler: h.Handler.WithAttrs(attrs), state: h.state}
}

// WithGroup returns a handler with a group that shares h's counts.
func (h *logHandler) WithGroup(name string) slog.Handler {
	return &logHandler{Handler: h.Handler.WithGroup(name), state: h.state}
}

// Flush writes one line per message that was held back, with the count, and
// resets the counts. It is safe on a nil handler.
func (h *logHandler) Flush() {
	if h == nil {
		return
	}
	s := h.state
	s.mu.Lock()
	defer s.mu.Unlock()
	msgs := make([]string, 0, len(s.repeats))
	for m, n := range s.repeats {
		if n > 0 {
			msgs = append(msgs, m)
		}
	}
	sort.Strings(msgs)
	for _, m := range msgs {
		n := s.repeats[m]
		times := "times"
		if n == 1 {
			times = "time"
		}
		fmt.Fprintf(s.w, "ticoder: %q was logged %d more %s (not shown; -v shows each)\n", m, n, times)
	}
	s.repeats = map[string]int{}
}
