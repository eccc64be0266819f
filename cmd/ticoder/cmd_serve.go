package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/server"
)

// serveOptions are the flags of `ticoder serve`.
type serveOptions struct {
	addr         string
	demo         bool
	keep         time.Duration
	token        string   // access token; empty: $TICODER_TOKEN, else random off loopback
	requireToken bool     // require a token on loopback too
	allowHosts   []string // extra Host names
	flags        interactFlags
	proj         projectFlags // --project, --python, --mask
	// ready, if not nil, is called with the server's URL (with ?token= when
	// one is needed) once it listens.
	ready func(url string)
}

// tokenEnv is the environment variable that may hold the access token.
const tokenEnv = "TICODER_TOKEN"

// envToken returns $TICODER_TOKEN, read when called.
func envToken() string { return os.Getenv(tokenEnv) }

func newServeCommand(g *globalOptions) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve [--demo] [--addr HOST:PORT] [--model MODEL]",
		Short: "Serve the interactive workflow as a web page and a JSON API",
		Long: `serve runs the same workflow as run in a web page: pick a task, answer the
questions with large buttons (or the keys y, n, d, u, q), watch the candidates
shrink, and download the chosen code and the approved tests.

The page and its JSON API (under /api/) come from the binary; nothing is
loaded from the internet. Sessions are kept in the --cache database and
survive a restart. Without --model only the built-in demos are offered.

ACCESS: the server answers only requests whose Host is its own address,
localhost, 127.0.0.1 or [::1] on its port (or a name given with --allow-host),
that come from its own page or from a program that is not a browser (curl, the
Go client in package api), and, for requests that change something, that send
JSON. Other web sites' pages cannot use it.

On a loopback address (the default 127.0.0.1) no token is needed. On any other
address (--addr 0.0.0.0:8080, a LAN address or a host name) every API request
must carry an access token: a random one is made at start and printed in the
address to open, like http://HOST:8080/?token=… (the page keeps it in an
HttpOnly, SameSite=Strict cookie; other clients send Authorization: Bearer
TOKEN). Choose the token with --token or $TICODER_TOKEN (16 or more of A-Z a-z
0-9 . _ ~ -), which also requires it on loopback, as does --require-token.
Anyone who has the token can run sessions, and so code in your sandbox and, with
--model, spend your model credit: keep it secret.`,
		Example: `  ticoder serve --demo                    # then open http://127.0.0.1:8080/
  ticoder serve --model ollama:qwen2.5-coder:7b --mode output
  ticoder serve --demo --addr 0.0.0.0:8080  # prints http://HOST:8080/?token=…
  # through an SSH tunnel (ssh -L 9000:127.0.0.1:8080 devbox), run on devbox:
  ticoder serve --demo --allow-host localhost:9000  # then open http://localhost:9000/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), g, o, cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on")
	f.BoolVar(&o.demo, "demo", false, "offer only the built-in demos (no model needed)")
	f.DurationVar(&o.keep, "keep", 30*24*time.Hour, "delete stored sessions untouched for this long when the server starts (0 keeps all)")
	f.StringVar(&o.token, "token", "", "access token every API request must carry (default $"+tokenEnv+"; a random one off loopback)")
	f.BoolVar(&o.requireToken, "require-token", false, "require an access token on a loopback address too (a random one unless --token)")
	f.StringArrayVar(&o.allowHosts, "allow-host", nil, "also answer requests for this host `NAME` (on the server's port) or NAME:PORT (repeatable)")
	o.flags.add(f)
	o.proj.add(f)
	f.Lookup("project").Usage = "offer the functions of the Python project in `DIR` (its modules' functions and methods) in a picker; sessions run them as run --spec FILE::NAME --project DIR does"
	f.Lookup("python").Usage = "with --project: the interpreter that runs candidates (default: $VIRTUAL_ENV/bin/python, then DIR/.venv/bin/python, DIR/venv/bin/python, /usr/bin/python3)"
	f.Lookup("mask").Usage = "with --project: a glob of project entries no candidate may see and the picker never lists, besides .git, .env*, keys and credentials (repeatable)"
	return cmd
}

// runServe serves until ctx ends (Ctrl-C), then shuts down gracefully.
func runServe(ctx context.Context, g *globalOptions, o *serveOptions, errw io.Writer) error {
	if o.demo && o.flags.model != "" {
		return usagef("serve: --demo offers only the built-in demos; drop --demo to use --model %s", o.flags.model)
	}
	if err := checkListenAddr("--addr", o.addr, "127.0.0.1:8080"); err != nil {
		return err
	}
	if o.proj.project == "" && o.proj.set() {
		return usagef("serve: --python and --mask go with --project DIR")
	}
	if o.proj.project != "" && (o.demo || o.flags.model == "") {
		return fmt.Errorf("%w: serve --project needs --model, which writes the candidates and tests", interact.ErrNoModel)
	}
	opts, eng, b, err := o.flags.open(ctx, g)
	if err != nil {
		return err
	}
	defer eng.Close()
	var projects server.Projects
	if o.proj.project != "" {
		sp, err := openServeProject(ctx, g, o.proj, b, eng)
		if err != nil {
			return err
		}
		defer sp.close()
		projects = sp
		fmt.Fprintf(errw, "ticoder: offering the functions of %s\n", sp.root)
	}
	defer watchModel(o.flags.waiting, nil, errw)()
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is another ticoder serve running? choose another --addr)", o.addr, err)
	}
	defer ln.Close()
	acc, err := decideAccess(o, ln.Addr())
	if err != nil {
		return err
	}
	srv, err := server.New(ctx, server.Options{
		Builder: b, Runner: eng.Pool, DB: eng.DB, Model: o.flags.model, Defaults: opts, Logger: slog.Default(), Keep: o.keep,
		Token: acc.Token, AllowHosts: acc.AllowHosts, Projects: projects,
	})
	if err != nil {
		return err
	}
	if w := modelWarning(ctx, b, modelDialTimeout); w != "" {
		fmt.Fprintf(errw, "ticoder: WARNING: %s\n", w)
	}
	if !acc.Loopback {
		fmt.Fprintf(errw, "ticoder: WARNING: listening on %s, not only on this computer: anyone who can reach it and has the token can start sessions that run code in your sandbox\n", ln.Addr())
	}
	fmt.Fprintf(errw, "ticoder: serving on %s — open it in a browser; Ctrl-C stops\n", acc.URLs[0])
	for _, u := range acc.URLs[1:] {
		fmt.Fprintf(errw, "ticoder:         or %s\n", u)
	}
	if o.ready != nil {
		o.ready(acc.URLs[len(acc.URLs)-1])
	}
	// No WriteTimeout: creating a session may wait minutes for the model.
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	return serveUntilDone(ctx, hs, ln, errw)
}

// checkListenAddr checks that addr, the value of flag, is an address to
// listen on, HOST:PORT or :PORT, before anything starts: a usage error if
// not, that shows example.
func checkListenAddr(flag, addr, example string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("%s %q: want HOST:PORT or :PORT, e.g. %s %s (%v)", flag, addr, flag, example, innermostAddrError(err))
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil || strings.ContainsAny(host, " /") {
		return usagef("%s %q: want HOST:PORT or :PORT with a port from 0 to 65535, e.g. %s %s", flag, addr, flag, example)
	}
	return nil
}

// innermostAddrError returns the reason of a *net.AddrError, without the
// address it repeats.
func innermostAddrError(err error) string {
	var ae *net.AddrError
	if errors.As(err, &ae) {
		return ae.Err
	}
	return err.Error()
}

// modelDialTimeout bounds the check that the model's server can be reached
// when serve starts.
const modelDialTimeout = 3 * time.Second

// modelWarning says, when b's model is served at an address that does not
// accept a connection within timeout, that sessions which need the model
// will fail; "" when it does, or when there is no address to try (no
// model, a replay directory). Only a connection is tried: no request is
// sent, so no credit is spent.
func modelWarning(ctx context.Context, b *interact.Builder, timeout time.Duration) string {
	g, ok := b.Generator.(*interact.ModelGenerator)
	if !ok || g.Provider == nil {
		return ""
	}
	ep := g.Provider.Endpoint()
	u, err := url.Parse(ep.BaseURL)
	if ep.Kind == llm.KindReplay || err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(dctx, "tcp", net.JoinHostPort(u.Hostname(), port))
	if err == nil {
		conn.Close()
		return ""
	}
	return fmt.Sprintf("cannot reach the model %s at %s (%v): sessions that need the model will fail until it answers; the built-in demos work without it",
		ep.Model, u.Redacted(), err)
}

// serveUntilDone serves hs on ln until ctx ends (Ctrl-C), then shuts it
// down gracefully and says so on errw. Requests in flight get a second to
// finish before their contexts end: a request that never finishes by
// itself (an MCP client's event stream) would otherwise hold the shutdown
// until it gives up.
func serveUntilDone(ctx context.Context, hs *http.Server, ln net.Listener, errw io.Writer) error {
	base, endRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer endRequests()
	hs.BaseContext = func(net.Listener) context.Context { return base }
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	grace := time.AfterFunc(requestGrace, endRequests)
	defer grace.Stop()
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownWait)
	defer cancel()
	err := hs.Shutdown(shutdown)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		// A connection that never sent a request (a client's spare
		// connection stays "new", and Shutdown waits 5 s for those) or a
		// handler that ignores its context: stop anyway, as asked.
		if err := hs.Close(); err != nil {
			return fmt.Errorf("shut down: %w", err)
		}
		fmt.Fprintln(errw, "ticoder: stopped (closed connections that were still open)")
		return nil
	case err != nil && !errors.Is(err, http.ErrServerClosed):
		return fmt.Errorf("shut down: %w", err)
	}
	fmt.Fprintln(errw, "ticoder: stopped")
	return nil
}

// requestGrace is how long requests in flight may go on after a shutdown
// begins; shutdownWait how long the server waits for its connections to
// close before it closes them itself.
const (
	requestGrace = time.Second
	shutdownWait = 3 * time.Second
)

// decideAccess decides how the server listening on addr is reached, with
// the token from --token, else $TICODER_TOKEN (see server.DecideAccess).
func decideAccess(o *serveOptions, addr net.Addr) (server.Access, error) {
	token := o.token
	if token == "" {
		token = envToken()
	}
	if token != "" {
		if err := server.ValidToken(token); err != nil {
			return server.Access{}, usagef("serve: --token or $%s: %v, or leave both out for a random one", tokenEnv, err)
		}
	}
	return server.DecideAccess(addr, server.AccessOptions{Addr: o.addr, Token: token, RequireToken: o.requireToken, AllowHosts: o.allowHosts})
}
