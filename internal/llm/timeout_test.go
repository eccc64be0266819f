package llm_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
)

// TestSilentServer: a server that takes the request and never answers
// fails it with ErrNoAnswer once the request timeout passes, after one
// attempt, with a message that names the server and the timeout.
func TestSilentServer(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{Respond: llmtest.Silent()})
	for _, tt := range []struct {
		name string
		do   func(llm.Provider) error
	}{
		{"generate", func(p llm.Provider) error {
			_, err := p.Generate(context.Background(), llm.Request{Purpose: llm.PurposeCode, Task: humanEval0, Params: llm.Params{N: 2}})
			return err
		}},
		{"top logprobs", func(p llm.Provider) error {
			_, err := p.TopLogprobs(context.Background(), llm.Request{Purpose: llm.PurposeOther, Prompt: "yes or no?"}, 5)
			return err
		}},
		{"embed", func(p llm.Provider) error {
			_, err := p.Embed(context.Background(), []string{"a"})
			return err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv.Reset()
			c, _ := clientFor(t, srv, "vllm:m", llm.Options{RequestTimeout: 50 * time.Millisecond})
			err := tt.do(c)
			if !errors.Is(err, llm.ErrNoAnswer) {
				t.Fatalf("error %v does not match ErrNoAnswer", err)
			}
			assertOneLine(t, err, "no answer from "+srv.URL, "within 50ms")
			if n := len(srv.Calls()); n != 1 {
				t.Errorf("%d attempts, want 1: a silent server is not asked again", n)
			}
		})
	}
}

// TestWaitingReportsTheSilence: while a request waits, Waiting names the
// server; when it ends, nothing waits.
func TestWaitingReportsTheSilence(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{Respond: llmtest.Silent()})
	w := &llm.Waiting{}
	c, _ := clientFor(t, srv, "vllm:m", llm.Options{RequestTimeout: -1, Waiting: w})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Generate(ctx, llm.Request{Purpose: llm.PurposeCode, Task: humanEval0})
		done <- err
	}()
	for {
		url, since, ok := w.Silent()
		if ok {
			if url != srv.URL || since.IsZero() {
				t.Errorf("Silent() = %q, %v; want %q and the time the request was sent", url, since, srv.URL)
			}
			break
		}
		select {
		case err := <-done:
			t.Fatalf("Generate returned (%v) before Waiting saw the request", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if url, _, ok := w.Silent(); ok {
		t.Errorf("Silent() still reports %q after the request ended", url)
	}
}
