package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClientErrors(t *testing.T) {
	tests := []struct {
		name, body string
		status     int
		want       StatusError
	}{
		{"json error", `{"error":"no such session"}`, 404, StatusError{Status: 404, Message: "no such session"}},
		{"text error", "bad gateway\n", 502, StatusError{Status: 502, Message: "bad gateway"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer hs.Close()
			_, err := NewClient(hs.URL+"/", nil).Session(context.Background(), "abc")
			var se *StatusError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *StatusError", err)
			}
			if d := cmp.Diff(tc.want, *se); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestClientSendsAnswer(t *testing.T) {
	var got Answer
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/sessions/s%2F1/answer" && r.URL.RawPath != "/api/sessions/s%2F1/answer" {
			t.Errorf("request %s %s (raw %s)", r.Method, r.URL.Path, r.URL.RawPath)
		}
		if err := decodeJSON(r, &got); err != nil {
			t.Error(err)
		}
		_, _ = w.Write([]byte(`{"id":"s/1","done":true}`))
	}))
	defer hs.Close()
	s, err := NewClient(hs.URL, hs.Client()).Answer(context.Background(), "s/1", Answer{Test: 3, Verdict: VerdictOutput, Value: "[1]"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(Answer{Test: 3, Verdict: VerdictOutput, Value: "[1]"}, got); d != "" {
		t.Errorf("sent (-want +got):\n%s", d)
	}
	if s.ID != "s/1" || !s.Done {
		t.Errorf("decoded %+v", s)
	}
}

func decodeJSON(r *http.Request, v any) error {
	return json.NewDecoder(r.Body).Decode(v)
}

// TestClientTokenAndContentType: a ?token= in the base address is sent as
// an Authorization header and not in the address; every POST, even one
// without a body, is JSON.
func TestClientTokenAndContentType(t *testing.T) {
	type seen struct{ method, uri, auth, ctype, body string }
	reqs := make(chan seen, 4)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		reqs <- seen{r.Method, r.URL.RequestURI(), r.Header.Get("Authorization"), r.Header.Get("Content-Type"), string(b)}
		_, _ = w.Write([]byte(`{}`))
	}))
	defer hs.Close()
	ctx := context.Background()
	c := NewClient(hs.URL+"/?token=0123456789abcdef", hs.Client())
	tests := []struct {
		name string
		call func() error
		want seen
	}{
		{"get", func() error { _, err := c.Info(ctx); return err },
			seen{"GET", "/api/info", "Bearer 0123456789abcdef", "", ""}},
		{"post without body", func() error { _, err := c.Undo(ctx, "s1"); return err },
			seen{"POST", "/api/sessions/s1/undo", "Bearer 0123456789abcdef", "application/json", "{}"}},
		{"other token", func() error { _, err := c.WithToken("fedcba9876543210").Stop(ctx, "s1"); return err },
			seen{"POST", "/api/sessions/s1/stop", "Bearer fedcba9876543210", "application/json", "{}"}},
		{"no token", func() error { _, err := NewClient(hs.URL, hs.Client()).Info(ctx); return err },
			seen{"GET", "/api/info", "", "", ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, <-reqs, cmp.AllowUnexported(seen{})); d != "" {
				t.Errorf("request (-want +got):\n%s", d)
			}
		})
	}
}
