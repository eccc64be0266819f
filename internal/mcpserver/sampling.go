package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sync/errgroup"

	"github.com/ticoder/ticoder/internal/llm"
)

// ErrNoSampling is returned by the SamplingProvider methods that sampling
// cannot serve (log-probabilities, embeddings).
var ErrNoSampling = errors.New("the client's model, reached through MCP sampling, gives only text")

// KindSampling is the llm.Kind of the SamplingProvider.
const KindSampling llm.Kind = "mcp-sampling"

// maxSampleChars bounds one answer of the client's model.
const maxSampleChars = 64 << 10

// Sampler sends one sampling request to the client; *mcp.ServerSession's
// CreateMessage is one.
type Sampler interface {
	CreateMessage(ctx context.Context, params *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error)
}

// SamplingProvider is an llm.Provider backed by the MCP client's own model:
// each completion is one sampling/createMessage request, rendered from the
// same chat prompts as every other provider (Prompts). Requests carry
// metadata {"ticoder": {"purpose": …, "task": …, "sample": i}} so that a
// client can tell them apart. It is safe for concurrent use if Sampler is.
type SamplingProvider struct {
	// Sampler reaches the client.
	Sampler Sampler
	// Client names the client in Endpoint, e.g. "claude-code".
	Client string
	// Prompts renders requests (nil: the defaults).
	Prompts *llm.Prompts
	// Parallel bounds the requests in flight (default 4).
	Parallel int
}

// Endpoint names the client as the model.
func (p *SamplingProvider) Endpoint() llm.Endpoint {
	return llm.Endpoint{Kind: KindSampling, BaseURL: "mcp-client", Model: p.Client, Style: llm.StyleChat}
}

// Prepare renders req as chat messages and fills in N and the length.
func (p *SamplingProvider) Prepare(req llm.Request) (llm.Request, error) {
	if req.Purpose == "" {
		req.Purpose = llm.PurposeOther
	}
	if req.Params.N <= 0 {
		req.Params.N = 1
	}
	if len(req.Messages) == 0 {
		if req.Prompt != "" {
			req.Messages = []llm.Message{{Role: "user", Content: req.Prompt}}
		} else {
			prompts := p.Prompts
			if prompts == nil {
				prompts = llm.DefaultPrompts()
			}
			r, err := prompts.Render(req, llm.StyleChat)
			if err != nil {
				return req, err
			}
			req = r
		}
	}
	req.Prompt = ""
	if req.Params.MaxTokens == 0 {
		switch req.Purpose {
		case llm.PurposeCode:
			req.Params.MaxTokens = llm.DefaultMaxTokensCode
		case llm.PurposeTests:
			req.Params.MaxTokens = llm.DefaultMaxTokensTests
		default:
			req.Params.MaxTokens = 512
		}
	}
	return req, nil
}

// Generate asks the client for req.N completions, one sampling request
// each, at most Parallel at a time.
func (p *SamplingProvider) Generate(ctx context.Context, req llm.Request) (*llm.Generation, error) {
	req, err := p.Prepare(req)
	if err != nil {
		return nil, err
	}
	params := samplingParams(req)
	choices := make([]llm.Choice, req.Params.N)
	g, ctx := errgroup.WithContext(ctx)
	par := p.Parallel
	if par <= 0 {
		par = 4
	}
	g.SetLimit(par)
	for i := range choices {
		g.Go(func() error {
			pi := *params
			pi.Metadata = map[string]any{"ticoder": map[string]any{"purpose": string(req.Purpose), "task": req.Task.ID, "sample": i}}
			res, err := p.Sampler.CreateMessage(ctx, &pi)
			if err != nil {
				return fmt.Errorf("sampling request %d of %d to the client's model: %w", i+1, len(choices), err)
			}
			text, ok := res.Content.(*mcp.TextContent)
			if !ok {
				return fmt.Errorf("sampling request %d: the client's model answered with %T, not text", i+1, res.Content)
			}
			c := llm.Choice{Text: text.Text, FinishReason: "stop"}
			if len(c.Text) > maxSampleChars {
				c.Text, c.FinishReason = strings.ToValidUTF8(c.Text[:maxSampleChars], ""), "length"
			}
			if res.StopReason == "maxTokens" {
				c.FinishReason = "length"
			}
			choices[i] = c
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return &llm.Generation{Choices: choices, Requested: req.Params.N, Style: llm.StyleChat}, nil
}

// samplingParams turns a prepared chat request into sampling parameters:
// system messages become the system prompt.
func samplingParams(req llm.Request) *mcp.CreateMessageParams {
	out := &mcp.CreateMessageParams{
		MaxTokens:      int64(req.Params.MaxTokens),
		Temperature:    req.Params.Temperature,
		StopSequences:  req.Params.Stop,
		IncludeContext: "none",
		ModelPreferences: &mcp.ModelPreferences{
			IntelligencePriority: 0.8, SpeedPriority: 0.5,
		},
	}
	var system []string
	for _, m := range req.Messages {
		switch m.Role {
		case "system":
			system = append(system, m.Content)
		case "assistant":
			out.Messages = append(out.Messages, &mcp.SamplingMessage{Role: "assistant", Content: &mcp.TextContent{Text: m.Content}})
		default:
			out.Messages = append(out.Messages, &mcp.SamplingMessage{Role: "user", Content: &mcp.TextContent{Text: m.Content}})
		}
	}
	out.SystemPrompt = strings.Join(system, "\n\n")
	return out
}

// TopLogprobs is not available through sampling.
func (p *SamplingProvider) TopLogprobs(context.Context, llm.Request, int) ([]llm.TokenLogprob, error) {
	return nil, fmt.Errorf("top log-probabilities: %w", ErrNoSampling)
}

// Embed is not available through sampling.
func (p *SamplingProvider) Embed(context.Context, []string) ([][]float32, error) {
	return nil, fmt.Errorf("embeddings: %w", ErrNoSampling)
}
