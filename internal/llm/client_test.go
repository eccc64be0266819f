package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/testutil"
)

func ptr[T any](v T) *T { return &v }

func TestGenerateChat(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{Respond: llmtest.Fixed("```python\ndef f(): pass\n```", "second")})
	usage := &llm.Usage{}
	c, _ := clientFor(t, srv, "openai:gpt-4o-mini", llm.Options{Usage: usage})
	g, err := c.Generate(context.Background(), llm.Request{
		Purpose: llm.PurposeCode, Task: humanEval0,
		Params: llm.Params{N: 3, Temperature: 0.8, TopP: 0.95, Seed: ptr(7)},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"```python\ndef f(): pass\n```", "second", "```python\ndef f(): pass\n```"}
	if diff := cmp.Diff(want, g.Texts()); diff != "" {
		t.Errorf("texts (-want +got):\n%s", diff)
	}
	if g.Style != llm.StyleChat || g.Continues != "" || g.Short() {
		t.Errorf("generation = %+v, want a chat answer that stands alone", g)
	}
	calls := srv.Calls()
	if len(calls) != 1 || calls[0].Endpoint != "chat" {
		t.Fatalf("calls = %+v, want one chat call", calls)
	}
	call := calls[0]
	got := fmt.Sprintf("model=%s n=%d temp=%.2f top_p=%.2f max=%d seed=%d stop=%q auth=%q roles=%s,%s",
		call.Model, call.N, *call.Temperature, *call.TopP, call.MaxTokens, *call.Seed, call.Stop,
		call.Header.Get("Authorization"), call.Messages[0].Role, call.Messages[1].Role)
	wantCall := fmt.Sprintf(`model=gpt-4o-mini n=3 temp=0.80 top_p=0.95 max=%d seed=7 stop=[] auth="Bearer sk-test" roles=system,user`, llm.DefaultMaxTokensCode)
	if got != wantCall {
		t.Errorf("request:\n got %s\nwant %s", got, wantCall)
	}
	if !strings.Contains(string(call.Body), `"max_completion_tokens"`) {
		t.Errorf("OpenAI requests should use max_completion_tokens: %s", call.Body)
	}
	if !strings.Contains(call.Messages[1].Content, humanEval0.Prompt[:40]) || !strings.Contains(call.Messages[1].Content, "```python") {
		t.Errorf("user message lacks the prompt or the fence request:\n%s", call.Messages[1].Content)
	}
	if u := usage.Snapshot(); u.Requests != 1 || u.PromptTokens == 0 || u.CompletionTokens == 0 {
		t.Errorf("usage = %+v, want one request with tokens counted", u)
	}
}

func TestGenerateCompletionStyle(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{Respond: llmtest.Fixed("    return True\n")})
	c, _ := clientFor(t, srv, "vllm:codegen-16B", llm.Options{Style: llm.StyleCompletion})
	tests := []struct {
		purpose       llm.Purpose
		wantPrompt    string
		wantMaxTokens int
	}{
		{llm.PurposeCode, humanEval0.Prompt, llm.DefaultMaxTokensCode},
		{llm.PurposeTests, humanEval0.Prompt + "    pass\n\n# check the correctness of has_close_elements\nassert ", llm.DefaultMaxTokensTests},
	}
	for _, tt := range tests {
		t.Run(string(tt.purpose), func(t *testing.T) {
			srv.Reset()
			g, err := c.Generate(context.Background(), llm.Request{Purpose: tt.purpose, Task: humanEval0, Params: llm.Params{N: 2}})
			if err != nil {
				t.Fatal(err)
			}
			if g.Continues != tt.wantPrompt || g.Style != llm.StyleCompletion || len(g.Choices) != 2 {
				t.Errorf("generation = %+v, want 2 choices continuing the prompt", g)
			}
			call := srv.Calls()[0]
			if call.Endpoint != "completions" || call.Prompt != tt.wantPrompt || call.MaxTokens != tt.wantMaxTokens {
				t.Errorf("call = %s %q max %d", call.Endpoint, call.Prompt, call.MaxTokens)
			}
			if diff := cmp.Diff(llm.DefaultStop(tt.purpose, llm.StyleCompletion), call.Stop); diff != "" {
				t.Errorf("stop (-want +got):\n%s", diff)
			}
			if tp := *call.Temperature; tp <= 0 || tp > 1e-30 {
				t.Errorf("temperature 0 sent as %v, want the smallest positive float (greedy)", *call.Temperature)
			}
			if !strings.Contains(string(call.Body), `"max_tokens"`) {
				t.Errorf("vLLM requests should use max_tokens: %s", call.Body)
			}
		})
	}
}

