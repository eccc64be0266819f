package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	c := startLines(t, cmd)
	init := c.rpc("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "sh", "version": "0"}})
	if v := fmt.Sprint(init["result"].(map[string]any)["protocolVersion"]); v != "2025-06-18" {
		t.Errorf("protocol version %s", v)
	}
	if _, err := io.WriteString(c.stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	tools := c.rpc("tools/list", map[string]any{})["result"].(map[string]any)["tools"].([]any)
	if len(tools) != len(mcpTools) {
		t.Errorf("%d tools", len(tools))
	}
	if e := c.rpc("no/such/method", map[string]any{})["error"]; e == nil {
		t.Errorf("an unknown method is not an error")
	}
	st := c.tool("start_clarification", map[string]any{"demo": "count_vowels"})
	sid := st["session_id"]
	for i := 0; st["question"] != nil; i++ {
		if i > 30 {
			t.Fatal("more than 30 questions")
		}
		q := st["question"].(map[string]any)
		st = c.tool("answer_question", map[string]any{"session_id": sid, "question": q["test"], "answer": "yes"})
	}
	fin := c.tool("finish", map[string]any{"session_id": sid})
	if fin["code_file"] != "count_vowels.py" || !strings.Contains(fmt.Sprint(fin["code"]), "def count_vowels") || fin["passed"] != true {
		t.Errorf("finish: %v", fin)
	}
	c.stdin.Close()
	if err := testutil.Receive(t, c.exited, time.Minute, "ticoder mcp to exit at the end of its input"); err != nil {
		t.Errorf("exit: %v\n%s", err, cmd.Stderr)
	}
}

// lineClient speaks JSON-RPC to a process, one message a line, as the
// plainest client would.
type lineClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan map[string]any
	exited chan error
	id     int
}

// startLines starts cmd and reads its stdout line by line.
func startLines(t *testing.T, cmd *exec.Cmd) *lineClient {
	c := &lineClient{t: t, cmd: cmd, lines: make(chan map[string]any, 64), exited: make(chan error, 1)}
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"unparsable": sc.Text()}
			}
			c.lines <- m
		}
		close(c.lines)
	}()
	return c
}

// rpc sends a request and returns its response, skipping notifications.
func (c *lineClient) rpc(method string, params any) map[string]any {
	c.t.Helper()
	c.id++
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	if _, err := c.stdin.Write(append(msg, '\n')); err != nil {
		c.t.Fatal(err)
	}
	for {
		m := testutil.Receive(c.t, c.lines, mcpWait, "the response to "+method)
		if m == nil {
			c.t.Fatalf("stdout ended before the response to %s\n%s", method, c.cmd.Stderr)
		}
		if m["unparsable"] != nil {
			c.t.Fatalf("stdout has a line that is not JSON: %q", m["unparsable"])
		}
		if m["id"] == float64(c.id) {
			return m
		}
	}
}

// tool calls a tool and returns its structured result.
func (c *lineClient) tool(name string, args map[string]any) map[string]any {
	c.t.Helper()
	m := c.rpc("tools/call", map[string]any{"name": name, "arguments": args})
	r, _ := m["result"].(map[string]any)
	if r == nil || r["isError"] == true {
		c.t.Fatalf("%s failed: %v", name, m)
	}
	sc, _ := r["structuredContent"].(map[string]any)
	return sc
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
	quiet, last := 0, []int(nil)
	for end := time.Now().Add(30 * time.Second); quiet < 5; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited 30 s for the server's processes to stop running; still running:\n%s", describe(last))
		}
		if last = running(pid); len(last) == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
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

// describe names processes for a failure message: pid, state line and
// command line.
func describe(pids []int) string {
	var b strings.Builder
	for _, p := range pids {
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		fmt.Fprintf(&b, "  %s\n    cmdline %q\n", bytes.TrimSpace(stat), bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
	}
	return b.String()
}

// mcpTools are the tools ticoder mcp lists, in name order.
var mcpTools = []string{"answer_question", "check_code", "clarify", "estimate_quality", "finish", "start_clarification", "undo"}

// TestReadmeMCP keeps the MCP page (docs/mcp.md, linked from the README)
// true: every tool is named, and every configuration snippet is valid JSON
// that starts ticoder mcp or points at its /mcp endpoint.
func TestReadmeMCP(t *testing.T) {
	root := testutil.RepoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "(docs/mcp.md)") {
		t.Error("README does not link docs/mcp.md")
	}
	b, err := os.ReadFile(filepath.Join(root, "docs", "mcp.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "# `ticoder mcp`")
	if !ok {
		t.Fatal("docs/mcp.md has no section on ticoder mcp")
	}
	for _, tool := range mcpTools {
		if !strings.Contains(sec, "`"+tool+"`") {
			t.Errorf("docs/mcp.md does not name the tool %s", tool)
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
		t.Fatalf("%d JSON snippets in docs/mcp.md, want one per client and the HTTP form", len(snippets))
	}
	for _, s := range snippets {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Errorf("docs/mcp.md snippet is not JSON: %v\n%s", err, s)
		}
		if !strings.Contains(s, `"args": ["mcp"`) && !strings.Contains(s, `/mcp"`) {
			t.Errorf("docs/mcp.md snippet neither starts ticoder mcp nor points at /mcp:\n%s", s)
		}
	}
}
