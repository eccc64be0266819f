package llm

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sort"

	openai "github.com/sashabaranov/go-openai"
	"golang.org/x/sync/errgroup"
)

// Client is the provider for OpenAI-compatible servers: OpenAI, Azure
// OpenAI, vLLM, Ollama, llama.cpp, LM Studio. It is safe for concurrent use.
type Client struct {
	res     resolved
	api     *openai.Client
	doer    *doer
	style   Style
	prompts *Prompts
	usage   *Usage
	log     *slog.Logger
}

// NewClient returns a client for spec, reading its base URL and key from the
// environment now. A missing key is reported by the first request, so that an
// offline run served from the cache needs none.
func NewClient(spec Spec, opts Options) (*Client, error) {
	res, err := resolve(spec, opts.Getenv)
	if err != nil {
		return nil, err
	}
	style := opts.Style
	if style == "" {
		style = StyleChat
	}
	d := newDoer(opts.HTTPClient, opts.Retry, opts.Concurrency, opts.Usage)
	d.url, d.timeout, d.waiting = redactURL(res.baseURL), opts.RequestTimeout, opts.Waiting
	if d.timeout == 0 {
		d.timeout = DefaultRequestTimeout
	}
	var cfg openai.ClientConfig
	if spec.Kind == KindAzure {
		cfg = openai.DefaultAzureConfig(res.apiKey, res.baseURL)
		cfg.APIVersion = res.apiVersion
		cfg.AzureModelMapperFunc = func(model string) string { return model } // the spec names the deployment
	} else {
		cfg = openai.DefaultConfig(res.apiKey)
		cfg.BaseURL = res.baseURL
	}
	cfg.HTTPClient = d
	c := &Client{
		res: res, api: openai.NewClientWithConfig(cfg), doer: d, style: style,
		prompts: opts.Prompts, usage: opts.Usage, log: opts.logger(),
	}
	return c, nil
}

// Endpoint returns the kind, base URL, model and style.
func (c *Client) Endpoint() Endpoint {
	return Endpoint{Kind: c.res.spec.Kind, BaseURL: c.res.baseURL, Model: c.res.spec.Model, Style: c.style}
}

func (c *Client) endpoint() string { return c.Endpoint().String() }

// Prepare renders the prompt in the client's style and fills in defaults.
func (c *Client) Prepare(req Request) (Request, error) { return prepare(req, c.style, c.prompts) }

// Generate returns req.Params.N completions. When the server returns fewer
// (Ollama ignores n), the rest are asked for with further requests, sent
// concurrently, each with its own seed when a seed is set.
func (c *Client) Generate(ctx context.Context, req Request) (*Generation, error) {
	req, err := c.Prepare(req)
	if err != nil {
		return nil, err
	}
	if c.res.keyErr != nil {
		return nil, c.res.keyErr
	}
	n := req.Params.N
	c.log.Debug("llm generate", "endpoint", c.endpoint(), "purpose", req.Purpose, "task", req.Task.ID, "n", n)
	choices, err := c.complete(ctx, req, n, 0)
	if err != nil {
		return nil, err
	}
	if len(choices) == 0 {
		return nil, newError(ErrMalformedResponse, nil, "%s returned no completions for %s: check the server's logs", c.endpoint(), req.summary())
	}
	if len(choices) < n {
		if choices, err = c.fillUp(ctx, req, choices); err != nil {
			return nil, err
		}
	}
	g := &Generation{Choices: choices[:min(len(choices), n)], Requested: n, Style: StyleChat}
	if !req.IsChat() {
		g.Style, g.Continues = StyleCompletion, req.Prompt
	}
	return g, nil
}

// maxFillRounds bounds the rounds of extra requests fillUp sends.
const maxFillRounds = 8