func TestGenerateFillsUpWhenServerIgnoresN(t *testing.T) {
	var counter, arrived atomic.Int64
	var inFlight, maxInFlight atomic.Int64
	srv := llmtest.New(t, llmtest.Config{IgnoreN: true, Respond: func(c llmtest.Call) llmtest.Reply {
		if c.N > 1 { // the first call, necessarily alone
			return llmtest.Reply{Texts: []string{fmt.Sprintf("sample seed=%d #%d", *c.Seed, counter.Add(1))}}
		}
		fillUp := arrived.Add(1)
		now := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			m := maxInFlight.Load()
			if now <= m || maxInFlight.CompareAndSwap(m, now) {
				break
			}
		}
		// Hold the first fill-ups until two have been in flight at once,
		// so that the concurrency limit is actually exercised.
		for fillUp < 5 && maxInFlight.Load() < 2 && c.Context.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		return llmtest.Reply{Texts: []string{fmt.Sprintf("sample seed=%d #%d", *c.Seed, counter.Add(1))}}
	}})
	c, _ := clientFor(t, srv, "ollama:qwen2.5-coder:7b", llm.Options{Concurrency: 2})
	g, err := c.Generate(context.Background(), llm.Request{
		Purpose: llm.PurposeCode, Task: humanEval0, Params: llm.Params{N: 6, Temperature: 0.8, Seed: ptr(100)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Choices) != 6 || g.Short() {
		t.Fatalf("got %d choices, want 6", len(g.Choices))
	}
	if n := srv.Count("chat"); n != 6 {
		t.Errorf("server saw %d calls, want 6 (one asking n=6, five fill-ups)", n)
	}
	seeds := map[int]bool{}
	for _, call := range srv.Calls() {
		seeds[*call.Seed] = true
		if call.N > 1 && *call.Seed != 100 {
			t.Errorf("only the first call asks for n>1; got n=%d seed=%d", call.N, *call.Seed)
		}
	}
	if len(seeds) != 6 {
		t.Errorf("fill-up requests reuse seeds: %v (identical samples would come back)", seeds)
	}
	if m := maxInFlight.Load(); m != 2 {
		t.Errorf("%d fill-up requests were in flight at once, want 2 (the limit)", m)
	}
}

func TestRetries(t *testing.T) {
	date := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	tests := []struct {
		name      string
		replies   []llmtest.Reply
		attempts  int
		wantCalls int
		wantErr   error
		check     func(t *testing.T, d []time.Duration)
	}{
		{name: "429 with Retry-After seconds", replies: []llmtest.Reply{{Status: 429, ErrorMessage: "slow down", Header: map[string]string{"Retry-After": "2"}}},
			wantCalls: 2, check: func(t *testing.T, d []time.Duration) {
				if diff := cmp.Diff([]time.Duration{2 * time.Second}, d); diff != "" {
					t.Errorf("sleeps (-want +got):\n%s", diff)
				}
			}},
		{name: "429 with Retry-After date", replies: []llmtest.Reply{{Status: 429, Header: map[string]string{"Retry-After": date}}},
			wantCalls: 2, check: func(t *testing.T, d []time.Duration) {
				if len(d) != 1 || d[0] < 80*time.Second || d[0] > 91*time.Second {
					t.Errorf("sleeps = %v, want about 90s", d)
				}
			}},
		{name: "429 with retry-after-ms", replies: []llmtest.Reply{{Status: 429, Header: map[string]string{"retry-after-ms": "1500"}}},
			wantCalls: 2, check: func(t *testing.T, d []time.Duration) {
				if diff := cmp.Diff([]time.Duration{1500 * time.Millisecond}, d); diff != "" {
					t.Errorf("sleeps (-want +got):\n%s", diff)
				}
			}},
		{name: "500 then success", replies: []llmtest.Reply{{Status: 500, ErrorMessage: "oops"}, {Status: 502, Raw: "<html>bad gateway</html>"}},
			wantCalls: 3, check: func(t *testing.T, d []time.Duration) {
				if len(d) != 2 || d[0] > 500*time.Millisecond || d[1] > time.Second || d[1] < 500*time.Millisecond {
					t.Errorf("sleeps = %v, want a back-off of <=0.5s then 0.5-1s", d)
				}
			}},
		{name: "503 forever", attempts: 3, wantCalls: 3, wantErr: llm.ErrServer,
			replies: []llmtest.Reply{{Status: 503, ErrorMessage: "overloaded"}, {Status: 503}, {Status: 503}}},
		{name: "429 forever", attempts: 2, wantCalls: 2, wantErr: llm.ErrRateLimited,
			replies: []llmtest.Reply{{Status: 429}, {Status: 429}}},
		{name: "400 is not retried", wantCalls: 1, wantErr: llm.ErrBadRequest,
			replies: []llmtest.Reply{{Status: 400, ErrorMessage: "temperature out of range", ErrorType: "invalid_request_error"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Config{})
			srv.Enqueue(tt.replies...)
			usage := &llm.Usage{}
			c, sl := clientFor(t, srv, "vllm:m", llm.Options{Retry: llm.Retry{Attempts: tt.attempts}, Usage: usage})
			g, err := c.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: "hi"}}})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				assertOneLine(t, err, srv.URL)
				if tt.wantCalls > 1 && !strings.Contains(err.Error(), fmt.Sprintf("after %d attempts", tt.wantCalls)) {
					t.Errorf("error %q does not say how often it tried", err)
				}
			} else if err != nil || len(g.Choices) != 1 {
				t.Fatalf("Generate = %+v, %v; want success after retries", g, err)
			}
			if n := srv.Count(""); n != tt.wantCalls {
				t.Errorf("server saw %d calls, want %d", n, tt.wantCalls)
			}
			if r := usage.Snapshot().Retries; r != int64(tt.wantCalls-1) {
				t.Errorf("usage counted %d retries, want %d", r, tt.wantCalls-1)
			}
			if tt.check != nil {
				tt.check(t, sl.got())
			}
		})
	}
}

