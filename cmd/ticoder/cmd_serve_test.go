package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/testutil"
)

// syncBuffer is a bytes.Buffer that a server goroutine may write while the
// test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestServe starts the server on a free port, runs a demo session through
// the API client and stops it as Ctrl-C would.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	o := &serveOptions{addr: "127.0.0.1:0", demo: true, ready: func(u string) { urls <- u }}
	o.flags = runDefaults(t).flags
	g := runGlobals(t) // here: t.Fatal ends only the test's own goroutine
	var errw syncBuffer
	done := make(chan error, 1)
	go func() { done <- runServe(ctx, g, o, &errw) }()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("serve stopped: %v\n%s", err, errw.String())
	case <-time.After(time.Minute):
		t.Fatalf("serve did not start listening in a minute:\n%s", errw.String())
	}
	c := api.NewClient(url, nil)
	info, err := c.Info(ctx)
	if err != nil || len(info.Demos) < 8 || info.Model != "" {
		t.Fatalf("info %+v, %v", info, err)
	}
	s, err := c.Create(ctx, api.CreateSession{Demo: "count_vowels"})
	if err != nil || s.Question == nil {
		t.Fatalf("create: %+v, %v", s, err)
	}
	cancel()
	if err := testutil.Receive(t, done, time.Minute, "serve to stop after Ctrl-C"); err != nil {
		t.Errorf("serve after Ctrl-C: %v", err)
	}
	if !strings.Contains(errw.String(), "serving on "+url) {
		t.Errorf("stderr: %s", errw.String())
	}
}

func TestServeFlags(t *testing.T) {
	o := &serveOptions{addr: "127.0.0.1:0", demo: true}
	o.flags = runDefaults(t).flags
	o.flags.model = "openai:gpt-4o-mini"
	err := runServe(context.Background(), runGlobals(t), o, &bytes.Buffer{})
	if _, ok := err.(usageError); !ok || !strings.Contains(err.Error(), "--demo") {
		t.Errorf("--demo with --model: %v, want a usage error", err)
	}
}

// TestServeUntilDoneEndsStreams is the regression test for a shutdown that
// failed with "context deadline exceeded" (TestMCPHTTPToken in CI): a
// request that only ends with its context — an MCP client's event stream —
// held http.Server.Shutdown for its whole timeout. Requests in flight now
// get requestGrace, then their contexts end, and the server stops cleanly.
func TestServeUntilDoneEndsStreams(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	streaming := make(chan struct{})
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		close(streaming)
		<-r.Context().Done() // an event stream: ends only with its request
	})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- serveUntilDone(ctx, hs, ln, io.Discard) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	testutil.Receive(t, streaming, 10*time.Second, "the stream to start")
	cancel()
	if err := testutil.Receive(t, done, 30*time.Second, "the server to stop"); err != nil {
		t.Errorf("serveUntilDone with an open stream: %v", err)
	}
}

// TestServeUntilDoneClosesStragglers is the regression test for the same
// failure with another cause: a client's spare connection that never sends
// a request stays "new", and http.Server.Shutdown waits 5 s for those,
// longer than shutdownWait; a handler that ignores its context never ends.
// Ctrl-C still stops the server, without an error, by closing them (the
// old code failed with "shut down: context deadline exceeded", or raced
// its own 5 s timeout against Shutdown's 5 s for new connections).
func TestServeUntilDoneClosesStragglers(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		connect func(t *testing.T, addr string) io.Closer
	}{
		{"a connection without a request", func(http.ResponseWriter, *http.Request) {}, func(t *testing.T, addr string) io.Closer {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}},
		{"a handler that ignores its context", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-release
		}, func(t *testing.T, addr string) io.Closer {
			resp, err := http.Get("http://" + addr + "/stuck")
			if err != nil {
				t.Fatal(err)
			}
			return resp.Body
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			// The server must hold the connection before Ctrl-C, or there
			// is nothing to close.
			held := make(chan struct{}, 1)
			hs := &http.Server{Handler: tc.handler, ConnState: func(_ net.Conn, st http.ConnState) {
				if st == http.StateNew {
					select {
					case held <- struct{}{}:
					default:
					}
				}
			}}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			var out strings.Builder
			go func() { done <- serveUntilDone(ctx, hs, ln, &out) }()
			c := tc.connect(t, ln.Addr().String())
			defer c.Close()
			testutil.Receive(t, held, 10*time.Second, "the server to accept the connection")
			cancel()
			if err := testutil.Receive(t, done, 30*time.Second, "the server to stop"); err != nil {
				t.Errorf("serveUntilDone: %v", err)
			}
			if !strings.Contains(out.String(), "ticoder: stopped (closed connections that were still open)") {
				t.Errorf("output %q, want it to say the server stopped and closed what was still open", out.String())
			}
		})
	}
}

// TestServeModelWarning: serve says at start when the model's server does
// not accept connections, and says nothing when it does or when there is
// nothing to reach.
func TestServeModelWarning(t *testing.T) {
	up := httptest.NewServer(http.NotFoundHandler())
	defer up.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String() + "/v1"
	ln.Close() // nothing listens there now
	rec := t.TempDir()
	if err := os.WriteFile(filepath.Join(rec, "codes.jsonl"), []byte(`{"task_id": "x", "samples": ["pass"]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, model, warn string
	}{
		{"no model", "", ""},
		{"reachable", "vllm:m@" + up.URL + "/v1", ""},
		{"unreachable", "vllm:m@" + down, "cannot reach the model m at " + down},
		{"replay", "replay:" + rec, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &interact.Builder{}
			if tc.model != "" {
				prov, err := llm.OpenString(tc.model, llm.Options{})
				if err != nil {
					t.Fatal(err)
				}
				b.Generator = &interact.ModelGenerator{Provider: prov}
			}
			got := modelWarning(context.Background(), b, 10*time.Second)
			if tc.warn == "" && got != "" || tc.warn != "" && !strings.Contains(got, tc.warn) {
				t.Errorf("modelWarning = %q, want %q", got, tc.warn)
			}
		})
	}
}

// TestServeWarnsOfUnreachableModel: serve with a model nothing answers for
// starts, and says so on stderr before it says where it serves.
func TestServeWarnsOfUnreachableModel(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	o := &serveOptions{addr: "127.0.0.1:0", ready: func(u string) { ready <- u }}
	o.flags = runDefaults(t).flags
	o.flags.model = "vllm:m@" + down
	var errw syncBuffer
	done := make(chan error, 1)
	go func() { done <- runServe(ctx, runGlobals(t), o, &errw) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("serve stopped: %v\n%s", err, errw.String())
	case <-time.After(time.Minute):
		t.Fatalf("serve did not start listening in a minute:\n%s", errw.String())
	}
	cancel()
	testutil.Receive(t, done, time.Minute, "serve to stop after Ctrl-C")
	out := errw.String()
	warn, serving := strings.Index(out, "WARNING: cannot reach the model m at "+down), strings.Index(out, "serving on")
	if warn < 0 || serving < warn {
		t.Errorf("stderr lacks the warning before the address:\n%s", out)
	}
}
