package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/execute"
)

// metaQuestion is mcpserver.MetaQuestion (not imported, so that the server
// package's own tests can use this package).
const metaQuestion = "ticoder/question"

// Human answers elicitations as a user who wants what Problem.Reference
// does. It is safe for concurrent use.
type Human struct {
	// Problem is the demo whose reference decides the answers.
	Problem demo.Problem
	// Runner runs the reference in the sandbox.
	Runner execute.Runner
	// Output allows "it should return …" answers (Output mode).
	Output bool

	mu    sync.Mutex
	asked []api.Question
}

// Asked returns the questions asked so far.
func (h *Human) Asked() []api.Question {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.asked)
}

// Answer returns the answer word of answer_question (yes, no, invalid or
// output) and value for q.
func (h *Human) Answer(ctx context.Context, q api.Question) (word, value string, err error) {
	verdict := ""
	if q.Input != "" {
		setup := ""
		if i := strings.LastIndex(q.Code, "\n"); i >= 0 {
			setup = q.Code[:i]
		}
		verdict, value, err = h.Problem.AnswerCall(ctx, h.Runner, setup, q.Input, q.Expected, h.Output && q.CanOutput)
		if err != nil {
			return "", "", err
		}
	} else {
		m, err := h.Runner.Run(ctx, execute.Job{Programs: []string{h.Problem.Reference}, Tests: []execute.Test{{Code: q.Code}}, TimePolicy: execute.Within(5 * time.Second)}, nil)
		if err != nil {
			return "", "", fmt.Errorf("run the reference on %s: %w", q.Code, err)
		}
		verdict = "fail"
		if m.Results[0][0].Outcome == execute.Pass {
			verdict = "pass"
		}
	}
	word = map[string]string{"pass": "yes", "fail": "no", "undefined": "invalid", "output": "output"}[verdict]
	return word, value, nil
}

// Elicit is a mcp.ClientOptions.ElicitationHandler: it reads the question
// from the request's _meta and picks the offered answer the reference
// gives.
func (h *Human) Elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	var q api.Question
	if err := remarshal(req.Params.Meta[metaQuestion], &q); err != nil || q.Prompt == "" {
		return nil, fmt.Errorf("the elicitation carries no question in _meta[%q]: %v", metaQuestion, err)
	}
	h.mu.Lock()
	h.asked = append(h.asked, q)
	h.mu.Unlock()
	word, value, err := h.Answer(ctx, q)
	if err != nil {
		return nil, err
	}
	offered := enum(req.Params.RequestedSchema)
	label := map[string]string{"yes": "yes", "no": "no", "invalid": "invalid input / don't know"}[word]
	content := map[string]any{"answer": label}
	if word == "output" {
		if c := "it should return " + value; slices.Contains(offered, c) {
			content["answer"] = c
		} else {
			content["answer"], content["value"] = "it should return … (type the value below)", value
		}
	}
	if !slices.Contains(offered, content["answer"].(string)) {
		return nil, fmt.Errorf("answer %q is not among the offered %q", content["answer"], offered)
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

// enum returns the answers an elicitation's schema offers.
func enum(schema any) []string {
	var s struct {
		Properties struct {
			Answer struct {
				Enum []string `json:"enum"`
			} `json:"answer"`
		} `json:"properties"`
	}
	_ = remarshal(schema, &s)
	return s.Properties.Answer.Enum
}

// remarshal copies v into out through JSON.
func remarshal(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// Model answers sampling requests as a model would, from a demo's recorded
// candidates and tests: a code request gets candidate sample % n in a
// fenced block, a tests request the demo's assertions (split across the
// samples), anything else an empty block. It is safe for concurrent use.
type Model struct {
	// Problem holds the recorded candidates and tests.
	Problem demo.Problem

	mu    sync.Mutex
	calls map[string]int
}

// Calls returns how many requests of each purpose ("code", "tests",
// "other") came.
func (m *Model) Calls() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]int{}
	for k, v := range m.calls {
		out[k] = v
	}
	return out
}

// CreateMessage is a mcp.ClientOptions.CreateMessageHandler.
func (m *Model) CreateMessage(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	var meta struct {
		Ticoder struct {
			Purpose string `json:"purpose"`
			Sample  int    `json:"sample"`
		} `json:"ticoder"`
	}
	if err := remarshal(req.Params.Metadata, &meta); err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.calls == nil {
		m.calls = map[string]int{}
	}
	m.calls[meta.Ticoder.Purpose]++
	m.mu.Unlock()
	p, i := m.Problem, meta.Ticoder.Sample
	text := "```python\n```\n"
	switch meta.Ticoder.Purpose {
	case "code":
		text = "```python\n" + p.Candidates[i%len(p.Candidates)].Program + "```\n"
	case "tests":
		var lines []string
		for j, t := range p.Tests {
			if j%4 == i%4 {
				lines = append(lines, t.Code)
			}
		}
		text = "```python\n" + strings.Join(lines, "\n") + "\n```\n"
	}
	return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: text}, Model: "recorded-demo", Role: "assistant", StopReason: "endTurn"}, nil
}
