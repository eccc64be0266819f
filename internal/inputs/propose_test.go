package inputs

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestPropose asks a fake model for inputs; Generate keeps the literal calls
// of the entry point in its answer.
func TestPropose(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t, llmtest.Config{Respond: llmtest.Fixed("```python\ndigit_sum(0)\ndigit_sum(-45)  # a negative number\nprint(digit_sum(7))\ndigit_sum(x)\n```")})
	prov, err := llm.Open(llm.Spec{Kind: llm.KindVLLM, Model: "m", BaseURL: srv.URL}, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	task := llm.Task{Signature: "def digit_sum(n: int) -> int:", Description: "Sum of the digits of n, sign ignored.", EntryPoint: "digit_sum"}
	proposed, err := Propose(ctx, prov, task)
	if err != nil {
		t.Fatal(err)
	}
	calls := srv.Calls()
	if len(calls) != 1 || calls[0].Endpoint != "chat" {
		t.Fatalf("calls %+v", calls)
	}
	ins, err := Generate(ctx, testutil.Pool(t), Request{Entry: "digit_sum", Proposed: proposed, MaxInputs: 3})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range ins {
		got = append(got, string(in.Origin)+" "+in.Call)
	}
	if d := cmp.Diff([]string{"model digit_sum(0)", "model digit_sum(-45)", "model digit_sum(7)"}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if len(calls[0].Messages) != 1 || !strings.Contains(calls[0].Messages[0].Content, "no expected values") {
		t.Errorf("the prompt does not ask for inputs only: %+v", calls[0].Messages)
	}
}
