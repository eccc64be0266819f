package server

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// Errors of the access checks (guard); each is sent with a 4xx status and a
// message that says what to do.
var (
	// errForeignHost: the request's Host header names another server, as a
	// DNS-rebinding page's requests do.
	errForeignHost = errors.New("this ticoder server does not answer to that host name")
	// errCrossOrigin: the request comes from another web site's page.
	errCrossOrigin = errors.New("cross-origin request refused")
	// errNeedToken: the server has an access token and the request has none.
	errNeedToken = errors.New("this ticoder server needs its access token")
	// errNoToken: the server has no access token and the connection is not
	// to a loopback address.
	errNoToken = errors.New("this ticoder server does not serve other computers")
	// errBadToken: the request's access token is wrong.
	errBadToken = errors.New("wrong access token")
	// errNotJSON: a request that changes something has no JSON content type.
	errNotJSON = errors.New("the request body must be JSON sent with Content-Type: application/json")
)

// tokenParam is the query parameter and tokenCookie the cookie prefix that
// carry the access token.
const (
	tokenParam  = "token"
	tokenCookie = "ticoder_token_"
)

// NewToken returns a random access token (192 bits, hex) for Options.Token.
func NewToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // never fails (crypto/rand panics rather)
	return hex.EncodeToString(b)
}

// ValidToken reports, with a reason, whether t can be an access token: 16 to
// 256 characters from A-Z a-z 0-9 . _ ~ -, so it can be put in a URL and a
// cookie as it is.
func ValidToken(t string) error {
	if len(t) < 16 || len(t) > 256 {
		return fmt.Errorf("the access token has %d characters; use 16 to 256", len(t))
	}
	for _, c := range []byte(t) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._~-", c) >= 0) {
			return fmt.Errorf("the access token has the character %q; use only letters, digits and . _ ~ -", c)
		}
	}
	return nil
}

// guard holds what every request is checked against. It is read-only after
// New, so safe for concurrent use.
type guard struct {
	// token is the access token; empty: none (loopback connections only).
	token [sha256.Size]byte
	// hasToken reports whether token is set.
	hasToken bool
	// names are extra host names accepted on the server's port; pairs are
	// host:port values accepted as they are. Both are lower case.
	names, pairs map[string]bool
	// tokenHint says where to find the token, in messages.
	tokenHint string
}

func newGuard(token string, allow []string) (*guard, error) {
	g := &guard{names: map[string]bool{}, pairs: map[string]bool{},
		tokenHint: "open the address with ?token=… that ticoder serve printed when it started"}
	if token != "" {
		if err := ValidToken(token); err != nil {
			return nil, err
		}
		g.token, g.hasToken = sha256.Sum256([]byte(token)), true
	}
	for _, h := range allow {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" {
			continue
		}
		if _, _, err := net.SplitHostPort(h); err == nil {
			g.pairs[h] = true
			continue
		}
		g.names[strings.Trim(h, "[]")] = true
	}
	return g, nil
}

// check returns why r must be refused, or nil. It also reports whether r
// opens the page with a valid ?token=, which the caller turns into a cookie.
func (g *guard) check(r *http.Request) (login bool, err error) {
	return g.checkAs(r, strings.HasPrefix(r.URL.Path, "/api/"))
}