// fillUp asks for the completions a server left out: the first answer shows
// how many one request yields (per), so the missing ones are split into
// requests of at most per, sent at once (the doer bounds the concurrency).
func (c *Client) fillUp(ctx context.Context, req Request, have []Choice) ([]Choice, error) {
	n, per := req.Params.N, len(have)
	c.log.Debug("llm server returned fewer choices than asked; filling up", "endpoint", c.endpoint(), "asked", n, "got", per)
	seedOffset := 1
	for round := 0; len(have) < n && round < maxFillRounds; round++ {
		missing := n - len(have)
		parts := (missing + per - 1) / per
		results := make([][]Choice, parts)
		g, gctx := errgroup.WithContext(ctx)
		for i := range parts {
			ask := min(per, missing-i*per)
			offset := seedOffset + i
			g.Go(func() error {
				got, err := c.complete(gctx, req, ask, offset)
				results[i] = got
				return err
			})
		}
		seedOffset += parts
		if err := g.Wait(); err != nil {
			return nil, err
		}
		before := len(have)
		for _, r := range results {
			have = append(have, r...)
		}
		if len(have) == before {
			break
		}
	}
	if len(have) < n {
		return nil, newError(ErrMalformedResponse, nil, "%s returned %d of %d completions for %s even after repeated requests: check the server's limits",
			c.endpoint(), len(have), n, req.summary())
	}
	return have, nil
}

// complete sends one request for n completions. seedOffset is added to the
// request's seed so that fill-up requests do not repeat the first one.
func (c *Client) complete(ctx context.Context, req Request, n, seedOffset int) ([]Choice, error) {
	p := req.Params
	var seed *int
	if p.Seed != nil {
		s := *p.Seed + seedOffset
		seed = &s
	}
	if req.IsChat() {
		resp, err := c.api.CreateChatCompletion(ctx, c.chatRequest(req, n, seed))
		if err != nil {
			return nil, c.classify(err, "chat completion")
		}
		c.usage.addRequest(resp.Usage.PromptTokens, resp.Usage.CompletionTokens)
		out := make([]Choice, len(resp.Choices))
		for i, ch := range resp.Choices {
			out[i] = Choice{Text: ch.Message.Content, FinishReason: string(ch.FinishReason)}
		}
		return out, nil
	}
	resp, err := c.api.CreateCompletion(ctx, c.completionRequest(req, n, seed))
	if err != nil {
		return nil, c.classify(err, "completion")
	}
	if resp.Usage != nil {
		c.usage.addRequest(resp.Usage.PromptTokens, resp.Usage.CompletionTokens)
	} else {
		c.usage.addRequest(0, 0)
	}
	out := make([]Choice, len(resp.Choices))
	for i, ch := range resp.Choices {
		out[i] = Choice{Text: ch.Text, FinishReason: ch.FinishReason}
	}
	return out, nil
}

// temperature maps 0 to the smallest positive float32: go-openai omits a zero
// temperature, and the server's default (usually 1) is not greedy.
func temperature(t float64) float32 {
	if t <= 0 {
		return math.SmallestNonzeroFloat32
	}
	return float32(t)
}

// usesMaxCompletionTokens reports whether the server wants
// max_completion_tokens (OpenAI and Azure; newer models reject max_tokens).
func (c *Client) usesMaxCompletionTokens() bool {
	return c.res.spec.Kind == KindOpenAI || c.res.spec.Kind == KindAzure
}

func (c *Client) chatRequest(req Request, n int, seed *int) openai.ChatCompletionRequest {
	p := req.Params
	msgs := make([]openai.ChatCompletionMessage, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = openai.ChatCompletionMessage{Role: m.Role, Content: m.Content}
	}
	r := openai.ChatCompletionRequest{
		Model: c.res.spec.Model, Messages: msgs, Temperature: temperature(p.Temperature),
		TopP: float32(p.TopP), Stop: p.Stop, Seed: seed,
	}
	if n > 1 {
		r.N = n
	}
	if c.usesMaxCompletionTokens() {
		r.MaxCompletionTokens = p.MaxTokens
	} else {
		r.MaxTokens = p.MaxTokens
	}
	return r
}

func (c *Client) completionRequest(req Request, n int, seed *int) openai.CompletionRequest {
	p := req.Params
	r := openai.CompletionRequest{
		Model: c.res.spec.Model, Prompt: req.Prompt, Temperature: temperature(p.Temperature),
		TopP: float32(p.TopP), Stop: p.Stop, Seed: seed, MaxTokens: p.MaxTokens,
	}
	if n > 1 {
		r.N = n
	}
	return r
}

