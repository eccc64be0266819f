package api

import (
	"context"
	"encoding/json"
	"errors"
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
