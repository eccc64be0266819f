package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/mcpserver"
	"github.com/ticoder/ticoder/internal/server"
)

// mcpOptions are the flags of `ticoder mcp`.
type mcpOptions struct {
	http         string // Streamable HTTP address; empty: stdio
	token        string
	requireToken bool
	allowHosts   []string
	noWrite      bool
	root         string
	proj         projectFlags
	flags        interactFlags
	// ready, if not nil, is called with the HTTP endpoint's URL once it
	// listens.
	ready func(url string)
}

func newMCPCommand(g *globalOptions) *cobra.Command {
	o := &mcpOptions{}
	cmd := &cobra.Command{
		Use:   "mcp [--http HOST:PORT] [--model MODEL]",
		Short: "Serve the interactive workflow to AI coding agents over MCP",
		Long: `mcp serves ticoder as a Model Context Protocol server, so that AI coding agents
and editors (Claude Code, VS Code, Cursor, …) can clarify a function with you
before they trust code for it. It speaks MCP over stdin and stdout (the client
starts it), or Streamable HTTP with --http.

Tools: clarify (the whole loop: candidates, tests, your answers, ranked code
and the approved tests as a pytest file), start_clarification, answer_question,
undo and finish (for agents that relay the questions themselves), check_code
(run code against approved tests in the sandbox) and estimate_quality (rank
candidates without tests).

When the client supports elicitation, ticoder asks you each question directly
through it; otherwise the agent relays them. Candidates and tests come from
--model, or, without it, from the client's own model when the client supports
sampling (no API key in ticoder); the built-in demos need neither. Results
are also written into the client's workspace root, under ticoder-out/, when
the client grants one (--no-write turns that off).

Nothing but the protocol goes to stdout; logs go to stderr (-v for more).

With --http the server answers only on loopback and only requests whose Host
is localhost, 127.0.0.1, [::1] or its own address (or --allow-host), from no
other web site's page, as serve does; --token or $TICODER_TOKEN (or
--require-token) requires Authorization: Bearer TOKEN on every request, and
an address off loopback requires a token (a random one is printed).

EXIT STATUS of mcp: 0 the client closed stdin, or Ctrl-C stopped the HTTP
server; 1 an error (the sandbox or the cache cannot start, the address is
taken); 2 a usage error; 3 bad input (a replay:DIR that does not exist);
130 interrupted while serving stdio.`,
		Example: `  ticoder mcp                                # stdio; the client starts it
  ticoder mcp --model ollama:qwen2.5-coder:7b --mode output
  ticoder mcp --http 127.0.0.1:8765          # then point the client at http://127.0.0.1:8765/mcp
  claude mcp add ticoder -- ticoder mcp      # register it with Claude Code`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCP(cmd.Context(), g, o, cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.http, "http", "", "serve Streamable HTTP on this address (path /mcp) instead of stdio")
	f.StringVar(&o.token, "token", "", "with --http: access token every request must carry (default $"+tokenEnv+")")
	f.BoolVar(&o.requireToken, "require-token", false, "with --http: require an access token on loopback too (a random one unless --token)")
	f.StringArrayVar(&o.allowHosts, "allow-host", nil, "with --http: also answer requests for this host `NAME` or NAME:PORT (repeatable)")
	f.BoolVar(&o.noWrite, "no-write", false, "do not write results into the client's workspace root")
	f.StringVar(&o.root, "root", "", "the directory that the tools' file arguments are relative to (default: the client's first file:// workspace root); nothing outside it is read")
	f.StringVar(&o.proj.python, "python", "", "the interpreter that runs candidates of a file's function (default: $VIRTUAL_ENV/bin/python, then PROJECT/.venv/bin/python, PROJECT/venv/bin/python, /usr/bin/python3)")
	f.StringArrayVar(&o.proj.mask, "mask", nil, "a glob of project entries no candidate may see, besides .git, .env*, keys and credentials (repeatable)")
	o.flags.add(f)
	return cmd
}

// runMCP serves until the client disconnects (stdio) or ctx ends.
func runMCP(ctx context.Context, g *globalOptions, o *mcpOptions, errw io.Writer) error {
	if o.http == "" && (o.token != "" || o.requireToken || len(o.allowHosts) > 0) {
		return usagef("mcp: --token, --require-token and --allow-host go with --http")
	}
	if o.http != "" {
		if err := checkListenAddr("--http", o.http, "127.0.0.1:8765"); err != nil {
			return err
		}
	}
	opts, eng, b, err := o.flags.open(ctx, g)
	if err != nil {
		return err
	}
	defer eng.Close()
	defer watchModel(o.flags.waiting, nil, errw)()
	projects := &mcpProjects{g: g, flags: o.proj, db: eng.DB}
	defer projects.close()
	srv, err := mcpserver.New(mcpserver.Options{
		Builder: b, Runner: eng.Pool, Defaults: opts, WriteFiles: !o.noWrite, Logger: slog.Default(),
		Version: buildVersion(), Root: o.root, OpenProject: projects.open,
	})
	if err != nil {
		return err
	}
	if o.http == "" {
		slog.Debug("serving MCP on stdio")
		return srv.Run(ctx, mcpserver.StdioTransport())
	}
	return serveMCPHTTP(ctx, o, srv, errw)
}

// serveMCPHTTP serves srv's Streamable HTTP endpoint at /mcp with serve's
// access rules until ctx ends.
func serveMCPHTTP(ctx context.Context, o *mcpOptions, srv *mcpserver.Server, errw io.Writer) error {
	ln, err := net.Listen("tcp", o.http)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (choose another --http address)", o.http, err)
	}
	defer ln.Close()
	acc, err := decideAccess(&serveOptions{addr: o.http, token: o.token, requireToken: o.requireToken, allowHosts: o.allowHosts}, ln.Addr())
	if err != nil {
		return err
	}
	h, err := server.Protect(srv.HTTPHandler(30*time.Minute), acc.Token,
		"send the header Authorization: Bearer TOKEN with the token that ticoder mcp printed when it started (or its --token)", acc.AllowHosts, slog.Default())
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	if !acc.Loopback {
		fmt.Fprintf(errw, "ticoder: WARNING: listening on %s, not only on this computer: anyone who can reach it and has the token can run code in your sandbox\n", ln.Addr())
	}
	base, _, _ := strings.Cut(acc.URLs[len(acc.URLs)-1], "?") // http://HOST:PORT/
	url := base + "mcp"
	if acc.Token != "" {
		fmt.Fprintf(errw, "ticoder: MCP over HTTP at %s — send the header Authorization: Bearer %s; Ctrl-C stops\n", url, acc.Token)
	} else {
		fmt.Fprintf(errw, "ticoder: MCP over HTTP at %s; Ctrl-C stops\n", url)
	}
	if o.ready != nil {
		o.ready(url)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	return serveUntilDone(ctx, hs, ln, errw)
}