func TestMalformedResponses(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
		style llm.Style
	}{
		{name: "not json", reply: llmtest.Reply{Raw: "this is not json"}},
		{name: "truncated chat", reply: llmtest.Reply{Truncate: true}},
		{name: "truncated completion", reply: llmtest.Reply{Truncate: true}, style: llm.StyleCompletion},
		{name: "no choices", reply: llmtest.Reply{Raw: `{"id":"x","object":"chat.completion","choices":[]}`}},
		{name: "wrong types", reply: llmtest.Reply{Raw: `{"choices":"many"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Config{})
			srv.Enqueue(tt.reply)
			c, _ := clientFor(t, srv, "vllm:m", llm.Options{Style: tt.style})
			_, err := c.Generate(context.Background(), llm.Request{Purpose: llm.PurposeCode, Task: humanEval0})
			if !errors.Is(err, llm.ErrMalformedResponse) {
				t.Fatalf("err = %v, want ErrMalformedResponse", err)
			}
			assertOneLine(t, err, srv.URL)
		})
	}
}

func TestCancelSlowResponse(t *testing.T) {
	started := make(chan struct{}, 1)
	srv := llmtest.New(t, llmtest.Config{Respond: func(c llmtest.Call) llmtest.Reply {
		started <- struct{}{}
		<-c.Context.Done() // a server that never answers
		return llmtest.Reply{}
	}})
	c, sl := clientFor(t, srv, "vllm:m", llm.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Generate(ctx, llm.Request{Purpose: llm.PurposeCode, Task: humanEval0})
		errc <- err
	}()
	testutil.Receive(t, started, time.Minute, "the request to reach the server")
	cancel()
	err := testutil.Receive(t, errc, time.Minute, "Generate to return after the cancel")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(sl.got()) != 0 || srv.Count("") != 1 {
		t.Errorf("a cancelled request was retried: sleeps %v, calls %d", sl.got(), srv.Count(""))
	}
}

func TestAzure(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{APIKey: "az-key", Models: []string{"gpt4o-prod"}})
	getenv := env("AZURE_OPENAI_ENDPOINT", srv.Root, "AZURE_OPENAI_API_KEY", "az-key", "OPENAI_API_VERSION", "2024-10-21")
	c, _ := clientFor(t, nil, "azure:gpt4o-prod", llm.Options{Getenv: getenv})
	if _, err := c.Generate(context.Background(), llm.Request{Purpose: llm.PurposeCode, Task: humanEval0, Params: llm.Params{N: 2}}); err != nil {
		t.Fatal(err)
	}
	call := srv.Calls()[0]
	got := fmt.Sprintf("%s?api-version=%s key=%q bearer=%q", call.Path, call.APIVersion, call.Header.Get("api-key"), call.Header.Get("Authorization"))
	want := `/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-10-21 key="az-key" bearer=""`
	if got != want {
		t.Errorf("Azure request:\n got %s\nwant %s", got, want)
	}

	t.Run("unknown deployment", func(t *testing.T) {
		c, _ := clientFor(t, nil, "azure:gpt-35", llm.Options{Getenv: getenv})
		_, err := c.Generate(context.Background(), llm.Request{Purpose: llm.PurposeCode, Task: humanEval0})
		if !errors.Is(err, llm.ErrModelNotFound) {
			t.Fatalf("err = %v, want ErrModelNotFound", err)
		}
		assertOneLine(t, err, `"gpt-35"`, "deployment list")
	})
}

func TestErrorsSayWhatToDo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	srv := llmtest.New(t, llmtest.Config{APIKey: "right-key", Models: []string{"qwen2.5-coder:7b"}})
	open := llmtest.New(t, llmtest.Config{Models: []string{"qwen2.5-coder:7b"}})
	hangup := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack() // read the request, then hang up without answering
		if err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(hangup.Close)

	tests := []struct {
		name    string
		spec    string
		getenv  func(string) string
		wantErr error
		want    []string
		lack    string // not in the message
	}{
		{name: "connection refused", spec: "openai:gpt-4o-mini", getenv: env("OPENAI_API_KEY", "k", "OPENAI_BASE_URL", refused),
			wantErr: llm.ErrUnreachable, want: []string{"cannot reach " + refused, "connection refused", "is the server running?", "set OPENAI_BASE_URL", "vllm:MODEL@http://HOST:PORT/v1"}},
		{name: "refused at the address of the selector", spec: "openai:gpt-4o-mini@" + refused, getenv: env("OPENAI_API_KEY", "k"),
			wantErr: llm.ErrUnreachable, want: []string{"cannot reach " + refused, "connection refused", "check the address given after @ in openai:gpt-4o-mini@…"}, lack: "OPENAI_BASE_URL"},
		{name: "ollama refused", spec: "ollama:qwen2.5-coder:7b", getenv: env("OLLAMA_HOST", refused),
			wantErr: llm.ErrUnreachable, want: []string{"set OLLAMA_HOST", "ollama:qwen2.5-coder:7b@http://HOST:PORT/v1"}},
		{name: "server hangs up", spec: "vllm:m@" + hangup.URL + "/v1",
			wantErr: llm.ErrUnreachable, want: []string{"cannot reach " + hangup.URL + "/v1", "connection lost: EOF", "check the address given after @"}, lack: "VLLM_BASE_URL"},
		{name: "401", spec: "openai:qwen2.5-coder:7b@" + srv.URL, getenv: env("OPENAI_API_KEY", "wrong-key-123"),
			wantErr: llm.ErrUnauthorized, want: []string{srv.URL + " rejected the API key", "set OPENAI_API_KEY"}},
		{name: "missing key", spec: "openai:gpt-4o-mini", getenv: env(),
			wantErr: llm.ErrUnauthorized, want: []string{"needs an API key", "set OPENAI_API_KEY"}},
		{name: "unknown model", spec: "openai:qwen3:999b@" + srv.URL, getenv: env("OPENAI_API_KEY", "right-key"),
			wantErr: llm.ErrModelNotFound, want: []string{`"qwen3:999b"`, "list its models with curl -s " + srv.URL + "/models"}},
		{name: "unknown ollama model", spec: "ollama:qwen3:999b@" + open.URL, getenv: env(),
			wantErr: llm.ErrModelNotFound, want: []string{`"qwen3:999b"`, "ollama list"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, sl := clientFor(t, nil, tt.spec, llm.Options{Getenv: tt.getenv})
			_, err := c.Generate(context.Background(), llm.Request{Purpose: llm.PurposeCode, Task: humanEval0})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			assertOneLine(t, err, tt.want...)
			if tt.lack != "" && strings.Contains(err.Error(), tt.lack) {
				t.Errorf("error %q names %s, which does not apply", err, tt.lack)
			}
			for _, secret := range []string{"wrong-key-123", "right-key"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error leaks the key: %v", err)
				}
			}
			if tt.wantErr == llm.ErrUnreachable && len(sl.got()) != 4 {
				t.Errorf("connection errors retried with sleeps %v, want 4 back-offs (5 attempts)", sl.got())
			}
		})
	}
}

func TestTopLogprobs(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{Respond: func(llmtest.Call) llmtest.Reply {
		return llmtest.Reply{Top: []llmtest.Logprob{{Token: "no", Logprob: -0.5}, {Token: "yes", Logprob: -1}, {Token: "Yes", Logprob: -2}}}
	}})
	want := []llm.TokenLogprob{{Token: "no", Logprob: -0.5}, {Token: "yes", Logprob: -1}}
	tests := []struct {
		name     string
		req      llm.Request
		style    llm.Style
		endpoint string
	}{
		{name: "chat", req: llm.Request{Messages: []llm.Message{{Role: "user", Content: "Is it correct? Answer yes or no."}}}, endpoint: "chat"},
		{name: "completions", req: llm.Request{Prompt: "Is it correct? Answer yes or no:"}, style: llm.StyleCompletion, endpoint: "completions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.Reset()
			c, _ := clientFor(t, srv, "vllm:judge", llm.Options{Style: tt.style})
			got, err := c.TopLogprobs(context.Background(), tt.req, 2)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("top logprobs (-want +got):\n%s", diff)
			}
			call := srv.Calls()[0]
			if call.Endpoint != tt.endpoint || !call.Logprobs || call.TopLogprobs != 2 || call.MaxTokens != 1 {
				t.Errorf("call = %s logprobs=%v top=%d max=%d", call.Endpoint, call.Logprobs, call.TopLogprobs, call.MaxTokens)
			}
		})
	}
	t.Run("server without logprobs", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Config{Respond: func(llmtest.Call) llmtest.Reply { return llmtest.Reply{Top: []llmtest.Logprob{}} }})
		c, _ := clientFor(t, srv, "vllm:judge", llm.Options{})
		_, err := c.TopLogprobs(context.Background(), tests[0].req, 2)
		if !errors.Is(err, llm.ErrMalformedResponse) {
			t.Fatalf("err = %v, want ErrMalformedResponse", err)
		}
		assertOneLine(t, err, "no top log-probabilities")
	})
}

func TestEmbed(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{})
	usage := &llm.Usage{}
	c, _ := clientFor(t, srv, "openai:text-embedding-3-small", llm.Options{Usage: usage})
	texts := make([]string, 300) // three batches
	for i := range texts {
		texts[i] = fmt.Sprintf("def f%d(): return %d", i, i)
	}
	got, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if diff := cmp.Diff(llmtest.Vector(texts[i]), v); diff != "" {
			t.Fatalf("embedding %d (-want +got):\n%s", i, diff)
		}
	}
	if n := srv.Count("embeddings"); n != 3 {
		t.Errorf("%d embeddings calls, want 3 batches", n)
	}
	if srv.Calls()[0].Model != "text-embedding-3-small" {
		t.Errorf("model = %q", srv.Calls()[0].Model)
	}
	if u := usage.Snapshot(); u.Requests != 3 || u.PromptTokens == 0 {
		t.Errorf("usage = %+v", u)
	}
}
