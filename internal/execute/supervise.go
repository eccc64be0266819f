package execute

import (
	"context"
	"os"
	"time"
)

// What a Driver's package needs to supervise its worker processes as the
// Python pool supervises its own (worker.go).

// ErrWorkerDead means a worker process is gone or stopped answering; the
// request it was serving must be retried elsewhere or reported as a crash.
// A driver wraps its workers' failures with it.
var ErrWorkerDead = errWorkerDead

// CancelReads makes reads of f fail once ctx is done (it sets the read
// deadline to now), until stop is called. stop waits for a callback already
// under way, so that it cannot cut short a later read of another request.
// Reads set their deadline with ArmDeadline.
func CancelReads(ctx context.Context, f *os.File) (stop func()) { return cancelReads(ctx, f) }

// ArmDeadline sets f's read deadline for a read that must also end when ctx
// is done (see CancelReads): when ctx is already done it fails instead, so
// whichever runs first, a cancellation is never overwritten by the read's
// own, later deadline.
func ArmDeadline(ctx context.Context, f *os.File, deadline time.Time) error {
	return armDeadline(ctx, f, deadline)
}

// CapWriter keeps the first bytes written to it (a worker's stderr, for the
// error that reports its death; a program's output) and drops the rest. It
// is safe for concurrent use.
type CapWriter struct{ c capWriter }

// NewCapWriter returns a CapWriter that keeps max bytes.
func NewCapWriter(max int) *CapWriter { return &CapWriter{c: capWriter{max: max}} }

// Write keeps what still fits of p and reports all of it written.
func (w *CapWriter) Write(p []byte) (int, error) { return w.c.Write(p) }

// String returns what was kept.
func (w *CapWriter) String() string { return w.c.String() }