// checkAs is check with api saying whether r is an API request (which
// needs the token, when there is one) rather than one for the page.
func (g *guard) checkAs(r *http.Request, api bool) (login bool, err error) {
	local := localAddr(r)
	if err := g.checkHost(r.Host, local); err != nil {
		return false, err
	}
	unsafe := r.Method != http.MethodGet && r.Method != http.MethodHead
	if o := r.Header.Get("Origin"); o != "" && !strings.EqualFold(o, "http://"+r.Host) {
		return false, withStatus(http.StatusForbidden, fmt.Errorf("%w: the request comes from a page of %s, not from this server's own page (http://%s)", errCrossOrigin, o, r.Host))
	}
	if site := r.Header.Get("Sec-Fetch-Site"); (api || unsafe) && site != "" && site != "same-origin" && site != "none" {
		return false, withStatus(http.StatusForbidden, fmt.Errorf("%w: the browser says it comes from a %s page (Sec-Fetch-Site); use the page this server serves", errCrossOrigin, site))
	}
	if !g.hasToken && local.IsValid() && !local.Addr().Unmap().IsLoopback() {
		return false, withStatus(http.StatusForbidden, fmt.Errorf("%w: it was started without an access token, so it answers only on 127.0.0.1 or ::1; restart it with --token to serve %s", errNoToken, local.Addr()))
	}
	if g.hasToken && !api && !unsafe && r.URL.Query().Has(tokenParam) {
		// Opening the page with ?token= logs in, even over an old cookie.
		if !g.valid(r.URL.Query().Get(tokenParam)) {
			return false, withStatus(http.StatusForbidden, fmt.Errorf("%w in the address: %s", errBadToken, g.tokenHint))
		}
		return true, nil
	}
	if g.hasToken && api { // the page itself holds no secret; its API calls need the token
		tok, from := requestToken(r, local.Port())
		switch {
		case from == "":
			return false, withStatus(http.StatusUnauthorized, fmt.Errorf("%w: %s, or send the header Authorization: Bearer TOKEN", errNeedToken, g.tokenHint))
		case !g.valid(tok):
			return false, withStatus(http.StatusForbidden, fmt.Errorf("%w (from the %s): %s", errBadToken, from, g.tokenHint))
		}
	}
	if api && unsafe && (r.Method != http.MethodDelete || r.ContentLength != 0) {
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "application/json" {
			return false, withStatus(http.StatusUnsupportedMediaType, fmt.Errorf("%w (got %q)", errNotJSON, r.Header.Get("Content-Type")))
		}
	}
	return false, nil
}

// valid compares tok with the token in constant time.
func (g *guard) valid(tok string) bool {
	sum := sha256.Sum256([]byte(tok))
	return subtle.ConstantTimeCompare(sum[:], g.token[:]) == 1
}

// requestToken returns the access token a request carries and where it was
// found: "Authorization header", "cookie", tokenParam, or "" for none.
func requestToken(r *http.Request, port uint16) (string, string) {
	if a := r.Header.Get("Authorization"); a != "" {
		scheme, tok, _ := strings.Cut(a, " ")
		if strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(tok), "Authorization header"
		}
	}
	if c, err := r.Cookie(cookieName(port)); err == nil {
		return c.Value, "cookie"
	}
	if q := r.URL.Query(); q.Has(tokenParam) {
		return q.Get(tokenParam), tokenParam
	}
	return "", ""
}

// cookieName names the token cookie of the server on port: browsers send a
// host's cookies to every port, so servers on other ports must not share it.
func cookieName(port uint16) string { return tokenCookie + strconv.Itoa(int(port)) }

// localAddr returns the address the request's connection was accepted on,
// or the zero value when unknown.
func localAddr(r *http.Request) netip.AddrPort {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return netip.AddrPort{}
	}
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return netip.AddrPort{}
	}
	return ap
}

