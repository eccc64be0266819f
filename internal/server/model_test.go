package server

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
)

// TestModelSession creates a session from a spec with a model (a fake
// OpenAI-compatible server that speaks the real wire format): the model's
// programs and tests are extracted and run, and the first question splits
// them.
func TestModelSession(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	var n atomic.Int64
	fake := llmtest.New(t, llmtest.Config{Respond: func(c llmtest.Call) llmtest.Reply {
		if strings.Contains(c.Text(), "Write 10 different tests") {
			return llmtest.Reply{Texts: []string{"```python\nassert double(2) == 4\nassert double(0) == 0\nassert double(-3) == -6\nassert double(2) == 5\n```"}}
		}
		bodies := []string{"return x * 2", "return x + x", "return x ** 2", "return 2 * x"}
		texts := make([]string, c.Want())
		for i := range texts {
			texts[i] = "```python\ndef double(x: int) -> int:\n    " + bodies[int(n.Add(1))%len(bodies)] + "\n```"
		}
		return llmtest.Reply{Texts: texts}
	}})
	prov, err := llm.Open(llm.Spec{Kind: llm.KindVLLM, Model: "m", BaseURL: fake.URL}, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := startServer(t, pool, filepath.Join(t.TempDir(), "db.sqlite"), &interact.ModelGenerator{Provider: prov, Caller: pool})
	s, err := c.Create(ctx, api.CreateSession{Spec: "def double(x: int) -> int:\n    \"\"\"Return x doubled.\"\"\"\n", Codes: 8, Tests: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Task.EntryPoint != "double" || s.Total.Samples != 8 || s.Total.Classes != 2 || s.Question == nil {
		t.Fatalf("session from the model: task %+v, total %+v, question %v", s.Task, s.Total, s.Question)
	}
	s, err = c.Answer(ctx, s.ID, api.Answer{Test: s.Question.Test, Verdict: api.VerdictPass})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Done || len(s.Candidates) != 1 {
		t.Errorf("after one answer: done %v, %d classes", s.Done, len(s.Candidates))
	}
}

// TestModelRegenerates: an answer that no candidate of the model agrees
// with makes the server ask the model again, with the approved test in the
// prompt; the new candidate agrees, and the state says what happened.
func TestModelRegenerates(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	fence := func(body string) string { return "```python\ndef double(x: int) -> int:\n    " + body + "\n```" }
	fake := llmtest.New(t, llmtest.Config{Respond: func(c llmtest.Call) llmtest.Reply {
		switch text := c.Text(); {
		case strings.Contains(text, "Write 10 different tests"):
			return llmtest.Reply{Texts: []string{"```python\nassert double(1) == 3\n```"}}
		case strings.Contains(text, "It must pass these tests:\n\n```python\nassert double(1) == 2\n```"):
			return llmtest.Reply{Texts: []string{fence("return x * 2")}}
		}
		return llmtest.Reply{Texts: []string{fence("return x * 2 + 1"), fence("return x * 2 + 2")}}
	}})
	prov, err := llm.Open(llm.Spec{Kind: llm.KindVLLM, Model: "m", BaseURL: fake.URL}, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := &interact.Builder{Runner: pool, Generator: &interact.ModelGenerator{Provider: prov, Caller: pool}}
	_, c := newServer(t, pool, Options{Builder: b, Defaults: interact.Options{Mode: rank.Output, Questions: session.TestsOnly, Regenerate: 1}})
	s, err := c.Create(ctx, api.CreateSession{Spec: "def double(x: int) -> int:\n    \"\"\"Return x doubled.\"\"\"\n", Codes: 4, Tests: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Question == nil || s.Question.Input != "double(1)" {
		t.Fatalf("question %+v, want one about double(1)", s.Question)
	}
	s, err = c.Answer(ctx, s.ID, api.Answer{Test: s.Question.Test, Verdict: api.VerdictOutput, Value: "2"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Regenerated != 1 || s.Conflict != 0 || !strings.Contains(s.ConflictMessage, "the model wrote 1 new candidate with your approved tests") {
		t.Errorf("after the answer: %d rounds, conflict %d, message %q", s.Regenerated, s.Conflict, s.ConflictMessage)
	}
	if len(s.Candidates) != 1 || !strings.Contains(s.Candidates[0].Program, "return x * 2\n") {
		t.Errorf("candidates %+v, want the model's new one", s.Candidates)
	}
}
