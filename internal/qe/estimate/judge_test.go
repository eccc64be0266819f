package estimate

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/qetest"
)

func tinyIndex(t *testing.T) (*qe.ExampleSet, *Index) {
	t.Helper()
	pool := qetest.TinyExamples()
	var probs, sols []string
	for _, tk := range pool.Tasks {
		probs = append(probs, tk.Prompt)
		sols = append(sols, tk.Codes()...)
	}
	ix, err := NewIndex(context.Background(), pool, qe.FitLexical(probs, sols, qe.DefaultLexicalOptions()))
	if err != nil {
		t.Fatal(err)
	}
	return pool, ix
}

func openJudge(t *testing.T, respond llmtest.Responder) (*llmtest.Server, Judge) {
	t.Helper()
	srv := llmtest.New(t, llmtest.Config{Respond: respond})
	p, err := llm.Open(llm.Spec{Kind: llm.KindVLLM, Model: "judge", BaseURL: srv.URL}, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return srv, LLMJudge{Provider: p}
}

func TestICLEndToEnd(t *testing.T) {
	top := []llmtest.Logprob{{Token: "yes", Logprob: -0.4}, {Token: "no", Logprob: -1.5}, {Token: " Yes", Logprob: -2}, {Token: "NO", Logprob: -3}, {Token: "maybe", Logprob: -5}}
	want := (math.Exp(-0.4) + math.Exp(-2)) / (math.Exp(-0.4) + math.Exp(-2) + math.Exp(-1.5) + math.Exp(-3))
	pool, ix := tinyIndex(t)
	target := pool.Tasks[2] // MBPP/3 is in the pool: its own pairs must never be examples.
	for _, k := range []int{0, 1, 2} {
		t.Run(map[int]string{0: "zs", 1: "icl k=1", 2: "icl k=2"}[k], func(t *testing.T) {
			srv, judge := openJudge(t, func(llmtest.Call) llmtest.Reply { return llmtest.Reply{Top: top} })
			est := &ICL{Index: ix, Judge: judge, Alpha: FSPS, K: k}
			got, err := est.Score(context.Background(), target.Problem, target.Codes())
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range got {
				if math.Abs(s-want) > 1e-12 {
					t.Errorf("score %d = %v, want %v", i, s, want)
				}
			}
			calls := srv.Calls()
			if len(calls) != len(target.Solutions) {
				t.Fatalf("%d judge calls, want %d", len(calls), len(target.Solutions))
			}
			qs, err := embedQuery(context.Background(), ix.Embedder(), target.Problem, target.Codes())
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range calls {
				if !c.Logprobs || c.TopLogprobs != 20 || c.MaxTokens != 1 {
					t.Errorf("call %d: logprobs=%v top=%d max_tokens=%d, want true 20 1", i, c.Logprobs, c.TopLogprobs, c.MaxTokens)
				}
				pos, neg := ix.Neighbours(qs[i], FSPS, k)
				if len(pos) != k || len(neg) != k {
					t.Fatalf("retrieved %d+%d, want %d+%d", len(pos), len(neg), k, k)
				}
				examples := ix.Examples(pos, neg)
				for j, ex := range examples {
					if strings.Contains(ex.Problem, "def total") {
						t.Errorf("example %d is from the target's own problem", j)
					}
					if ex.Correct != (j < k) {
						t.Errorf("example %d correct=%v: want the %d correct examples first", j, ex.Correct, k)
					}
				}
				if d := cmp.Diff(BuildPrompt(target.Prompt, target.Solutions[i].Code, examples), c.Text()); d != "" {
					t.Errorf("call %d prompt (-want +got)\n%s", i, d)
				}
				if n := strings.Count(c.Text(), "\nExample "); n+boolInt(strings.HasPrefix(c.Text(), "Example ")) != 2*k {
					t.Errorf("prompt has %d examples, want %d", n, 2*k)
				}
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestICLMissingLogprobs(t *testing.T) {
	_, judge := openJudge(t, func(llmtest.Call) llmtest.Reply { return llmtest.Reply{Top: []llmtest.Logprob{}} })
	pool, ix := tinyIndex(t)
	est := &ICL{Index: ix, Judge: judge, Alpha: FSPS, K: 1}
	_, err := est.Score(context.Background(), pool.Tasks[0].Problem, pool.Tasks[0].Codes())
	if err == nil {
		t.Fatal("no error when the server returns no log-probabilities")
	}
	if !errors.Is(err, llm.ErrMalformedResponse) || !strings.Contains(err.Error(), "log-probabilities") {
		t.Errorf("error %q should say log-probabilities are missing", err)
	}
}

type fakeJudge []TokenLogprob

func (f fakeJudge) TopLogprobs(context.Context, string, int) ([]TokenLogprob, error) { return f, nil }

func TestICLEmptyLogprobsIsErrNoLogprobs(t *testing.T) {
	pool, _ := tinyIndex(t)
	est := &ICL{Judge: fakeJudge(nil)}
	_, err := est.Score(context.Background(), pool.Tasks[0].Problem, pool.Tasks[0].Codes())
	if !errors.Is(err, ErrNoLogprobs) {
		t.Errorf("error %v, want ErrNoLogprobs", err)
	}
}

func TestYesNoScore(t *testing.T) {
	lp := math.Log
	for _, c := range []struct {
		name string
		toks []TokenLogprob
		want float64
	}{
		{"variants summed", []TokenLogprob{{"Yes", lp(0.3)}, {" yes", lp(0.2)}, {"YES", lp(0.1)}, {"no", lp(0.2)}, {"▁No", lp(0.1)}}, 0.6 / 0.9},
		{"punctuation and BPE marker", []TokenLogprob{{"Ġyes.", lp(0.5)}, {"No,", lp(0.5)}}, 0.5},
		{"neither word", []TokenLogprob{{"The", lp(0.6)}, {"Answer", lp(0.3)}}, 0.5},
		{"no missing: bounded by the least likely token", []TokenLogprob{{"yes", lp(0.6)}, {"the", lp(0.05)}}, 0.6 / 0.65},
		{"yes missing: bounded by the mass left", []TokenLogprob{{"no", lp(0.9)}, {"x", lp(0.08)}}, 0.02 / 0.92},
		{"not words that merely start alike", []TokenLogprob{{"yesterday", lp(0.5)}, {"none", lp(0.3)}, {"yes", lp(0.1)}, {"no", lp(0.1)}}, 0.5},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := YesNoScore(c.toks); math.Abs(got-c.want) > 1e-9 {
				t.Errorf("YesNoScore = %v, want %v", got, c.want)
			}
		})
	}
}

// TestBuildPromptShape pins the judge's prompt: the target is laid out
// exactly like each example (a rename once turned its "Problem:" into
// "qe.Problem:").
func TestBuildPromptShape(t *testing.T) {
	got := BuildPrompt("add two numbers\n", "def add(a, b):\n    return a + b\n",
		[]LabelledPair{{Problem: "negate", Solution: "def neg(x):\n    return -x", Correct: true}})
	want := judgeInstruction + "\n\n" + judgeExamplesIntro + "\n\n" +
		"Example 1:\nProblem:\nnegate\nCode:\ndef neg(x):\n    return -x\nFunctionally correct: yes\n\n" +
		judgeTargetIntro + "\n\n" +
		"Problem:\nadd two numbers\nCode:\ndef add(a, b):\n    return a + b\nFunctionally correct:"
	if got != want {
		t.Errorf("BuildPrompt:\n%s\nwant:\n%s", got, want)
	}
}
