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
