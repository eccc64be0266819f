package qe

import (
	"context"
	"fmt"
	"strings"
)

// DenseEmbedder is what the api embedder needs from a model client: one
// vector per text, in order. llm.Provider implements it.
type DenseEmbedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// APIEmbedder embeds texts with an OpenAI-compatible embeddings endpoint
// (e.g. a code embedding model served by vLLM, TEI or Ollama) and
// normalises the vectors to unit length. Both fields use the same model.
// Blank texts get the zero vector without a request. It is safe for
// concurrent use if Client is.
type APIEmbedder struct {
	Client DenseEmbedder
	// Model names the model for caching, e.g. "vllm:bge-code@http://...".
	Model string
}

// Name implements Embedder: "api:" and the model.
func (a *APIEmbedder) Name() string { return "api:" + a.Model }

// Embed implements Embedder.
func (a *APIEmbedder) Embed(ctx context.Context, _ Field, texts []string) ([]Vector, error) {
	out := make([]Vector, len(texts))
	var ask []string
	var at []int
	for i, t := range texts {
		if strings.TrimSpace(t) != "" {
			ask = append(ask, t)
			at = append(at, i)
		}
	}
	if len(ask) == 0 {
		return out, nil
	}
	got, err := a.Client.Embed(ctx, ask)
	if err != nil {
		return nil, fmt.Errorf("embed with %s: %w", a.Model, err)
	}
	if len(got) != len(ask) {
		return nil, fmt.Errorf("embed with %s: %d vectors for %d texts", a.Model, len(got), len(ask))
	}
	for j, i := range at {
		out[i] = NewDense(got[j])
	}
	return out, nil
}
