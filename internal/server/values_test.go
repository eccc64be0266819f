package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/execute"
)

// recorder is a Runner that records what it is asked to run and passes it
// on: it shows whether a value reached code that evaluates it.
type recorder struct {
	execute.Runner
	mu    sync.Mutex
	runs  []string // every test's setup, code, input and expected value
	calls []string // function names given to Call
}

func (r *recorder) Run(ctx context.Context, job execute.Job, each func(int, []execute.Result)) (*execute.Matrix, error) {
	r.mu.Lock()
	for _, t := range job.Tests {
		r.runs = append(r.runs, strings.Join([]string{t.Setup, t.Code, t.Input, t.Expected}, "\n"))
	}
	r.mu.Unlock()
	return r.Runner.Run(ctx, job, each)
}

func (r *recorder) Call(ctx context.Context, source, function string, arg, result any) error {
	r.mu.Lock()
	r.calls = append(r.calls, function)
	r.mu.Unlock()
	return r.Runner.Call(ctx, source, function, arg, result)
}

// ran reports whether any test run contained s.
func (r *recorder) ran(s string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, run := range r.runs {
		if strings.Contains(run, s) {
			return true
		}
	}
	return false
}

// TestCodeValuesNotExecuted answers an Output-mode question with values
// that are code (they would read the host's files, start processes or
// sleep): each is a 400 saying only literal values are accepted, the
// session is unchanged, nothing the value says is run (the Runner sees no
// test with it), and no file content comes back. A literal value is run.
func TestCodeValuesNotExecuted(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	rec := &recorder{Runner: pool}
	_, hs := serve(t, pool, Options{Runner: rec})
	c := api.NewClient(hs.URL, hs.Client())
	s, err := c.Create(ctx, api.CreateSession{Demo: "median", Mode: api.ModeOutput})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Question.CanOutput {
		t.Fatalf("question %+v cannot take a value", s.Question)
	}
	hostname, _ := os.ReadFile("/etc/hostname")
	secret := strings.TrimSpace(string(hostname))
	values := []string{
		"open('/etc/hostname').read()",
		"int(open('/etc/hostname').read())",
		"__import__('os').system('touch /tmp/ticoder-pwned')",
		"[1, __import__('time').sleep(3)]",
		"1 if __import__('os').getpid() else 2",
		"f\"{open('/etc/hostname').read()}\"",
		"(lambda: open('/etc/hostname').read())()",
		"{'a': exec('import os')}",
		"[x for x in open('/etc/hostname')]",
		"1/0",
	}
	for _, v := range values {
		t.Run(v, func(t *testing.T) {
			body, _ := json.Marshal(api.Answer{Test: s.Question.Test, Verdict: api.VerdictOutput, Value: v})
			req, _ := http.NewRequest("POST", hs.URL+"/api/sessions/"+s.ID+"/answer", strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			resp, err := hs.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 400 || !strings.Contains(string(data), "only literal values are accepted") {
				t.Errorf("status %d %.300s, want 400 saying only literal values are accepted", resp.StatusCode, data)
			}
			if secret != "" && strings.Contains(string(data), secret) {
				t.Errorf("the response shows /etc/hostname: %s", data)
			}
			if rec.ran(v) {
				t.Errorf("the value was run in the sandbox")
			}
		})
	}
	got, err := c.Session(ctx, s.ID)
	if err != nil || len(got.History) != 0 {
		t.Errorf("after the refused values: %v, %d answers", err, len(got.History))
	}
	// A literal is accepted and compared in the sandbox: the recorder sees it.
	if _, err := c.Answer(ctx, s.ID, api.Answer{Test: s.Question.Test, Verdict: api.VerdictOutput, Value: "-7.25"}); err != nil {
		t.Fatal(err)
	}
	if !rec.ran("-7.25") {
		t.Error("the literal value was not run; the recorder sees nothing")
	}
}

// TestErrorTextCapped: an error that quotes a long value comes back cut to
// maxErrorText, saying how much was cut.
func TestErrorTextCapped(t *testing.T) {
	ctx := context.Background()
	_, c := newServer(t, testPool(t), Options{})
	s, err := c.Create(ctx, api.CreateSession{Demo: "median", Mode: api.ModeOutput})
	if err != nil {
		t.Fatal(err)
	}
	long := "[" + strings.Repeat("1, ", 5000) // never closed; the error quotes the line
	_, err = c.Answer(ctx, s.ID, api.Answer{Test: s.Question.Test, Verdict: api.VerdictOutput, Value: long})
	var se *api.StatusError
	if !errors.As(err, &se) || se.Status != 400 {
		t.Fatalf("error %v, want a 400", err)
	}
	if len(se.Message) > maxErrorText+64 || !strings.Contains(se.Message, "more bytes cut") || !strings.Contains(se.Message, "not valid Python") {
		t.Errorf("message of %d bytes: %.200q…", len(se.Message), se.Message)
	}
}

func TestCapText(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc… (3 more bytes cut)"},
		{"aé", 2, "a… (2 more bytes cut)"}, // é is 2 bytes: not split
	}
	for _, tc := range tests {
		if got := capText(tc.in, tc.n); got != tc.want {
			t.Errorf("capText(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