// checkHost accepts a Host header that names the address the connection
// came in on, localhost, 127.0.0.1 or [::1], with the server's port, or one
// of the extra names; anything else may be a DNS-rebinding page.
func (g *guard) checkHost(host string, local netip.AddrPort) error {
	h := strings.ToLower(host)
	if g.pairs[h] {
		return nil
	}
	name, port, err := net.SplitHostPort(h)
	if err != nil { // no port: the default one
		name, port = strings.Trim(h, "[]"), "80"
	}
	ok := false
	if local.IsValid() && port == strconv.Itoa(int(local.Port())) {
		ip, err := netip.ParseAddr(name)
		switch {
		case name == "localhost" || g.names[name]:
			ok = true
		case err == nil:
			ip = ip.Unmap()
			ok = ip == netip.AddrFrom4([4]byte{127, 0, 0, 1}) || ip == netip.IPv6Loopback() || ip == local.Addr().Unmap()
		}
	}
	if ok {
		return nil
	}
	names, port := "localhost, 127.0.0.1 or [::1]", "its port"
	if local.IsValid() {
		port = "port " + strconv.Itoa(int(local.Port()))
		if own := local.Addr().Unmap(); !own.IsLoopback() {
			names = own.String() + ", " + names
		}
	}
	return withStatus(http.StatusForbidden, fmt.Errorf("%w: the request is for %q, but this server answers only to %s on %s (a web page may be trying DNS rebinding); to reach it under another name, restart it with --allow-host NAME", errForeignHost, host, names, port))
}

// loginCookie is the cookie that holds the access token in the browser:
// HttpOnly (scripts cannot read it) and SameSite=Strict (other sites'
// pages cannot send it).
func loginCookie(token string, port uint16) *http.Cookie {
	return &http.Cookie{Name: cookieName(port), Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode}
}

// withoutToken returns the request's path and query without the token.
func withoutToken(u *url.URL) string {
	q := u.Query()
	q.Del(tokenParam)
	out := u.EscapedPath()
	if out == "" {
		out = "/"
	}
	if len(q) > 0 {
		out += "?" + q.Encode()
	}
	return out
}

// protect wraps next with the access checks: a refused request gets the
// error (JSON under /api/, text elsewhere) and never reaches next; a page
// opened with a valid ?token= gets the token cookie and is redirected to
// the same address without it. Request bodies are limited to maxBody.
func (s *Server) protect(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		login, err := s.guard.check(r)
		if err != nil {
			s.log.Warn("request refused", "method", r.Method, "path", r.URL.Path, "host", r.Host,
				"origin", r.Header.Get("Origin"), "remote", r.RemoteAddr, "err", err)
			if strings.HasPrefix(r.URL.Path, "/api/") {
				s.writeError(w, r, err)
			} else {
				w.Header().Set("Cache-Control", "no-store")
				http.Error(w, "ticoder: "+err.Error(), statusOf(err))
			}
			return
		}
		if login {
			http.SetCookie(w, loginCookie(r.URL.Query().Get(tokenParam), localAddr(r).Port()))
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, withoutToken(r.URL), http.StatusSeeOther)
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		}
		next.ServeHTTP(w, r)
	})
}

// Protect wraps next, an HTTP API served apart from the web page (such as
// `ticoder mcp --http`), with the checks every /api/ request passes: the
// Host rules against DNS rebinding (localhost, 127.0.0.1, [::1] or the
// listening address on its port, or a name in allowHosts), other web sites'
// pages refused (Origin, Sec-Fetch-Site), a JSON body on every request that
// sends one, and, when token is set, the token on every request
// (Authorization: Bearer TOKEN); without a token only loopback connections
// are served. A refused request gets a 4xx status and a one-line message
// (tokenHint says where the token is to be found) and is logged to log. It
// is an error if token is not a ValidToken.
func Protect(next http.Handler, token, tokenHint string, allowHosts []string, log *slog.Logger) (http.Handler, error) {
	g, err := newGuard(token, allowHosts)
	if err != nil {
		return nil, err
	}
	g.tokenHint = tokenHint
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := g.checkAs(r, true); err != nil {
			log.Warn("request refused", "method", r.Method, "path", r.URL.Path, "host", r.Host,
				"origin", r.Header.Get("Origin"), "remote", r.RemoteAddr, "err", err)
			w.Header().Set("Cache-Control", "no-store")
			http.Error(w, "ticoder: "+err.Error(), statusOf(err))
			return
		}
		next.ServeHTTP(w, r)
	}), nil
}
