package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/server"
)

// serveOptions are the flags of `ticoder serve`.
type serveOptions struct {
	addr  string
	demo  bool
	keep  time.Duration
	flags interactFlags
	// ready, if not nil, is called with the server's URL once it listens.
	ready func(url string)
}

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
survive a restart. Without --model only the built-in demos are offered.`,
		Example: `  ticoder serve --demo                    # then open http://127.0.0.1:8080
  ticoder serve --model ollama:qwen2.5-coder:7b --mode output`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), g, o, cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on")
	f.BoolVar(&o.demo, "demo", false, "offer only the built-in demos (no model needed)")
	f.DurationVar(&o.keep, "keep", 30*24*time.Hour, "delete stored sessions untouched for this long when the server starts (0 keeps all)")
	o.flags.add(f)
	return cmd
}

// runServe serves until ctx ends (Ctrl-C), then shuts down gracefully.
func runServe(ctx context.Context, g *globalOptions, o *serveOptions, errw io.Writer) error {
	if o.demo && o.flags.model != "" {
		return usagef("serve: --demo offers only the built-in demos; drop --demo to use --model %s", o.flags.model)
	}
	opts, err := o.flags.options()
	if err != nil {
		return err
	}
	eng, err := openEngine(ctx, g, 0)
	if err != nil {
		return err
	}
	defer eng.Close()
	b, err := o.flags.builder(g, eng)
	if err != nil {
		return err
	}
	srv, err := server.New(ctx, server.Options{
		Builder: b, Runner: eng.Pool, DB: eng.DB, Model: o.flags.model, Defaults: opts, Logger: slog.Default(), Keep: o.keep,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is another ticoder serve running? choose another --addr)", o.addr, err)
	}
	url := "http://" + ln.Addr().String() + "/"
	if host, _, err := net.SplitHostPort(ln.Addr().String()); err == nil {
		if ip := net.ParseIP(host); ip != nil && !ip.IsLoopback() {
			fmt.Fprintf(errw, "ticoder: WARNING: listening on %s: anyone who can reach it can start sessions that run code in your sandbox\n", o.addr)
		}
	}
	fmt.Fprintf(errw, "ticoder: serving on %s — open it in a browser; Ctrl-C stops\n", url)
	if o.ready != nil {
		o.ready(url)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shut down: %w", err)
	}
	fmt.Fprintln(errw, "ticoder: stopped")
	return nil
}
