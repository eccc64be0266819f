package llm

import (
	"context"
	"fmt"
	"strings"

	"github.com/ticoder/ticoder/internal/dataset"
)

// Provider is a source of completions: a live model server, recorded samples,
// or a cache in front of either. Implementations are safe for concurrent use.
type Provider interface {
	// Endpoint says which model the provider talks to; cache keys and error
	// messages use it. It never contains a secret.
	Endpoint() Endpoint
	// Prepare returns req as the provider would send it: the prompt rendered
	// from Purpose and Task when req has neither Messages nor Prompt, and
	// defaults filled in. Generate and TopLogprobs prepare their requests
	// themselves; Prepare exists so that a cache can key on the exact request.
	Prepare(req Request) (Request, error)
	// Generate returns up to req.N completions (at least one is asked for when
	// N is 0). Fewer than N come back only when fewer exist (a replay
	// directory with fewer recorded samples); Generation.Short reports it.
	Generate(ctx context.Context, req Request) (*Generation, error)
	// TopLogprobs returns the k most likely first tokens of the completion of
	// req with their natural-log probabilities, most likely first.
	TopLogprobs(ctx context.Context, req Request, k int) ([]TokenLogprob, error)
	// Embed returns one embedding vector per text, in order, computed by the
	// provider's model.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Purpose says what a request asks the model for. Replay looks samples up by
// it, and prompts are rendered from it.
type Purpose string

// The purposes ticoder asks for.
const (
	// PurposeCode asks for implementations of the task's function.
	PurposeCode Purpose = "code"
	// PurposeTests asks for assertions that test the task's function.
	PurposeTests Purpose = "tests"
	// PurposeOther is any request that carries its own Messages or Prompt,
	// such as the quality-estimation judge.
	PurposeOther Purpose = "other"
)

// Style is how a prompt is rendered and sent: as chat messages (instruction
// models; the answer is a fenced function or fenced assertions) or as a raw
// prompt for the legacy completions endpoint (base models; the answer
// continues the prompt).
type Style string

// The prompt styles.
const (
	// StyleChat renders a system and a user message for /chat/completions.
	StyleChat Style = "chat"
	// StyleCompletion renders a raw prompt for /completions that the model
	// continues.
	StyleCompletion Style = "completion"
)

// ParseStyle parses "chat" or "completion"; the empty string means chat.
func ParseStyle(s string) (Style, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "chat":
		return StyleChat, nil
	case "completion", "completions", "base":
		return StyleCompletion, nil
	}
	return "", fmt.Errorf("unknown prompt style %q: use chat (instruction-tuned models) or completion (base models)", s)
}

// Message is one chat message.
type Message struct {
	// Role is "system", "user" or "assistant".
	Role string `json:"role"`
	// Content is the message text.
	Content string `json:"content"`
}

// Task is the part of a problem a model may see: never the reference
// solution or the hidden tests. Build it with TaskFrom.
type Task struct {
	// ID is the dataset's task id, e.g. "HumanEval/12"; replay looks samples
	// up by it.
	ID string `json:"task_id,omitempty"`
	// Prompt is context, signature and docstring, exactly as the dataset
	// gives it; a body-only completion continues it.
	Prompt string `json:"prompt,omitempty"`
	// Context is the code before the function's def line; may be empty.
	Context string `json:"context,omitempty"`
	// Signature is the function's def line.
	Signature string `json:"signature,omitempty"`
	// Description is the natural-language part of the task.
	Description string `json:"description,omitempty"`
	// EntryPoint is the name of the function to write and test.
	EntryPoint string `json:"entry_point,omitempty"`
	// Language is the task's language: "" (Python) or "java", whose
	// prompts are the templates named LANGUAGE_NAME (java_code_chat_user).
	Language string `json:"language,omitempty"`
	// Tests are tests the code must pass, one per entry as code of the
	// task's language (a Python test is its setup lines and its assert
	// line): the user's answers. Code prompts show them; without any, a
	// request is exactly what it was before the field existed (and so
	// are cache keys).
	Tests []string `json:"tests,omitempty"`
}

// TaskFrom returns the visible part of a problem.
func TaskFrom(p dataset.Problem) Task {
	return Task{
		ID:          p.ID,
		Prompt:      p.Prompt,
		Context:     p.Context,
		Signature:   p.Signature,
		Description: p.Description,
		EntryPoint:  p.EntryPoint,
		Language:    p.Language,
	}
}

