package mcpserver

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioTransport returns the transport of `ticoder mcp`: MCP on stdin and
// stdout, where the end of stdin ends the session only once every request
// read before it has been answered. So a script may write its requests and
// close its end at once (printf … | ticoder mcp) and still get every
// answer. A request the server sends after the end of stdin (a question
// for the human) cannot be answered; then the session ends at once.
func StdioTransport() mcp.Transport { return &drainTransport{inner: &mcp.StdioTransport{}} }

// drainTransport wraps a transport's connections in drainConn.
type drainTransport struct{ inner mcp.Transport }

// Connect connects the inner transport.
func (t *drainTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainConn{Connection: c, pending: map[jsonrpc.ID]bool{}, wake: make(chan struct{}, 1)}, nil
}

// drainConn holds back the end of its input until the requests it read
// are answered. It is safe for concurrent use, as mcp.Connection must be.
type drainConn struct {
	mcp.Connection
	wake chan struct{}

	mu      sync.Mutex
	pending map[jsonrpc.ID]bool // requests read and not yet answered
	ended   bool                // the input ended
	stuck   bool                // a request went out after the input ended
}

// Read returns the next message; at the end of the input it first waits
// until nothing read is left unanswered (or ctx ends).
func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			c.pending[req.ID] = true
			c.mu.Unlock()
		}
		return msg, nil
	}
	if !errors.Is(err, io.EOF) {
		return nil, err
	}
	c.mu.Lock()
	c.ended = true
	for len(c.pending) > 0 && !c.stuck {
		c.mu.Unlock()
		select {
		case <-c.wake:
		case <-ctx.Done():
			return nil, err
		}
		c.mu.Lock()
	}
	c.mu.Unlock()
	return nil, err
}

// Write writes msg and notes the answers and the requests going out.
func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	c.mu.Lock()
	switch m := msg.(type) {
	case *jsonrpc.Response:
		delete(c.pending, m.ID)
	case *jsonrpc.Request:
		if m.IsCall() && c.ended {
			c.stuck = true
		}
	}
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	return err
}
