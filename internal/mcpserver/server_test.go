package mcpserver

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

// callTimeout bounds every tool call of these tests.
const callTimeout = 3 * time.Minute

// newTestServer returns a server on pool with the demos only (no model),
// and opts' other fields as given.
func newTestServer(t *testing.T, pool *execute.Pool, opts Options) *Server {
	t.Helper()
	if opts.Builder == nil {
		opts.Builder = &interact.Builder{Runner: pool}
	}
	opts.Runner = pool
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// connect connects an SDK client with copts to s in memory and returns its
// session, closed when the test ends.
func connect(t *testing.T, s *Server, copts *mcp.ClientOptions, roots ...*mcp.Root) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "ticoder-test", Version: "0"}, copts)
	if len(roots) > 0 {
		c.AddRoots(roots...)
	}
	cs, err := c.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
	})
	return cs
}

// call calls a tool and decodes its structured result into out; it returns
// the text of a tool error ("" when none).
func call(t *testing.T, cs *mcp.ClientSession, tool string, args any, out any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		return text(res)
	}
	if out != nil {
		decode(t, res.StructuredContent, out)
	}
	return ""
}

// decode copies a structured result into out through JSON.
func decode(t *testing.T, v, out any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}

// text joins a result's text content.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// getDemo loads a demo problem.
func getDemo(t *testing.T, name string) demo.Problem {
	t.Helper()
	p, err := demo.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkHidden checks, through check_code, that code passes the demo's
// hidden tests (those its reference passes).
func checkHidden(t *testing.T, cs *mcp.ClientSession, p demo.Problem, code string) {
	t.Helper()
	var out CheckOutput
	if msg := call(t, cs, "check_code", CheckInput{Code: code, Tests: p.Dataset().Asserts, Entry: p.EntryPoint}, &out); msg != "" {
		t.Fatalf("check_code: %s", msg)
	}
	if !out.Passed || out.TestCount != len(p.Dataset().Asserts) {
		t.Errorf("the chosen code fails the hidden tests of %s (%d run): %v\n%s", p.Name, out.TestCount, out.Failures, code)
	}
}

func TestToolsListed(t *testing.T) {
	s := newTestServer(t, testutil.Pool(t), Options{})
	cs := connect(t, s, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The SDK's client asks for the newest protocol first and falls back to
	// the newest the server speaks, in which it may elicit mid-call.
	if v := cs.InitializeResult().ProtocolVersion; v != protocolVersions[0] {
		t.Errorf("negotiated protocol %s, want %s", v, protocolVersions[0])
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"clarify":             nil,
		"start_clarification": nil,
		"answer_question":     {"session_id", "question", "answer"},
		"undo":                {"session_id"},
		"finish":              {"session_id"},
		"check_code":          {"code"},
		"estimate_quality":    {"prompt", "candidates"},
	}
	got := map[string]bool{}
	for _, tool := range res.Tools {
		got[tool.Name] = true
		req, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		var in, out struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		b, _ := json.Marshal(tool.InputSchema)
		if err := json.Unmarshal(b, &in); err != nil || in.Type != "object" || len(in.Properties) == 0 {
			t.Errorf("%s: input schema %s", tool.Name, b)
		}
		if strings.Join(in.Required, ",") != strings.Join(req, ",") {
			t.Errorf("%s: required %v, want %v", tool.Name, in.Required, req)
		}
		b, _ = json.Marshal(tool.OutputSchema)
		if err := json.Unmarshal(b, &out); err != nil || out.Type != "object" || len(out.Properties) == 0 {
			t.Errorf("%s: output schema %s", tool.Name, b)
		}
		if len(tool.Description) < 40 {
			t.Errorf("%s: description %q is too short for an agent to follow", tool.Name, tool.Description)
		}
	}
	for name := range want {
		if !got[name] {
			t.Errorf("tool %s is not listed", name)
		}
	}
}