// TopLogprobs asks for one token with its k most likely alternatives and
// returns those, most likely first.
func (c *Client) TopLogprobs(ctx context.Context, req Request, k int) ([]TokenLogprob, error) {
	if k < 1 {
		return nil, fmt.Errorf("top log-probabilities: k must be at least 1, not %d", k)
	}
	req.Params.N, req.Params.MaxTokens = 1, 1
	req, err := c.Prepare(req)
	if err != nil {
		return nil, err
	}
	if c.res.keyErr != nil {
		return nil, c.res.keyErr
	}
	var out []TokenLogprob
	if req.IsChat() {
		r := c.chatRequest(req, 1, req.Params.Seed)
		r.LogProbs, r.TopLogProbs = true, k
		resp, err := c.api.CreateChatCompletion(ctx, r)
		if err != nil {
			return nil, c.classify(err, "chat completion with logprobs")
		}
		c.usage.addRequest(resp.Usage.PromptTokens, resp.Usage.CompletionTokens)
		if len(resp.Choices) > 0 && resp.Choices[0].LogProbs != nil && len(resp.Choices[0].LogProbs.Content) > 0 {
			for _, t := range resp.Choices[0].LogProbs.Content[0].TopLogProbs {
				out = append(out, TokenLogprob{Token: t.Token, Logprob: t.LogProb})
			}
		}
	} else {
		r := c.completionRequest(req, 1, req.Params.Seed)
		r.LogProbs = k
		resp, err := c.api.CreateCompletion(ctx, r)
		if err != nil {
			return nil, c.classify(err, "completion with logprobs")
		}
		if resp.Usage != nil {
			c.usage.addRequest(resp.Usage.PromptTokens, resp.Usage.CompletionTokens)
		}
		if len(resp.Choices) > 0 && len(resp.Choices[0].LogProbs.TopLogprobs) > 0 {
			for tok, lp := range resp.Choices[0].LogProbs.TopLogprobs[0] {
				out = append(out, TokenLogprob{Token: tok, Logprob: float64(lp)})
			}
		}
	}
	if len(out) == 0 {
		return nil, newError(ErrMalformedResponse, nil, "%s returned no top log-probabilities for %s: the server or model may not support logprobs (vLLM and OpenAI do)",
			c.endpoint(), req.summary())
	}
	sortLogprobs(out)
	return out[:min(k, len(out))], nil
}

// sortLogprobs orders by probability, most likely first, ties by token.
func sortLogprobs(ts []TokenLogprob) {
	sort.SliceStable(ts, func(i, j int) bool {
		if ts[i].Logprob != ts[j].Logprob {
			return ts[i].Logprob > ts[j].Logprob
		}
		return ts[i].Token < ts[j].Token
	})
}

// embedBatch is how many texts one embeddings request carries.
const embedBatch = 128

// Embed returns one vector per text, computed by the spec's model (choose an
// embedding model, e.g. openai:text-embedding-3-small). Batches are sent
// concurrently.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	if c.res.keyErr != nil {
		return nil, c.res.keyErr
	}
	out := make([][]float32, len(texts))
	g, gctx := errgroup.WithContext(ctx)
	for start := 0; start < len(texts); start += embedBatch {
		batch := texts[start:min(start+embedBatch, len(texts))]
		g.Go(func() error {
			resp, err := c.api.CreateEmbeddings(gctx, openai.EmbeddingRequestStrings{
				Input: batch, Model: openai.EmbeddingModel(c.res.spec.Model),
			})
			if err != nil {
				return c.classify(err, "embeddings")
			}
			c.usage.addRequest(resp.Usage.PromptTokens, 0)
			if len(resp.Data) != len(batch) {
				return newError(ErrMalformedResponse, nil, "%s returned %d embeddings for %d texts: check that %q is an embedding model",
					c.endpoint(), len(resp.Data), len(batch), c.res.spec.Model)
			}
			for i, e := range resp.Data {
				idx := e.Index
				if idx < 0 || idx >= len(batch) || out[start+idx] != nil {
					idx = i // servers that do not number their answers
				}
				out[start+idx] = e.Embedding
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}
