package estimate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/qe"
)

// TokenLogprob is one candidate first token of the judge's answer with its
// natural-log probability.
type TokenLogprob struct {
	Token   string
	Logprob float64
}

// Judge is the LLM that answers yes or no: it returns the k most likely
// first tokens of its completion of prompt. LLMJudge adapts an llm.Provider.
type Judge interface {
	TopLogprobs(ctx context.Context, prompt string, k int) ([]TokenLogprob, error)
}

// ErrNoLogprobs means the judge answered without log-probabilities, so no
// score can be computed.
var ErrNoLogprobs = errors.New("the judge returned no log-probabilities: use a server and model that return top_logprobs (OpenAI, vLLM, llama.cpp server; not every Ollama version)")

// LLMJudge asks an llm.Provider for the first token's top log-probabilities,
// sending the prompt as one user message (chat) or as the raw prompt
// (completion style), greedily, one token long.
type LLMJudge struct {
	Provider llm.Provider
}

// TopLogprobs implements Judge.
func (j LLMJudge) TopLogprobs(ctx context.Context, prompt string, k int) ([]TokenLogprob, error) {
	req := llm.Request{
		Purpose:  llm.PurposeOther,
		Messages: []llm.Message{{Role: "user", Content: prompt}},
		Prompt:   prompt,
		Params:   llm.Params{MaxTokens: 1, Stop: []string{}},
	}
	got, err := j.Provider.TopLogprobs(ctx, req, k)
	if err != nil {
		return nil, err
	}
	out := make([]TokenLogprob, len(got))
	for i, t := range got {
		out[i] = TokenLogprob{Token: t.Token, Logprob: t.Logprob}
	}
	return out, nil
}

// ICL is the paper's estimator. For each candidate it retrieves the K most
// similar correct and K most similar incorrect labelled pairs (σ with
// Alpha), builds the prompt (BuildPrompt), asks the judge for the first
// token's top log-probabilities and scores
//
//	P(yes) / (P(yes) + P(no))
//
// where P(yes) sums the probabilities of every listed token that reads
// "yes" ignoring case, surrounding spaces, tokenizer word markers (▁, Ġ) and
// trailing punctuation ("Yes", " yes", "YES", "yes."), and likewise for
// "no" (YesNoScore). K = 0 is the zero-shot baseline zs (no example set needed).
// Cost: one LLM call per candidate; with K > 0 the prompt carries 2K+1
// problem/solution pairs.
type ICL struct {
	// Index is the labelled example set; it may be nil when K is 0, but its embedder
	// embeds the targets otherwise.
	Index *Index
	Judge Judge
	Alpha Alpha
	K     int
	// TopLogprobs is how many first tokens to ask for (default 20, OpenAI's
	// maximum).
	TopLogprobs int
}

// Name implements Estimator.
func (e *ICL) Name() string {
	if e.K == 0 {
		return "zs"
	}
	return fmt.Sprintf("icl(k=%d,α=%g)", e.K, float64(e.Alpha))
}

// Score implements Estimator.
func (e *ICL) Score(ctx context.Context, p qe.Problem, candidates []string) ([]float64, error) {
	var qs []Query
	if e.K > 0 {
		if e.Index == nil {
			return nil, fmt.Errorf("%s: k = %d needs a labelled pool", e.Name(), e.K)
		}
		var err error
		if qs, err = embedQuery(ctx, e.Index.emb, p, candidates); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
	}
	top := e.TopLogprobs
	if top <= 0 {
		top = 20
	}
	out := make([]float64, len(candidates))
	for i, c := range candidates {
		var examples []LabelledPair
		if e.K > 0 {
			pos, neg := e.Index.Neighbours(qs[i], e.Alpha, e.K)
			examples = e.Index.Examples(pos, neg)
		}
		toks, err := e.Judge.TopLogprobs(ctx, BuildPrompt(p.Prompt, c, examples), top)
		if err != nil {
			return nil, fmt.Errorf("%s: judge candidate %d of %s: %w", e.Name(), i, p.TaskID, err)
		}
		if len(toks) == 0 {
			return nil, fmt.Errorf("%s: judge candidate %d of %s: %w", e.Name(), i, p.TaskID, ErrNoLogprobs)
		}
		out[i] = YesNoScore(toks)
	}
	return out, nil
}

