package llm

import (
	"fmt"
	"sync/atomic"
)

// Usage counts requests and tokens across providers. The zero value is ready
// to use and it is safe for concurrent use; a nil *Usage counts nothing.
type Usage struct {
	requests         atomic.Int64
	retries          atomic.Int64
	promptTokens     atomic.Int64
	completionTokens atomic.Int64
}

// UsageSnapshot is a point-in-time copy of a Usage.
type UsageSnapshot struct {
	// Requests is the number of HTTP requests answered successfully.
	Requests int64 `json:"requests"`
	// Retries is the number of attempts repeated after 429, 5xx or a
	// connection error.
	Retries int64 `json:"retries"`
	// PromptTokens is the sum of the prompt tokens servers reported.
	PromptTokens int64 `json:"prompt_tokens"`
	// CompletionTokens is the sum of the completion tokens servers reported.
	CompletionTokens int64 `json:"completion_tokens"`
}

// Snapshot returns the current counts.
func (u *Usage) Snapshot() UsageSnapshot {
	if u == nil {
		return UsageSnapshot{}
	}
	return UsageSnapshot{
		Requests:         u.requests.Load(),
		Retries:          u.retries.Load(),
		PromptTokens:     u.promptTokens.Load(),
		CompletionTokens: u.completionTokens.Load(),
	}
}

// String returns e.g. "12 requests, 3 retries, 5120 prompt + 20480 completion tokens".
func (s UsageSnapshot) String() string {
	return fmt.Sprintf("%d requests, %d retries, %d prompt + %d completion tokens",
		s.Requests, s.Retries, s.PromptTokens, s.CompletionTokens)
}

func (u *Usage) addRequest(prompt, completion int) {
	if u == nil {
		return
	}
	u.requests.Add(1)
	u.promptTokens.Add(int64(prompt))
	u.completionTokens.Add(int64(completion))
}

func (u *Usage) addRetry() {
	if u != nil {
		u.retries.Add(1)
	}
}
