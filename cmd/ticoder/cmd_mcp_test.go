package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/mcpserver"
	"github.com/ticoder/ticoder/internal/mcpserver/mcptest"
	"github.com/ticoder/ticoder/internal/testutil"
)

// mcpWait bounds every wait of the MCP tests.
const mcpWait = 3 * time.Minute

// TestMCPBinary runs the built binary as `ticoder mcp` in subprocesses:
// with the SDK's own client over stdio (tools, clarify through
// elicitation, sampling instead of a model, cancellation), and with a
// plain process that writes JSON-RPC lines, as any client can.
func TestMCPBinary(t *testing.T) {
	bin := buildTicoder(t, t.TempDir())
	command := func(t *testing.T, args ...string) *exec.Cmd {
		cmd := exec.Command(bin, append([]string{"mcp", "--cache", filepath.Join(t.TempDir(), "cache.db")}, args...)...)
		cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+t.TempDir())
		cmd.Stderr = &syncBuffer{}
		return cmd
	}
	t.Run("sdk client", func(t *testing.T) { testMCPSDKClient(t, command(t)) })
	t.Run("scripted json-rpc", func(t *testing.T) { testMCPScripted(t, command(t)) })
	t.Run("cancel", func(t *testing.T) { testMCPCancel(t, command(t)) })
	t.Run("piped", func(t *testing.T) { testMCPPiped(t, command) })
}

