package server

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/api"
)

// testToken is the access token of the test servers that need one.
const testToken = "test-token-0123456789abcdef"

// sessionCount returns how many sessions s has stored.
func sessionCount(t *testing.T, s *Server) int {
	t.Helper()
	var n int
	if err := s.store.db.QueryRow(`SELECT COUNT(*) FROM web_sessions`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// noRedirects is a client of hs that shows redirects instead of following
// them.
func noRedirects(hs *httptest.Server) *http.Client {
	return &http.Client{Transport: hs.Client().Transport, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
}

// checkHeaders reports the security headers a response lacks and any CORS
// header it has.
func checkHeaders(t *testing.T, h http.Header) {
	t.Helper()
	want := map[string]string{
		"X-Content-Type-Options": "nosniff",
		"X-Frame-Options":        "DENY",
		"Referrer-Policy":        "no-referrer",
	}
	for k, v := range want {
		if got := h.Get(k); got != v {
			t.Errorf("header %s: %q, want %q", k, got, v)
		}
	}
	csp := h.Get("Content-Security-Policy")
	for _, d := range []string{"default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(csp, d) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, d)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("Content-Security-Policy allows inline code: %q", csp)
	}
	for k := range h {
		if strings.HasPrefix(k, "Access-Control-") {
			t.Errorf("CORS header %s: %s", k, h.Get(k))
		}
	}
}

// TestGuard sends requests that a DNS-rebinding page, another web site's
// page, a careless client and the right clients send, to a loopback server
// without a token ("open") and to one with a token ("token"), on a real
// HTTP server. Each gets its status and a message in words, every response
// has the security headers and no CORS header, and a refused request creates
// no session.
func TestGuard(t *testing.T) {
	pool := testPool(t)
	servers := map[string]*Server{}
	urls := map[string]*httptest.Server{}
	servers["open"], urls["open"] = serve(t, pool, Options{})
	servers["token"], urls["token"] = serve(t, pool, Options{Token: testToken, AllowHosts: []string{"ticoder.lan", "localhost:9000"}})
	port := map[string]string{}
	for k, hs := range urls {
		_, port[k], _ = net.SplitHostPort(hs.Listener.Addr().String())
	}
	sid, err := api.NewClient(urls["open"].URL, nil).Create(context.Background(), api.CreateSession{Demo: "median"})
	if err != nil {
		t.Fatal(err)
	}
	const create = `{"demo":"median"}`
	answer := `{"test":` + itoa(int64(sid.Question.Test)) + `,"verdict":"pass"}`
	type hdr = map[string]string
	jsonCT := hdr{"Content-Type": "application/json"}
	with := func(h hdr, kv ...string) hdr {
		out := hdr{}
		for k, v := range h {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	bearer := "Bearer " + testToken
	tests := []struct {
		name, server, method, path string
		host                       string // "" is the server's own address; PORT is replaced
		header                     hdr
		body                       string
		status                     int
		says                       string
	}{
		// DNS rebinding: the browser sends the attacker's host name.
		{"rebinding create", "open", "POST", "/api/sessions", "rebind.evil.example:PORT", jsonCT, create, 403, "DNS rebinding"},
		{"rebinding read", "open", "GET", "/api/sessions/" + sid.ID, "rebind.evil.example:PORT", nil, "", 403, "does not answer to that host name"},
		{"rebinding page", "open", "GET", "/", "rebind.evil.example:PORT", nil, "", 403, "DNS rebinding"},
		{"rebinding with the token", "token", "GET", "/api/info", "rebind.evil.example:PORT", hdr{"Authorization": bearer}, "", 403, "DNS rebinding"},
		{"right name, wrong port", "open", "GET", "/api/info", "127.0.0.1:1", nil, "", 403, "DNS rebinding"},
		{"no port", "open", "GET", "/api/info", "localhost", nil, "", 403, "DNS rebinding"},
		{"localhost", "open", "GET", "/api/info", "localhost:PORT", nil, "", 200, ""},
		{"localhost upper case", "open", "GET", "/api/info", "LocalHost:PORT", nil, "", 200, ""},
		{"IPv6 loopback", "open", "GET", "/api/info", "[::1]:PORT", nil, "", 200, ""},
		{"allowed name", "token", "GET", "/api/info", "ticoder.lan:PORT", hdr{"Authorization": bearer}, "", 200, ""},
		{"allowed name, other port", "token", "GET", "/api/info", "ticoder.lan:1", hdr{"Authorization": bearer}, "", 403, "DNS rebinding"},
		{"allowed pair", "token", "GET", "/api/info", "localhost:9000", hdr{"Authorization": bearer}, "", 200, ""},

		// Other sites' pages: Origin and Sec-Fetch-Site.
		{"cross-site origin", "open", "POST", "/api/sessions", "", with(jsonCT, "Origin", "http://evil.example"), create, 403, "cross-origin"},
		{"cross-site answer", "open", "POST", "/api/sessions/" + sid.ID + "/answer", "", with(jsonCT, "Origin", "http://evil.example"), answer, 403, "cross-origin"},
		{"null origin", "open", "POST", "/api/sessions", "", with(jsonCT, "Origin", "null"), create, 403, "cross-origin"},
		{"other port's origin", "open", "POST", "/api/sessions", "", with(jsonCT, "Origin", "http://127.0.0.1:1"), create, 403, "cross-origin"},
		{"https origin", "open", "POST", "/api/sessions", "", with(jsonCT, "Origin", "https://127.0.0.1:PORT"), create, 403, "cross-origin"},
		{"cross-site read", "open", "GET", "/api/sessions/" + sid.ID, "", hdr{"Origin": "http://evil.example"}, "", 403, "cross-origin"},
		{"cross-site preflight", "open", "OPTIONS", "/api/sessions", "", hdr{"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}, "", 403, "cross-origin"},
		{"fetch site cross-site", "open", "GET", "/api/info", "", hdr{"Sec-Fetch-Site": "cross-site"}, "", 403, "Sec-Fetch-Site"},
		{"fetch site same-site", "open", "POST", "/api/sessions", "", with(jsonCT, "Sec-Fetch-Site", "same-site"), create, 403, "Sec-Fetch-Site"},
		{"fetch site on export", "open", "GET", "/api/sessions/" + sid.ID + "/export?download=code", "", hdr{"Sec-Fetch-Site": "cross-site"}, "", 403, "cross-origin"},
		{"same-origin page", "open", "POST", "/api/sessions", "", with(jsonCT, "Origin", "http://127.0.0.1:PORT", "Sec-Fetch-Site", "same-origin"), create, 201, ""},
		{"same origin as localhost", "open", "GET", "/api/info", "localhost:PORT", hdr{"Origin": "http://localhost:PORT", "Sec-Fetch-Site": "same-origin"}, "", 200, ""},
		{"fetch site none", "open", "GET", "/api/info", "", hdr{"Sec-Fetch-Site": "none"}, "", 200, ""},
		{"page from another site's link", "open", "GET", "/", "", hdr{"Sec-Fetch-Site": "cross-site"}, "", 200, ""},

		// Requests that change something must be JSON.
		{"text/plain create", "open", "POST", "/api/sessions", "", hdr{"Content-Type": "text/plain;charset=UTF-8"}, create, 415, "Content-Type: application/json"},
		{"text/plain answer", "open", "POST", "/api/sessions/" + sid.ID + "/answer", "", hdr{"Content-Type": "text/plain"}, answer, 415, "must be JSON"},
		{"form create", "open", "POST", "/api/sessions", "", hdr{"Content-Type": "application/x-www-form-urlencoded"}, "demo=median", 415, "must be JSON"},
		{"multipart create", "open", "POST", "/api/sessions", "", hdr{"Content-Type": "multipart/form-data; boundary=x"}, "--x--", 415, "must be JSON"},
		{"no content type", "open", "POST", "/api/sessions", "", nil, create, 415, "must be JSON"},
		{"no content type, undo", "open", "POST", "/api/sessions/" + sid.ID + "/undo", "", nil, "", 415, "must be JSON"},
		{"json lookalike", "open", "POST", "/api/sessions", "", hdr{"Content-Type": "application/json-seq"}, create, 415, "must be JSON"},
		{"json with charset", "open", "POST", "/api/sessions", "", hdr{"Content-Type": "application/json; charset=utf-8"}, create, 201, ""},

		// The access token.
		{"no token", "token", "GET", "/api/info", "", nil, "", 401, "needs its access token"},
		{"no token, create", "token", "POST", "/api/sessions", "", jsonCT, create, 401, "needs its access token"},
		{"wrong bearer", "token", "GET", "/api/info", "", hdr{"Authorization": "Bearer " + testToken + "x"}, "", 403, "wrong access token"},
		{"token prefix", "token", "GET", "/api/info", "", hdr{"Authorization": "Bearer " + testToken[:10]}, "", 403, "wrong access token"},
		{"basic auth", "token", "GET", "/api/info", "", hdr{"Authorization": "Basic dXNlcjpwYXNz"}, "", 401, "needs its access token"},
		{"wrong cookie", "token", "GET", "/api/info", "", hdr{"Cookie": "ticoder_token_PORT=nope"}, "", 403, "wrong access token"},
		{"other port's cookie", "token", "GET", "/api/info", "", hdr{"Cookie": "ticoder_token_1=" + testToken}, "", 401, "needs its access token"},
		{"wrong query", "token", "GET", "/api/info?token=nope", "", nil, "", 403, "wrong access token"},
		{"right bearer", "token", "GET", "/api/info", "", hdr{"Authorization": bearer}, "", 200, ""},
		{"right cookie", "token", "GET", "/api/info", "", hdr{"Cookie": "ticoder_token_PORT=" + testToken}, "", 200, ""},
		{"right query", "token", "GET", "/api/info?token=" + testToken, "", nil, "", 200, ""},
		{"right token, create", "token", "POST", "/api/sessions", "", with(jsonCT, "Authorization", bearer), create, 201, ""},
		{"right token, text/plain", "token", "POST", "/api/sessions", "", hdr{"Authorization": bearer, "Content-Type": "text/plain"}, create, 415, "must be JSON"},
		{"page without token", "token", "GET", "/", "", nil, "", 200, ""},
		{"script without token", "token", "GET", "/app.js", "", nil, "", 200, ""},
		{"page with wrong token", "token", "GET", "/?token=nope", "", nil, "", 403, "wrong access token"},
		{"page with right token", "token", "GET", "/?token=" + testToken, "", nil, "", 303, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, hs := servers[tc.server], urls[tc.server]
			fill := func(v string) string { return strings.ReplaceAll(v, "PORT", port[tc.server]) }
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			req, err := http.NewRequest(tc.method, hs.URL+tc.path, body)
			if err != nil {
				t.Fatal(err)
			}
			if tc.host != "" {
				req.Host = fill(tc.host)
			}
			for k, v := range tc.header {
				req.Header.Set(k, fill(v))
			}
			before := sessionCount(t, s)
			resp, err := noRedirects(hs).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || !strings.Contains(string(data), tc.says) {
				t.Errorf("status %d %.300q, want %d saying %q", resp.StatusCode, data, tc.status, tc.says)
			}
			checkHeaders(t, resp.Header)
			want := 0
			if tc.status == http.StatusCreated {
				want = 1
			}
			if created := sessionCount(t, s) - before; created != want {
				t.Errorf("%d sessions created, want %d", created, want)
			}
		})
	}
}

// TestTokenLogin: the page opened with ?token= sets an HttpOnly,
// SameSite=Strict cookie named after the server's port and sends the
// browser to the same address without the token; API calls with that
// cookie work.
func TestTokenLogin(t *testing.T) {
	_, hs := serve(t, testPool(t), Options{Token: testToken})
	_, port, _ := net.SplitHostPort(hs.Listener.Addr().String())
	resp, err := noRedirects(hs).Get(hs.URL + "/?x=1&token=" + testToken)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/?x=1" {
		t.Errorf("status %d, Location %q; want 303 to /?x=1", resp.StatusCode, resp.Header.Get("Location"))
	}
	cs := resp.Cookies()
	if len(cs) != 1 {
		t.Fatalf("cookies %v, want one", cs)
	}
	c := cs[0]
	if c.Name != "ticoder_token_"+port || c.Value != testToken || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" {
		t.Errorf("cookie %s", c)
	}
	req, _ := http.NewRequest("GET", hs.URL+"/api/info", nil)
	req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	if resp, err = hs.Client().Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("API call with the cookie: %d", resp.StatusCode)
	}
}

// TestClientWithToken runs a session through the Go client given the
// address with ?token= that ticoder serve prints, and shows that the same
// client without the token is refused.
func TestClientWithToken(t *testing.T) {
	ctx := context.Background()
	_, hs := serve(t, testPool(t), Options{Token: testToken})
	c := api.NewClient(hs.URL+"/?token="+testToken, hs.Client())
	s, err := c.Create(ctx, api.CreateSession{Demo: "median"})
	if err != nil {
		t.Fatal(err)
	}
	if s, err = c.Answer(ctx, s.ID, api.Answer{Test: s.Question.Test, Verdict: api.VerdictUndefined}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Undo(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Stop(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Export(ctx, s.ID, -1); err != nil {
		t.Fatal(err)
	}
	_, err = api.NewClient(hs.URL, hs.Client()).Session(ctx, s.ID)
	var se *api.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusUnauthorized {
		t.Errorf("without the token: %v, want 401", err)
	}
}

// TestNoTokenOffLoopback: a server without a token refuses a connection
// that came in on an address other than loopback, and one with a token
// asks for it. (Tests may listen only on loopback, so the connection's
// address is set as net/http sets it.)
func TestNoTokenOffLoopback(t *testing.T) {
	pool := testPool(t)
	open, _ := serve(t, pool, Options{})
	locked, _ := serve(t, pool, Options{Token: testToken})
	lan := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 8080}
	tests := []struct {
		name   string
		s      *Server
		host   string
		auth   string
		status int
		says   string
	}{
		{"no token configured", open, "192.0.2.7:8080", "", 403, "answers only on 127.0.0.1"},
		{"token configured, none sent", locked, "192.0.2.7:8080", "", 401, "needs its access token"},
		{"token configured and sent", locked, "192.0.2.7:8080", "Bearer " + testToken, 200, ""},
		{"foreign host", locked, "rebind.evil.example:8080", "Bearer " + testToken, 403, "answers only to 192.0.2.7, localhost, 127.0.0.1 or [::1] on port 8080"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "http://"+tc.host+"/api/info", nil)
			req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, net.Addr(lan)))
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			w := httptest.NewRecorder()
			tc.s.Handler().ServeHTTP(w, req)
			if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.says) {
				t.Errorf("status %d %q, want %d saying %q", w.Code, w.Body.String(), tc.status, tc.says)
			}
		})
	}
}

// TestValidToken accepts tokens that fit a URL and a cookie as they are.
func TestValidToken(t *testing.T) {
	tests := []struct {
		token string
		ok    bool
	}{
		{NewToken(), true},
		{"abcdefghijklmnop", true},
		{"A-b_c.d~e0123456789", true},
		{"short", false},
		{"has space 0123456789", false},
		{"semi;colon0123456789", false},
		{"quote\"0123456789abc", false},
		{strings.Repeat("a", 257), false},
	}
	for _, tc := range tests {
		if err := ValidToken(tc.token); (err == nil) != tc.ok {
			t.Errorf("ValidToken(%q) = %v, want ok %v", tc.token, err, tc.ok)
		}
	}
	if a, b := NewToken(), NewToken(); a == b || len(a) != 48 {
		t.Errorf("NewToken gave %q and %q", a, b)
	}
	if _, err := url.Parse("http://h/?token=" + NewToken()); err != nil {
		t.Error(err)
	}
}
