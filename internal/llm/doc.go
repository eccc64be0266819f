// Package llm talks to the language models that write candidate programs and
// tests, and replays recorded generations so that everything also runs offline.
//
// One small interface, Provider, covers what ticoder asks of a model: generate n
// completions for a request, score the next token with its top
// log-probabilities (the quality-estimation judge reads P(yes) and P(no) from
// them), and embed texts. Implementations:
//
//   - the OpenAI-compatible client (OpenAI, Azure OpenAI, vLLM, Ollama,
//     llama.cpp's server, LM Studio), built on github.com/sashabaranov/go-openai,
//     with retries that honour Retry-After, a concurrency limit, filling up
//     servers that ignore n, and token usage counting;
//   - Replay, which serves recorded samples (CodeT's {prompt, samples} rows and
//     task-keyed rows) from a directory;
//   - Cache, which wraps any provider with a SQLite response cache keyed by the
//     SHA-256 of the exact request, and can refuse to go online (Offline).
//
// A Request says what is asked (Purpose: code or tests) and for which problem
// (Task), so that live providers render a prompt from it with Prompts (Go
// text/template, overridable from a file) and Replay looks the samples up.
// Requests may instead carry ready chat Messages or a raw Prompt (the judge
// does). A model is chosen by one string, parsed by ParseSpec:
// "openai:gpt-4o-mini", "ollama:qwen2.5-coder:7b", "vllm:NAME@http://host:8000/v1",
// "azure:DEPLOYMENT", "replay:DIR". Keys and base URLs come from the usual
// environment variables, read when a provider is opened, and are never logged.
//
// Errors meant for a person are one line that says what to do; they match the
// package's sentinel errors (ErrUnreachable, ErrUnauthorized, ErrModelNotFound,
// ErrMalformedResponse, ErrCacheMiss, ...) with errors.Is.
//
// llm must not run or judge the code it receives.
package llm
