package llm_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
)

// sleeps records the back-off delays a client asked for and returns at once,
// so retry tests take no wall-clock time.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// env returns a Getenv over a map.
func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// clientFor opens a client of kind for srv with instant retries.
func clientFor(t *testing.T, srv *llmtest.Server, spec string, opts llm.Options) (*llm.Client, *sleeps) {
	t.Helper()
	s, err := llm.ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	if s.BaseURL == "" && s.Kind != llm.KindAzure && srv != nil {
		s.BaseURL = srv.URL
	}
	sl := &sleeps{}
	opts.Retry.Sleep = sl.sleep
	if opts.Getenv == nil {
		opts.Getenv = env("OPENAI_API_KEY", "sk-test")
	}
	c, err := llm.NewClient(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c, sl
}

// humanEval0 is the first HumanEval-noexamples task, as the tests use it.
var humanEval0 = llm.Task{
	ID: "HumanEval/0",
	Prompt: "from typing import List\n\n\ndef has_close_elements(numbers: List[float], threshold: float) -> bool:\n" +
		"    \"\"\" Check if in given list of numbers, are any two numbers closer to each other than\n    given threshold.\n    \"\"\"\n",
	Signature:  "def has_close_elements(numbers: List[float], threshold: float) -> bool:",
	EntryPoint: "has_close_elements",
}

// assertOneLine fails unless err is a single line mentioning every want.
func assertOneLine(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want one mentioning %q", want)
	}
	msg := err.Error()
	t.Logf("error: %s", msg)
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("error is not one line: %q", msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q does not mention %q", msg, w)
		}
	}
}
