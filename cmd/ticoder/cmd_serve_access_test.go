package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/api"
)

// TestDecideAccess: a token is needed off loopback (a random one unless
// given), or when asked for; the printed addresses carry it; names in --addr
// and, on every address, this computer's name are answered to.
func TestDecideAccess(t *testing.T) {
	hostname, _ := os.Hostname()
	const given = "given-token-0123456789"
	random := regexp.MustCompile(`^[0-9a-f]{48}$`)
	tests := []struct {
		name     string
		o        serveOptions
		env      string
		listen   string // the listener's address
		token    string // "random": a fresh random one
		urls     []string
		allow    []string
		loopback bool
	}{
		{"loopback", serveOptions{addr: "127.0.0.1:8080"}, "", "127.0.0.1:8080", "",
			[]string{"http://127.0.0.1:8080/"}, nil, true},
		{"other loopback", serveOptions{addr: "127.0.0.2:8080"}, "", "127.0.0.2:8080", "",
			[]string{"http://127.0.0.2:8080/"}, nil, true},
		{"IPv6 loopback", serveOptions{addr: "[::1]:8080"}, "", "[::1]:8080", "",
			[]string{"http://[::1]:8080/"}, nil, true},
		{"localhost", serveOptions{addr: "localhost:8080"}, "", "127.0.0.1:8080", "",
			[]string{"http://localhost:8080/", "http://127.0.0.1:8080/"}, []string{"localhost"}, true},
		{"LAN address", serveOptions{addr: "192.0.2.7:8080"}, "", "192.0.2.7:8080", "random",
			[]string{"http://192.0.2.7:8080/?token=TOKEN"}, nil, false},
		{"host name", serveOptions{addr: "devbox.lan:8080"}, "", "192.0.2.7:8080", "random",
			[]string{"http://devbox.lan:8080/?token=TOKEN", "http://192.0.2.7:8080/?token=TOKEN"}, []string{"devbox.lan"}, false},
		{"every address", serveOptions{addr: "0.0.0.0:8080"}, "", "0.0.0.0:8080", "random",
			[]string{"http://" + hostname + ":8080/?token=TOKEN", "http://127.0.0.1:8080/?token=TOKEN"}, []string{hostname}, false},
		{"every address, IPv6", serveOptions{addr: ":8080"}, "", "[::]:8080", "random",
			[]string{"http://" + hostname + ":8080/?token=TOKEN", "http://127.0.0.1:8080/?token=TOKEN"}, []string{hostname}, false},
		{"LAN with --token", serveOptions{addr: "192.0.2.7:8080", token: given}, "", "192.0.2.7:8080", given,
			[]string{"http://192.0.2.7:8080/?token=" + given}, nil, false},
		{"loopback with --token", serveOptions{addr: "127.0.0.1:8080", token: given}, "", "127.0.0.1:8080", given,
			[]string{"http://127.0.0.1:8080/?token=" + given}, nil, true},
		{"loopback with $TICODER_TOKEN", serveOptions{addr: "127.0.0.1:8080"}, given, "127.0.0.1:8080", given,
			[]string{"http://127.0.0.1:8080/?token=" + given}, nil, true},
		{"--token over $TICODER_TOKEN", serveOptions{addr: "127.0.0.1:8080", token: given}, "env-token-0123456789", "127.0.0.1:8080", given,
			[]string{"http://127.0.0.1:8080/?token=" + given}, nil, true},
		{"loopback with --require-token", serveOptions{addr: "127.0.0.1:8080", requireToken: true}, "", "127.0.0.1:8080", "random",
			[]string{"http://127.0.0.1:8080/?token=TOKEN"}, nil, true},
		{"--allow-host", serveOptions{addr: "127.0.0.1:8080", allowHosts: []string{"localhost:9000"}}, "", "127.0.0.1:8080", "",
			[]string{"http://127.0.0.1:8080/"}, []string{"localhost:9000"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(tokenEnv, tc.env)
			addr, err := net.ResolveTCPAddr("tcp", tc.listen)
			if err != nil {
				t.Fatal(err)
			}
			acc, err := decideAccess(&tc.o, addr)
			if err != nil {
				t.Fatal(err)
			}
			token := tc.token
			if token == "random" {
				if !random.MatchString(acc.token) {
					t.Fatalf("token %q, want a random one", acc.token)
				}
				token = acc.token
			}
			if acc.token != token || acc.loopback != tc.loopback {
				t.Errorf("token %q loopback %v, want %q %v", acc.token, acc.loopback, token, tc.loopback)
			}
			var urls []string
			for _, u := range tc.urls {
				urls = append(urls, strings.ReplaceAll(u, "TOKEN", token))
			}
			if d := cmp.Diff(urls, acc.urls); d != "" {
				t.Errorf("addresses (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.allow, acc.allowHosts); d != "" {
				t.Errorf("allowed hosts (-want +got):\n%s", d)
			}
		})
	}
	for _, bad := range []string{"short", "has space in it 0123", "semi;colon0123456789"} {
		t.Run("bad token "+bad, func(t *testing.T) {
			t.Setenv(tokenEnv, "")
			_, err := decideAccess(&serveOptions{addr: "127.0.0.1:8080", token: bad}, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080})
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--token") {
				t.Errorf("error %v, want a usage error naming --token", err)
			}
		})
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
