package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/mcpserver"
	"github.com/ticoder/ticoder/internal/mcpserver/mcptest"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestMCPHTTP serves `ticoder mcp --http` in the test and reaches it with
// the SDK's Streamable HTTP client; requests for another host or from
// another site's page are refused, as serve refuses them.
func TestMCPHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, done := startMCPHTTP(ctx, t, &mcpOptions{http: "127.0.0.1:0"})
	if !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("url %s", url)
	}

	pool := testutil.Pool(t)
	p, err := demo.Get("second_largest")
	if err != nil {
		t.Fatal(err)
	}
	human := &mcptest.Human{Problem: p, Runner: pool}
	client := mcp.NewClient(&mcp.Implementation{Name: "ticoder-test", Version: "0"}, &mcp.ClientOptions{ElicitationHandler: human.Elicit})
	cctx, ccancel := context.WithTimeout(ctx, mcpWait)
	defer ccancel()
	cs, err := client.Connect(cctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "clarify", Arguments: mcpserver.SourceInput{Demo: p.Name}})
	if err != nil || res.IsError || !strings.Contains(fmt.Sprint(res.StructuredContent), "passed:true") {
		t.Errorf("clarify over HTTP: %v %+v", err, res)
	}
	cs.Close()

	for _, tc := range []struct {
		name, host, origin string
		status             int
	}{
		{"foreign host", "evil.example:80", "", http.StatusForbidden},
		{"foreign origin", "", "http://evil.example", http.StatusForbidden},
	} {
		req, _ := http.NewRequestWithContext(cctx, http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.host != "" {
			req.Host = tc.host
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(body), "ticoder:") {
			t.Errorf("%s: %d %s", tc.name, resp.StatusCode, body)
		}
	}
	cancel()
	if err := testutil.Receive(t, done, time.Minute, "the HTTP server to stop"); err != nil {
		t.Errorf("runMCP: %v", err)
	}
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// TestMCPHTTPToken: with --token every request needs it, as with serve.
func TestMCPHTTPToken(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const token = "mcp-test-token-0123456789"
	url, done := startMCPHTTP(ctx, t, &mcpOptions{http: "127.0.0.1:0", token: token})
	cctx, ccancel := context.WithTimeout(ctx, mcpWait)
	defer ccancel()
	for _, tc := range []struct {
		name  string
		token string
		ok    bool
	}{
		{"no token", "", false},
		{"wrong token", "mcp-test-token-wrong-0000", false},
		{"token", token, true},
	} {
		hc := &http.Client{Transport: http.DefaultTransport}
		if tc.token != "" {
			hc.Transport = bearer{tc.token, http.DefaultTransport}
		}
		client := mcp.NewClient(&mcp.Implementation{Name: "ticoder-test", Version: "0"}, nil)
		cs, err := client.Connect(cctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil)
		if err == nil {
			_, err = cs.ListTools(cctx, nil)
			cs.Close()
		}
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	cancel()
	if err := testutil.Receive(t, done, time.Minute, "the HTTP server to stop"); err != nil {
		t.Errorf("runMCP: %v", err)
	}
}

// startMCPHTTP runs `ticoder mcp` with o (and the default session flags)
// until ctx ends; it returns the endpoint's URL and where runMCP's error
// will come.
func startMCPHTTP(ctx context.Context, t *testing.T, o *mcpOptions) (string, <-chan error) {
	t.Helper()
	urls := make(chan string, 1)
	o.ready = func(u string) { urls <- u }
	o.flags = interactFlags{mode: "passfail", selectBy: "infogain", rankBy: "codet", questions: "both", timeout: 5 * time.Second}
	g := &globalOptions{cachePath: filepath.Join(t.TempDir(), "cache.db")}
	done := make(chan error, 1)
	go func() { done <- runMCP(ctx, g, o, io.Discard) }()
	return testutil.Receive(t, urls, mcpWait, "the HTTP server to listen"), done
}
