package mcpserver

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notifier is a progress.Reporter that sends MCP progress notifications
// for one tool call. Progress only grows across the steps of the call, as
// the protocol requires; notifications come at most every interval, and
// always at a step's start and end. A nil *notifier (the call carries no
// progress token) reports nothing. It is safe for concurrent use.
type notifier struct {
	ctx      context.Context
	ss       *mcp.ServerSession
	token    any
	interval time.Duration

	mu          sync.Mutex
	label       string
	base, done  int // progress before the step, and within it
	total, sent int
	last        time.Time
}

// newNotifier returns the reporter of a call, or nil when the call asked
// for no progress.
func newNotifier(ctx context.Context, req *mcp.CallToolRequest) *notifier {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return nil
	}
	return &notifier{ctx: ctx, ss: req.Session, token: tok, interval: 250 * time.Millisecond, sent: -1}
}

// Start begins a step of total units.
func (n *notifier) Start(label string, total int) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.base += n.done + 1 // the step's start counts, so progress grows
	n.done, n.total, n.label = 0, total, label
	n.send(true)
}

// Add records n more units done.
func (n *notifier) Add(k int) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.done += k
	n.send(n.done >= n.total)
}

// Finish ends the step.
func (n *notifier) Finish() {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.done < n.total {
		n.done = n.total
	}
	n.send(true)
}

// Note sends a message with one more unit of progress (a question asked or
// answered).
func (n *notifier) Note(msg string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.base += n.done + 1
	n.done, n.total, n.label = 0, 0, msg
	n.send(true)
}

// send notifies the client if progress grew and force or the interval
// passed; n.mu is held. A failure (the client went away) is only logged by
// the SDK: the call's context ends the work.
func (n *notifier) send(force bool) {
	p := n.base + n.done
	if p <= n.sent || (!force && time.Since(n.last) < n.interval) {
		return
	}
	n.sent, n.last = p, time.Now()
	params := &mcp.ProgressNotificationParams{ProgressToken: n.token, Progress: float64(p), Message: n.label}
	if n.total > 0 {
		params.Total = float64(n.base + n.total)
	}
	_ = n.ss.NotifyProgress(n.ctx, params)
}
