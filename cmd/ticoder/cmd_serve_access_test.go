package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/api"
)

// TestDecideAccessToken: the token comes from --token, else
// $TICODER_TOKEN; a bad one is a usage error naming --token. (The access
// rules themselves are server.DecideAccess's, tested there.)
func TestDecideAccessToken(t *testing.T) {
	const given, env = "given-token-0123456789", "env-token-0123456789"
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	tests := []struct {
		name, flag, env, want string
	}{
		{"none", "", "", ""},
		{"--token", given, "", given},
		{"$TICODER_TOKEN", "", env, env},
		{"--token over $TICODER_TOKEN", given, env, given},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(tokenEnv, tc.env)
			acc, err := decideAccess(&serveOptions{addr: "127.0.0.1:8080", token: tc.flag}, loopback)
			if err != nil || acc.Token != tc.want {
				t.Errorf("token %q (%v), want %q", acc.Token, err, tc.want)
			}
		})
	}
	for _, bad := range []string{"short", "has space in it 0123", "semi;colon0123456789"} {
		for _, fromEnv := range []bool{false, true} {
			t.Run(fmt.Sprintf("bad token %s from env %v", bad, fromEnv), func(t *testing.T) {
				o := &serveOptions{addr: "127.0.0.1:8080", token: bad}
				t.Setenv(tokenEnv, "")
				if fromEnv {
					o.token = ""
					t.Setenv(tokenEnv, bad)
				}
				_, err := decideAccess(o, loopback)
				var ue usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--token") {
					t.Errorf("error %v, want a usage error naming --token", err)
				}
			})
		}
	}
}

// TestServeWithToken starts ticoder serve --require-token on loopback (as
// any address off loopback would): it prints the address with ?token=, the
// API client given that address works, and requests without the token, from
// a foreign Host or not in JSON are refused.
func TestServeWithToken(t *testing.T) {
	t.Setenv(tokenEnv, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	o := &serveOptions{addr: "127.0.0.1:0", demo: true, requireToken: true, ready: func(u string) { urls <- u }}
	o.flags = runDefaults(t).flags
	g := runGlobals(t)
	var errw syncBuffer
	done := make(chan error, 1)
	go func() { done <- runServe(ctx, g, o, &errw) }()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("serve stopped: %v\n%s", err, errw.String())
	case <-time.After(time.Minute):
		t.Fatalf("serve did not start listening in a minute:\n%s", errw.String())
	}
	if !regexp.MustCompile(`^http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{48}$`).MatchString(url) ||
		!strings.Contains(errw.String(), "serving on "+url) {
		t.Errorf("address %q; stderr:\n%s", url, errw.String())
	}
	c := api.NewClient(url, nil)
	if _, err := c.Create(ctx, api.CreateSession{Demo: "median"}); err != nil {
		t.Fatalf("create with the token: %v", err)
	}
	base, _, _ := strings.Cut(url, "?")
	_, err := api.NewClient(base, nil).Info(ctx)
	var se *api.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusUnauthorized {
		t.Errorf("without the token: %v, want 401", err)
	}
	token := url[strings.Index(url, "=")+1:]
	tests := []struct {
		name, host, ctype string
		status            int
	}{
		{"JSON", "", "application/json", http.StatusCreated},
		{"foreign host", "rebind.evil.example", "application/json", http.StatusForbidden},
		{"text/plain", "", "text/plain", http.StatusUnsupportedMediaType},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequestWithContext(ctx, "POST", base+"api/sessions", strings.NewReader(`{"demo":"median"}`))
			req.Header.Set("Content-Type", tc.ctype)
			req.Header.Set("Authorization", "Bearer "+token)
			if tc.host != "" {
				req.Host = tc.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.status)
			}
		})
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after Ctrl-C: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("serve did not stop in a minute after Ctrl-C")
	}
}
