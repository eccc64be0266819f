package mcpserver

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestRegenerateWithSampling: the client's model (sampling) writes only
// wrong candidates of `double` (x * 2 + 1 or + 2); an answer that none agrees with makes the
// server ask that model again with the approved test in the prompt, and
// the new candidate is the one finish returns, passing the test.
func TestRegenerateWithSampling(t *testing.T) {
	pool := testutil.Pool(t)
	s := newTestServer(t, pool, Options{SamplingCodes: 2, SamplingTests: 1,
		Defaults: interact.Options{Mode: rank.Output, Questions: session.TestsOnly, Regenerate: 1}})
	var mu sync.Mutex
	var prompts []string
	model := func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		text := ""
		if msgs := req.Params.Messages; len(msgs) > 0 {
			if c, ok := msgs[len(msgs)-1].Content.(*mcp.TextContent); ok {
				text = c.Text
			}
		}
		mu.Lock()
		prompts = append(prompts, text)
		wrong := len(prompts)%2 + 1
		mu.Unlock()
		reply := "```python\ndef double(x: int) -> int:\n    return x * 2 + " + strconv.Itoa(wrong) + "\n```\n"
		switch {
		case strings.Contains(text, "Write 10 different tests"):
			reply = "```python\nassert double(1) == 3\n```\n"
		case strings.Contains(text, "It must pass these tests:\n\n```python\nassert double(1) == 2\n```"):
			reply = "```python\ndef double(x: int) -> int:\n    return x * 2\n```\n"
		}
		return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: reply}, Model: "fake", Role: "assistant", StopReason: "endTurn"}, nil
	}
	cs := connect(t, s, &mcp.ClientOptions{CreateMessageHandler: model})
	var st State
	if msg := call(t, cs, "start_clarification", SourceInput{Stub: "def double(x: int) -> int:\n    \"\"\"Return x doubled.\"\"\"\n"}, &st); msg != "" {
		t.Fatal(msg)
	}
	if st.Question == nil || st.Question.Input != "double(1)" {
		t.Fatalf("question %+v, want one about double(1)", st.Question)
	}
	if msg := call(t, cs, "answer_question", AnswerInput{SessionID: st.SessionID, Question: st.Question.Test, Answer: "output", Value: "2"}, &st); msg != "" {
		t.Fatal(msg)
	}
	if !strings.Contains(st.Conflict, "the model wrote 1 new candidate with your approved tests") {
		t.Errorf("conflict %q, want it to say the model wrote a new candidate", st.Conflict)
	}
	var res Result
	if msg := call(t, cs, "finish", FinishInput{SessionID: st.SessionID}, &res); msg != "" {
		t.Fatal(msg)
	}
	if !strings.Contains(res.Code, "return x * 2\n") || !res.Passed {
		t.Errorf("finish: passed %v, code:\n%s\n%v", res.Passed, res.Code, res.Failures)
	}
	asked := 0
	for _, p := range prompts {
		if strings.Contains(p, "It must pass these tests:") {
			asked++
		}
	}
	if asked != 2 {
		t.Errorf("%d sampling requests with the approved tests, want 2 (one round of the 2 samples a session asks for)", asked)
	}
}