// LabelledPair is one in-context example.
type LabelledPair struct {
	Problem  string
	Solution string
	Correct  bool
}

// Examples turns retrieved neighbours into in-context examples in the
// order of the paper's authors' implementation: the correct ones first,
// then the incorrect ones, each group in decreasing similarity.
func (ix *Index) Examples(pos, neg []Neighbour) []LabelledPair {
	out := make([]LabelledPair, 0, len(pos)+len(neg))
	for _, n := range append(append([]Neighbour(nil), pos...), neg...) {
		p, s := ix.Pair(n)
		out = append(out, LabelledPair{Problem: p.Prompt, Solution: s.Code, Correct: s.Correct})
	}
	return out
}

// The judge's prompt, in our own words (the paper's Figure 2 has the same
// structure: instruction, labelled examples, target, answer cue).
const (
	judgeInstruction = "You review Python code. For a programming problem and a piece of code written to solve it, " +
		"decide whether the code is functionally correct: it does what the problem asks for every valid input. " +
		"Answer with one word: yes or no."
	judgeExamplesIntro = "These examples show problems with code whose correctness is known."
	judgeTargetIntro   = "Now judge this code."
	judgeAnswerCue     = "Functionally correct:"
)

// BuildPrompt renders the judge's prompt: the instruction, the examples (if
// any) each as "Example i:" with its problem, code and answer, then the
// target problem and code and the answer cue.
func BuildPrompt(problem, code string, examples []LabelledPair) string {
	var b strings.Builder
	b.WriteString(judgeInstruction + "\n\n")
	if len(examples) > 0 {
		b.WriteString(judgeExamplesIntro + "\n\n")
		for i, ex := range examples {
			answer := "no"
			if ex.Correct {
				answer = "yes"
			}
			fmt.Fprintf(&b, "Example %d:\nProblem:\n%s\nCode:\n%s\n%s %s\n\n",
				i+1, strings.TrimRight(ex.Problem, "\n"), strings.TrimRight(ex.Solution, "\n"), judgeAnswerCue, answer)
		}
		b.WriteString(judgeTargetIntro + "\n\n")
	}
	fmt.Fprintf(&b, "Problem:\n%s\nCode:\n%s\n%s", strings.TrimRight(problem, "\n"), strings.TrimRight(code, "\n"), judgeAnswerCue)
	return b.String()
}

// YesNoScore returns P(yes)/(P(yes)+P(no)) from the first token's top
// log-probabilities, summing every surface form of each word (see ICL).
// Fallback when a word is missing from the list: its probability is at most
// that of the least likely listed token and at most the mass left over, so
// the smaller of the two bounds stands in for it; when neither word is
// listed the score is 0.5 (no evidence either way).
func YesNoScore(toks []TokenLogprob) float64 {
	var yes, no, total float64
	minP := math.Inf(1)
	var haveYes, haveNo bool
	for _, t := range toks {
		p := math.Exp(t.Logprob)
		total += p
		minP = math.Min(minP, p)
		switch normaliseAnswer(t.Token) {
		case "yes":
			yes += p
			haveYes = true
		case "no":
			no += p
			haveNo = true
		}
	}
	switch {
	case !haveYes && !haveNo:
		return 0.5
	case !haveYes:
		yes = math.Max(0, math.Min(minP, 1-total))
	case !haveNo:
		no = math.Max(0, math.Min(minP, 1-total))
	}
	if yes+no == 0 {
		return 0.5
	}
	return yes / (yes + no)
}

// normaliseAnswer reduces a token to its word: "▁Yes" → "yes", " NO." → "no".
func normaliseAnswer(tok string) string {
	t := strings.TrimSpace(tok)
	t = strings.TrimPrefix(t, "▁")
	t = strings.TrimPrefix(t, "Ġ")
	t = strings.TrimRight(t, ".,!:;\"'")
	t = strings.TrimLeft(t, "\"'")
	return strings.ToLower(strings.TrimSpace(t))
}
