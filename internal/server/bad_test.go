package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/llm"
)

// TestBadRequests sends requests a careless or hostile client might send and
// checks each gets the right status and a message in words, and that the
// session's earlier answers are kept.
func TestBadRequests(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	c, hs := startServer(t, pool, filepath.Join(t.TempDir(), "db.sqlite"), nil)
	pf, err := c.Create(ctx, api.CreateSession{Demo: "median"})
	if err != nil {
		t.Fatal(err)
	}
	if pf, err = c.Answer(ctx, pf.ID, api.Answer{Test: pf.Question.Test, Verdict: api.VerdictUndefined}); err != nil {
		t.Fatal(err)
	}
	out, err := c.Create(ctx, api.CreateSession{Demo: "median", Mode: api.ModeOutput})
	if err != nil {
		t.Fatal(err)
	}
	if out, err = c.Answer(ctx, out.ID, api.Answer{Test: out.Question.Test, Verdict: api.VerdictUndefined}); err != nil {
		t.Fatal(err)
	}
	answer := func(_ string, a api.Answer) string {
		b, _ := json.Marshal(a)
		return string(b)
	}
	unasked := (pf.Question.Test + 1) % 21
	tests := []struct {
		name, method, path, body string
		status                   int
		says                     string
	}{
		{"unknown endpoint", "GET", "/api/nothing", "", 404, "no API endpoint"},
		{"malformed id", "GET", "/api/sessions/..%2f..", "", 404, "no such session"},
		{"unknown id", "GET", "/api/sessions/0123456789abcdef0123456789abcdef", "", 404, "no such session"},
		{"not JSON", "POST", "/api/sessions", "{", 400, "not valid JSON"},
		{"no body", "POST", "/api/sessions", "", 400, "no JSON body"},
		{"unknown field", "POST", "/api/sessions", `{"demo":"median","colour":"red"}`, 400, "unknown field"},
		{"two values", "POST", "/api/sessions", `{"demo":"median"} {}`, 400, "more than one"},
		{"too large", "POST", "/api/sessions", `{"spec":"` + strings.Repeat("x", 300<<10) + `"}`, 413, "too large"},
		{"no source", "POST", "/api/sessions", `{}`, 400, "say what to write"},
		{"two sources", "POST", "/api/sessions", `{"demo":"median","task":"mbpp/2"}`, 400, "only one"},
		{"unknown demo", "POST", "/api/sessions", `{"demo":"nope"}`, 400, "unknown demo problem"},
		{"bad mode", "POST", "/api/sessions", `{"demo":"median","mode":"loud"}`, 400, "unknown mode"},
		{"negative limit", "POST", "/api/sessions", `{"demo":"median","max_questions":-1}`, 400, "between 0 and 1000"},
		{"spec syntax error", "POST", "/api/sessions", `{"spec":"import re\n\ndef f(x)\n    \"\"\"Doc.\"\"\"\n"}`, 400, "line 3"},
		{"empty spec", "POST", "/api/sessions", `{"spec":"  \n"}`, 400, "spec is empty"},
		{"spec without def", "POST", "/api/sessions", `{"spec":"x = 1\n"}`, 400, "no function definition"},
		{"task without id", "POST", "/api/sessions", `{"task":"humaneval"}`, 400, "want DATASET/ID"},
		{"unknown dataset", "POST", "/api/sessions", `{"task":"nope/1"}`, 400, "unknown dataset"},
		{"spec without model", "POST", "/api/sessions", `{"spec":"def f(x):\n    \"\"\"Doc.\"\"\"\n"}`, 400, "restart it with ticoder serve --model MODEL"},
		{"answer not asked", "POST", "/api/sessions/" + pf.ID + "/answer", answer(pf.ID, api.Answer{Test: unasked, Verdict: "pass"}), 409, "no longer open"},
		{"answer of nothing", "POST", "/api/sessions/" + pf.ID + "/answer", answer(pf.ID, api.Answer{Test: pf.Question.Test, Verdict: "perhaps"}), 400, "unknown answer"},
		{"output in passfail", "POST", "/api/sessions/" + pf.ID + "/answer", answer(pf.ID, api.Answer{Test: pf.Question.Test, Verdict: "output", Value: "1"}), 400, "start a new session in Output mode"},
		{"output not Python", "POST", "/api/sessions/" + out.ID + "/answer", answer(out.ID, api.Answer{Test: out.Question.Test, Verdict: "output", Value: "(1,"}), 400, "not valid Python"},
		{"output empty", "POST", "/api/sessions/" + out.ID + "/answer", answer(out.ID, api.Answer{Test: out.Question.Test, Verdict: "output", Value: " "}), 400, "value is empty"},
		{"output is code", "POST", "/api/sessions/" + out.ID + "/answer", answer(out.ID, api.Answer{Test: out.Question.Test, Verdict: "output", Value: "1/0"}), 400, "only literal values"},
		{"output too large", "POST", "/api/sessions/" + out.ID + "/answer", answer(out.ID, api.Answer{Test: out.Question.Test, Verdict: "output", Value: strings.Repeat("1", 20<<10)}), 413, "limit"},
		{"export pruned candidate", "GET", "/api/sessions/" + pf.ID + "/export?candidate=999", "", 400, "no such remaining candidate"},
		{"export bad candidate", "GET", "/api/sessions/" + pf.ID + "/export?candidate=x", "", 400, "candidate"},
		{"bad download", "GET", "/api/sessions/" + pf.ID + "/export?download=zip", "", 400, "code, tests or patch"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			req, _ := http.NewRequest(tc.method, hs.URL+tc.path, body)
			if tc.method == "POST" {
				req.Header.Set("Content-Type", "application/json")
			}
			resp, err := hs.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e api.Error
			data, _ := io.ReadAll(resp.Body)
			if err := json.Unmarshal(data, &e); err != nil {
				t.Fatalf("status %d, body not an api.Error: %s", resp.StatusCode, data)
			}
			if resp.StatusCode != tc.status || !strings.Contains(e.Error, tc.says) {
				t.Errorf("status %d %q, want %d saying %q", resp.StatusCode, e.Error, tc.status, tc.says)
			}
		})
	}
	for _, s := range []*api.Session{pf, out} {
		got, err := c.Session(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(s, got); d != "" {
			t.Errorf("bad requests changed session %s (-before +after):\n%s", s.ID, d)
		}
	}
}