// testMCPPiped writes every request at once and closes stdin, as
// printf … | ticoder mcp does: each request is still answered. A client
// that offers elicitation but has gone away cannot be asked: the server
// then ends instead of waiting for it.
func testMCPPiped(t *testing.T, command func(t *testing.T, args ...string) *exec.Cmd) {
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":%s,"clientInfo":{"name":"sh","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"clarify","arguments":{"demo":"text_match"}}}
`
	for _, tc := range []struct {
		name, caps string
		want       []string
	}{
		{"no elicitation", `{}`, []string{`"id":1,"result"`, `"id":2,"result"`, `"id":3,"result"`, `\"pending\"`}},
		{"elicitation", `{"elicitation":{}}`, []string{`"id":1,"result"`, `"id":2,"result"`, `"method":"elicitation/create"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := command(t)
			cmd.Stdin = strings.NewReader(fmt.Sprintf(initialize, tc.caps))
			var stdout syncBuffer
			cmd.Stdout = &stdout
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill() })
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			if err := testutil.Receive(t, done, mcpWait, "ticoder mcp to answer and exit"); err != nil {
				t.Errorf("exit: %v", err)
			}
			out := stdout.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the output lacks %s:\n%s\nstderr:\n%s", w, out, cmd.Stderr)
				}
			}
		})
	}
}

// testMCPSDKClient connects the SDK's client to the binary over stdio.
func testMCPSDKClient(t *testing.T, cmd *exec.Cmd) {
	pool := testutil.Pool(t)
	p, err := demo.Get("text_match")
	if err != nil {
		t.Fatal(err)
	}
	human := &mcptest.Human{Problem: p, Runner: pool}
	model := &mcptest.Model{Problem: p}
	client := mcp.NewClient(&mcp.Implementation{Name: "ticoder-test", Version: "0"}, &mcp.ClientOptions{
		ElicitationHandler: human.Elicit, CreateMessageHandler: model.CreateMessage,
	})
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, cmd.Stderr)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, " "); got != strings.Join(mcpTools, " ") {
		t.Errorf("tools: %s", got)
	}
	for _, tc := range []struct {
		name string
		args mcpserver.SourceInput
	}{
		{"demo through elicitation", mcpserver.SourceInput{Demo: p.Name}},
		{"stub through sampling", mcpserver.SourceInput{Stub: p.Stub, Codes: len(p.Candidates), Tests: 4}},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "clarify", Arguments: tc.args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v\n%s", tc.name, err, res, cmd.Stderr)
		}
		var out mcpserver.ClarifyOutput
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil || out.Result == nil || !out.Result.Passed || len(out.Result.Explanation) == 0 {
			t.Fatalf("%s: %v %s", tc.name, err, b)
		}
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "check_code", Arguments: mcpserver.CheckInput{
			Code: out.Result.Code, Tests: p.Dataset().Asserts, Entry: p.EntryPoint}})
		if err != nil || res.IsError || !strings.Contains(fmt.Sprint(res.StructuredContent), "passed:true") {
			t.Errorf("%s: the chosen code fails the hidden tests: %v %+v", tc.name, err, res.StructuredContent)
		}
	}
	if calls := model.Calls(); calls["code"] != len(p.Candidates) || calls["tests"] != 4 {
		t.Errorf("sampling requests: %v", calls)
	}
	// Bad arguments are tool errors with a message; the server goes on.
	for _, args := range []map[string]any{{}, {"demo": "nope"}, {"demo": 7}, {"stub": "def f(:"}} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "clarify", Arguments: args})
		if err != nil || !res.IsError || len(res.Content) == 0 {
			t.Errorf("clarify %v: %v %+v", args, err, res)
		}
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("the server stopped after bad arguments: %v", err)
	}
}

// testMCPScripted drives the binary with JSON-RPC lines from a plain
// process: initialize, tools/list, tools/call through a whole session, a
// protocol error, and the end of input.
func testMCPScripted(t *testing.T, cmd *exec.Cmd) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := make(chan map[string]any, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"unparsable": sc.Text()}
			}
			lines <- m
		}
		close(lines)
	}()
	id := 0
	// rpc sends a request and returns its response, skipping notifications.
	rpc := func(method string, params any) map[string]any {
		t.Helper()
		id++
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := stdin.Write(append(msg, '\n')); err != nil {
			t.Fatal(err)
		}
		for {
			m := testutil.Receive(t, lines, mcpWait, "the response to "+method)
			if m == nil {
				t.Fatalf("stdout ended before the response to %s\n%s", method, cmd.Stderr)
			}
			if m["unparsable"] != nil {
				t.Fatalf("stdout has a line that is not JSON: %q", m["unparsable"])
			}
			if m["id"] == float64(id) {
				return m
			}
		}
	}
	// result returns a tools/call's structured result.
	result := func(m map[string]any) map[string]any {
		t.Helper()
		r, _ := m["result"].(map[string]any)
		if r == nil || r["isError"] == true {
			t.Fatalf("tool call failed: %v", m)
		}
		sc, _ := r["structuredContent"].(map[string]any)
		return sc
	}
	init := rpc("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "sh", "version": "0"}})
	if v := fmt.Sprint(init["result"].(map[string]any)["protocolVersion"]); v != "2025-06-18" {
		t.Errorf("protocol version %s", v)
	}
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	tools := rpc("tools/list", map[string]any{})["result"].(map[string]any)["tools"].([]any)
	if len(tools) != 7 {
		t.Errorf("%d tools", len(tools))
	}
	if e := rpc("no/such/method", map[string]any{})["error"]; e == nil {
		t.Errorf("an unknown method is not an error")
	}
	st := result(rpc("tools/call", map[string]any{"name": "start_clarification", "arguments": map[string]any{"demo": "count_vowels"}}))
	sid := st["session_id"]
	for i := 0; st["question"] != nil; i++ {
		if i > 30 {
			t.Fatal("more than 30 questions")
		}
		q := st["question"].(map[string]any)
		st = result(rpc("tools/call", map[string]any{"name": "answer_question", "arguments": map[string]any{"session_id": sid, "question": q["test"], "answer": "yes"}}))
	}
	fin := result(rpc("tools/call", map[string]any{"name": "finish", "arguments": map[string]any{"session_id": sid}}))
	if fin["code_file"] != "count_vowels.py" || !strings.Contains(fmt.Sprint(fin["code"]), "def count_vowels") || fin["passed"] != true {
		t.Errorf("finish: %v", fin)
	}
	stdin.Close()
	if err := testutil.Receive(t, exited, time.Minute, "ticoder mcp to exit at the end of its input"); err != nil {
		t.Errorf("exit: %v\n%s", err, cmd.Stderr)
	}
}

// testMCPCancel cancels a check_code call whose code loops forever (the
// sandbox would let it run for a minute): the call ends with the
// cancellation and no process of the server is left running.
func testMCPCancel(t *testing.T, cmd *exec.Cmd) {
	client := mcp.NewClient(&mcp.Implementation{Name: "ticoder-test", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	callCtx, stop := context.WithCancel(ctx)
	defer stop()
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "check_code", Arguments: mcpserver.CheckInput{
			Code: "def f():\n    while True:\n        pass\n", Tests: []string{"assert f() == 1"}, Entry: "f"}})
		errc <- err
	}()
	pid := cmd.Process.Pid
	waitFor(t, "the looping code to run", func() bool { return len(running(pid)) > 0 })
	stop()
	if err := testutil.Receive(t, errc, time.Minute, "check_code to return after cancellation"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled check_code returned %v", err)
	}
	// Idle, the server's processes sleep; the loop would keep one running.
	quiet := 0
	waitFor(t, "the server's processes to stop running", func() bool {
		if len(running(pid)) == 0 {
			quiet++
		} else {
			quiet = 0
		}
		return quiet >= 5
	})
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Errorf("the server stopped serving: %v", err)
	}
}

// waitFor polls cond every 100 ms for up to 30 s, failing with what.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("waited 30 s for %s", what)
}

// running returns the descendants of pid that are running (state R).
func running(pid int) []int {
	parent := map[int]int{}
	state := map[int]string{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
		f := strings.Fields(rest)
		if len(f) < 2 {
			continue
		}
		pp, _ := strconv.Atoi(f[1])
		parent[p], state[p] = pp, f[0]
	}
	var out []int
	for p, s := range state {
		if s != "R" || p == pid {
			continue
		}
		for a := parent[p]; a > 1; a = parent[a] {
			if a == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// TestMCPHTTP serves `ticoder mcp --http` in the test and reaches it with
// the SDK's Streamable HTTP client; requests for another host or from
// another site's page are refused, as serve refuses them.
func TestMCPHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	o := &mcpOptions{http: "127.0.0.1:0", ready: func(u string) { urls <- u }}
	o.flags = interactFlags{mode: "passfail", selectBy: "infogain", rankBy: "codet", questions: "both", timeout: 5 * time.Second}
	g := &globalOptions{cachePath: filepath.Join(t.TempDir(), "cache.db")}
	done := make(chan error, 1)
	go func() { done <- runMCP(ctx, g, o, io.Discard) }()
	url := testutil.Receive(t, urls, mcpWait, "the HTTP server to listen")
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

// mcpTools are the tools ticoder mcp lists, in name order.
var mcpTools = []string{"answer_question", "check_code", "clarify", "estimate_quality", "finish", "start_clarification", "undo"}

// TestReadmeMCP keeps the README's MCP section true: every tool is named,
// and every configuration snippet is valid JSON that starts ticoder mcp or
// points at its /mcp endpoint.
func TestReadmeMCP(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "### `ticoder mcp`")
	if !ok {
		t.Fatal("README has no section on ticoder mcp")
	}
	sec, _, _ = strings.Cut(sec, "\n### ")
	for _, tool := range mcpTools {
		if !strings.Contains(sec, "`"+tool+"`") {
			t.Errorf("the README's MCP section does not name the tool %s", tool)
		}
	}
	var snippets []string
	for _, part := range strings.Split(sec, "```json\n")[1:] {
		snippet, _, _ := strings.Cut(part, "```")
		snippets = append(snippets, snippet)
	}
	for _, part := range strings.Split(sec, "`{")[1:] {
		snippet, _, _ := strings.Cut(part, "}`")
		snippets = append(snippets, "{"+snippet+"}")
	}
	if len(snippets) < 4 {
		t.Fatalf("%d JSON snippets in the README's MCP section, want one per client and the HTTP form", len(snippets))
	}
	for _, s := range snippets {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Errorf("README snippet is not JSON: %v\n%s", err, s)
		}
		if !strings.Contains(s, `"args": ["mcp"`) && !strings.Contains(s, `/mcp"`) {
			t.Errorf("README snippet neither starts ticoder mcp nor points at /mcp:\n%s", s)
		}
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
	urls := make(chan string, 1)
	o := &mcpOptions{http: "127.0.0.1:0", token: token, ready: func(u string) { urls <- u }}
	o.flags = interactFlags{mode: "passfail", selectBy: "infogain", rankBy: "codet", questions: "both", timeout: 5 * time.Second}
	g := &globalOptions{cachePath: filepath.Join(t.TempDir(), "cache.db")}
	done := make(chan error, 1)
	go func() { done <- runMCP(ctx, g, o, io.Discard) }()
	url := testutil.Receive(t, urls, mcpWait, "the HTTP server to listen")
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
