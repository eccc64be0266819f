// Package llmtest is a fake OpenAI-compatible server for tests: an httptest
// server that speaks the real wire format of chat completions, legacy
// completions (with logprobs in both formats), embeddings and the model list,
// in OpenAI's URL shape (/v1/...) and Azure's
// (/openai/deployments/NAME/...?api-version=...), with configurable canned
// replies, queued faults (429 with Retry-After, 5xx, malformed or truncated
// bodies), servers that ignore n, API-key checks and unknown models. Every
// call is recorded so tests can count them.
//
// Use it from any package's tests:
//
//	srv := llmtest.New(t, llmtest.Config{Respond: llmtest.Fixed("    return x\n")})
//	p, _ := llm.Open(llm.Spec{Kind: llm.KindVLLM, Model: "m", BaseURL: srv.URL}, llm.Options{})
//
// Only tests (and other test helpers) import it; ticoder's own code must
// not.
package llmtest