// TestModelDown starts sessions from a spec with a model whose server does
// not answer: the request fails with a message that names the model and what
// to do, and other sessions keep their answers.
func TestModelDown(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	dead := deadURL(t)
	prov, err := llm.Open(llm.Spec{Kind: llm.KindVLLM, Model: "m", BaseURL: dead}, llm.Options{Retry: llm.Retry{Attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	gen := &interact.ModelGenerator{Provider: prov, Caller: pool}
	c, _ := startServer(t, pool, filepath.Join(t.TempDir(), "db.sqlite"), gen)
	s, err := c.Create(ctx, api.CreateSession{Demo: "median"})
	if err != nil {
		t.Fatal(err)
	}
	if s, err = c.Answer(ctx, s.ID, api.Answer{Test: s.Question.Test, Verdict: api.VerdictUndefined}); err != nil {
		t.Fatal(err)
	}
	_, err = c.Create(ctx, api.CreateSession{Spec: "def f(x):\n    \"\"\"Double x.\"\"\"\n"})
	var se *api.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusBadGateway || !strings.Contains(se.Message, "did not answer") || !strings.Contains(se.Message, dead) {
		t.Errorf("create with the model down: %v, want 502 naming the model", err)
	}
	got, err := c.Session(ctx, s.ID)
	if err != nil || len(got.History) != 1 {
		t.Errorf("earlier session after the failure: %v, %d answers", err, len(got.History))
	}
}

// deadURL returns the base URL of a port nothing listens on any more.
func deadURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	return url
}