// Params are the sampling parameters of a request. The zero value asks for one
// greedy completion with the defaults of Prepare.
type Params struct {
	// N is how many completions to return; 0 means 1.
	N int `json:"n"`
	// Temperature is the sampling temperature; 0 is greedy decoding (it is
	// sent, not left to the server's default).
	Temperature float64 `json:"temperature"`
	// TopP is nucleus sampling's mass; 0 leaves it to the server (1).
	TopP float64 `json:"top_p,omitempty"`
	// MaxTokens bounds each completion's length; 0 means the default for the
	// purpose (DefaultMaxTokens), or the server's default for PurposeOther.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Stop lists stop sequences (at most 4 on OpenAI). Nil means the
	// default for the purpose and style (DefaultStop); an empty, non-nil
	// slice means none.
	Stop []string `json:"stop"`
	// Seed asks the server for reproducible sampling where it supports it;
	// nil sends none.
	Seed *int `json:"seed,omitempty"`
}

// Request is one generation request. Set Purpose and Task and let the
// provider render the prompt, or set Messages (chat) or Prompt (legacy
// completions) yourself. A request with both Messages and Prompt is sent in
// the provider's style.
type Request struct {
	// Purpose says what is asked; "" means PurposeOther.
	Purpose Purpose `json:"purpose,omitempty"`
	// Task is the problem the request is about; replay needs its ID or Prompt.
	Task Task `json:"task"`
	// Messages is the chat conversation to complete.
	Messages []Message `json:"messages,omitempty"`
	// Prompt is the raw text a base model continues.
	Prompt string `json:"prompt,omitempty"`
	// Params are the sampling parameters.
	Params Params `json:"params"`
}

// IsChat reports whether the prepared request goes to the chat endpoint.
func (r Request) IsChat() bool { return len(r.Messages) > 0 }

// summary returns a short, one-line description of the request for error
// messages: the task id if any, and the first non-empty line of the prompt.
func (r Request) summary() string {
	text := r.Prompt
	if len(r.Messages) > 0 {
		text = r.Messages[len(r.Messages)-1].Content
	}
	if text == "" {
		text = r.Task.Prompt
	}
	line := firstLine(text)
	if r.Task.ID != "" {
		return fmt.Sprintf("%s %s %q", r.Task.ID, r.purpose(), line)
	}
	return fmt.Sprintf("%q", line)
}

func (r Request) purpose() Purpose {
	if r.Purpose == "" {
		return PurposeOther
	}
	return r.Purpose
}

// Choice is one completion.
type Choice struct {
	// Text is the completion's text as the model returned it.
	Text string `json:"text"`
	// FinishReason is the server's reason to stop ("stop", "length", ...);
	// "length" means the text was cut at MaxTokens. Empty for replayed samples.
	FinishReason string `json:"finish_reason,omitempty"`
}

// Generation is the answer to a Generate call.
type Generation struct {
	// Choices are the completions, in the server's order (or the order they
	// were recorded in).
	Choices []Choice `json:"choices"`
	// Requested is the N that was asked for.
	Requested int `json:"requested"`
	// Continues is the text every choice continues: the raw prompt for
	// completion-style requests and for replayed CodeT rows (for tests it
	// ends in "assert "). Empty when each choice stands alone (chat answers,
	// whole solutions, assertion lists).
	Continues string `json:"continues,omitempty"`
	// Style is how the request was sent.
	Style Style `json:"style"`
	// Cached is true when the generation came from the response cache.
	Cached bool `json:"-"`
}

// Texts returns the completions' texts.
func (g *Generation) Texts() []string {
	out := make([]string, len(g.Choices))
	for i, c := range g.Choices {
		out[i] = c.Text
	}
	return out
}

// Short reports whether fewer completions came back than were requested
// (replay holds fewer recorded samples).
func (g *Generation) Short() bool { return len(g.Choices) < g.Requested }

// TokenLogprob is one candidate next token and its natural-log probability.
type TokenLogprob struct {
	// Token is the token's text.
	Token string `json:"token"`
	// Logprob is ln P(token).
	Logprob float64 `json:"logprob"`
}

// Endpoint identifies the model a provider talks to. It holds no secret.
type Endpoint struct {
	// Kind is the provider kind ("openai", "ollama", "vllm", "azure", ...).
	Kind Kind `json:"kind"`
	// BaseURL is the API's base URL (for replay: the directory).
	BaseURL string `json:"base_url"`
	// Model is the model or deployment name.
	Model string `json:"model"`
	// Style is the style prompts are rendered in.
	Style Style `json:"style"`
}

// String returns e.g. "ollama:qwen2.5-coder:7b@http://localhost:11434/v1".
func (e Endpoint) String() string {
	if e.Kind == KindReplay {
		return "replay:" + e.BaseURL
	}
	return fmt.Sprintf("%s:%s@%s", e.Kind, e.Model, e.BaseURL)
}

func firstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			if len(t) > 80 {
				t = t[:77] + "..."
			}
			return t
		}
	}
	return ""
}
