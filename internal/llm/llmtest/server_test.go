package llmtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
)

func post(t *testing.T, url, body string, header map[string]string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("response is not JSON: %v: %s", err, b)
	}
	return resp.StatusCode, out
}

// jsonOf re-encodes part of a response so it can be compared as text.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWireFormats(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{APIKey: "k", Respond: llmtest.Samples(map[string][]string{"def f():": {"    return 1", "    return 2"}})})
	auth := map[string]string{"Authorization": "Bearer k"}
	tests := []struct {
		name       string
		url        string
		body       string
		header     map[string]string
		wantStatus int
		pick       func(map[string]any) any
		want       string
	}{
		{name: "legacy completions with logprobs", url: srv.URL + "/completions", header: auth,
			body: `{"model":"m","prompt":"def f():","n":2,"logprobs":2,"max_tokens":1}`, wantStatus: 200,
			pick: func(m map[string]any) any { return m["choices"] },
			want: `[{"finish_reason":"stop","index":0,"logprobs":{"text_offset":[8],"token_logprobs":[-0.2],"tokens":["yes"],"top_logprobs":[{"no":-1.8,"yes":-0.2}]},"text":"    return 1"},` +
				`{"finish_reason":"stop","index":1,"logprobs":{"text_offset":[8],"token_logprobs":[-0.2],"tokens":["yes"],"top_logprobs":[{"no":-1.8,"yes":-0.2}]},"text":"    return 2"}]`},
		{name: "chat with logprobs", url: srv.URL + "/chat/completions", header: auth,
			body: `{"model":"m","messages":[{"role":"user","content":"def f():"}],"logprobs":true,"top_logprobs":1}`, wantStatus: 200,
			pick: func(m map[string]any) any { return m["choices"] },
			want: `[{"finish_reason":"stop","index":0,"logprobs":{"content":[{"bytes":"eWVz","logprob":-0.2,"token":"yes","top_logprobs":[{"bytes":"eWVz","logprob":-0.2,"token":"yes"}]}]},"message":{"content":"    return 1","role":"assistant"}}]`},
		{name: "no canned samples", url: srv.URL + "/completions", header: auth, body: `{"model":"m","prompt":"def g():"}`, wantStatus: 400,
			pick: func(m map[string]any) any { return m["error"].(map[string]any)["message"] },
			want: `"llmtest: no canned samples for prompt \"def g():\""`},
		{name: "wrong key", url: srv.URL + "/completions", header: map[string]string{"Authorization": "Bearer x"}, body: `{"model":"m"}`, wantStatus: 401,
			pick: func(m map[string]any) any { return m["error"].(map[string]any)["code"] }, want: `"invalid_api_key"`},
		{name: "azure without api-version", url: srv.Root + "/openai/deployments/d/chat/completions", header: map[string]string{"api-key": "k"},
			body: `{"messages":[]}`, wantStatus: 404, pick: func(m map[string]any) any { return m["error"].(map[string]any)["code"] }, want: `"404"`},
		{name: "embeddings", url: srv.URL + "/embeddings", header: auth, body: `{"model":"e","input":["a"]}`, wantStatus: 200,
			pick: func(m map[string]any) any { return len(m["data"].([]any)[0].(map[string]any)["embedding"].([]any)) }, want: "8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, tt.url, tt.body, tt.header)
			if status != tt.wantStatus {
				t.Fatalf("status %d, want %d: %v", status, tt.wantStatus, body)
			}
			if diff := cmp.Diff(tt.want, jsonOf(t, tt.pick(body))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if got := srv.Count(""); got != len(tests) {
		t.Errorf("Count = %d, want %d", got, len(tests))
	}
}
