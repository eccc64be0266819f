package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/natsexec"
	"github.com/ticoder/ticoder/internal/sandbox"
)

// globalOptions are the flags every command shares.
type globalOptions struct {
	dataDir   string
	cachePath string
	verbose   bool
	unsafe    bool
	// cpuProfile, if set, receives a Go CPU profile of the run.
	cpuProfile string
	// nats, with a URL, sends sandboxed work to ticoder workers.
	nats natsexec.ConnectOptions
	// natsTrust is a file of the worker public keys a coordinator trusts.
	natsTrust string
	// logs is the log handler the command runs with (nil before it runs).
	logs *logHandler
}

func main() {
	// A re-executed copy of this binary becomes the sandbox's init process;
	// Main does not return in that case.
	sandbox.Main()
	os.Exit(runWithSignals(os.Args[1:]))
}

// runWithSignals runs the command line args as the ticoder program does:
// Ctrl-C and SIGTERM cancel its context.
func runWithSignals(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runMain(ctx, args, os.Stdout, os.Stderr)
}

// runMain runs the command line args and returns the exit status (see
// exitHelp).
func runMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runMainIn(ctx, args, nil, stdout, stderr)
}

// runMainIn is runMain with stdin read from in (os.Stdin if in is nil).
func runMainIn(ctx context.Context, args []string, in io.Reader, stdout, stderr io.Writer) int {
	g := &globalOptions{}
	root := newRoot(g)
	root.SetArgs(args)
	if in != nil {
		root.SetIn(in)
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	g.logs.Flush()
	return exitCodeOf(cmd, err, stderr)
}

// newRootCommand returns the ticoder command tree.
func newRootCommand() *cobra.Command { return newRoot(&globalOptions{}) }

// newRoot returns the ticoder command tree, its global flags bound to g.
func newRoot(g *globalOptions) *cobra.Command {
	root := &cobra.Command{
		Version: buildVersion(),
		Use:     "ticoder",
		Short:   "Test-driven interactive code generation and code quality estimation",
		Long: `ticoder makes LLM-generated code trustworthy.

It asks a model for many candidate implementations and many candidate tests,
runs every test on every candidate in a sandbox, asks you the few yes/no
questions that split the candidates best, and hands back ranked code plus the
tests you approved. It also benchmarks that loop with a simulated user, checks
pass@k of sample files, and estimates code quality without tests.

` + exitHelp,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			g.logs = newLogHandler(cmd.ErrOrStderr(), g.verbose, !isBatch(cmd))
			slog.SetDefault(slog.New(g.logs))
			if err := checkFlags(cmd); err != nil {
				return err
			}
			if g.cpuProfile != "" {
				f, err := os.Create(g.cpuProfile)
				if err != nil {
					return fmt.Errorf("cpu profile: %w", err)
				}
				if err := pprof.StartCPUProfile(f); err != nil {
					return fmt.Errorf("cpu profile: %w", err)
				}
			}
			return nil
		},
		PersistentPostRun: func(cmd *cobra.Command, args []string) {
			if g.cpuProfile != "" {
				pprof.StopCPUProfile()
			}
		},
	}
	pf := root.PersistentFlags()
	pf.StringVar(&g.dataDir, "data-dir", "", "directory holding the datasets (default $TICODER_DATA, else ./data)")
	pf.StringVar(&g.cachePath, "cache", "", "SQLite file for the response and execution caches (default $TICODER_CACHE, else ~/.cache/ticoder/cache.db)")
	pf.BoolVarP(&g.verbose, "verbose", "v", false, "log more detail on stderr, and every repeat of a warning")
	pf.StringVar(&g.cpuProfile, "cpuprofile", "", "write a Go CPU profile to this file")
	_ = pf.MarkHidden("cpuprofile")
	pf.StringVar(&g.nats.URL, "nats", "", "run sandboxed work on ticoder workers through the NATS server at `URL`, e.g. nats://127.0.0.1:4222 (default $TICODER_NATS; token in $TICODER_NATS_TOKEN; see ticoder broker --help and ticoder worker --help)")
	pf.StringVar(&g.nats.Creds, "nats-creds", "", "NATS credentials `FILE` (JWT and nkey) for --nats")
	pf.StringVar(&g.nats.CA, "nats-ca", "", "PEM `FILE` of the certificate authorities to trust for a TLS --nats server")
	pf.StringVar(&g.natsTrust, "nats-trust", "", "`FILE` of the public keys of the workers whose results --nats accepts, one a line (default $TICODER_NATS_TRUST; your own worker key, ~/.local/share/ticoder/worker.nk, is trusted too; see ticoder worker --print-key)")
	pf.BoolVar(&g.unsafe, "unsafe-no-sandbox", false, "run untrusted code WITHOUT namespace isolation (only rlimits); for machines without user namespaces")

	root.AddCommand(
		batch(newCheckCommand(g)),
		batch(newGenCommand(g)),
		batch(newEvalCommand(g)),
		newDataCommand(g),
		batch(newQECommand(g)),
		newRunCommand(g),
		newServeCommand(g),
		newMCPCommand(g),
		newBrokerCommand(g),
		newWorkerCommand(g),
		newVersionCommand(),
	)
	// cobra adds these two when the command line runs; added now, they get
	// the usage errors of the others.
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		if c.Name() == "help" {
			strictHelp(c)
		}
	}
	usageErrors(root)
	return root
}

// strictHelp makes help about an unknown command a usage error instead of
// the root's help.
func strictHelp(help *cobra.Command) {
	run := help.Run
	help.Run = nil
	help.RunE = func(cmd *cobra.Command, args []string) error {
		target, rest, err := cmd.Root().Find(args)
		if err != nil {
			return usageError{err}
		}
		if len(rest) > 0 {
			return unknownSubcommand(target, rest)
		}
		run(cmd, args)
		return nil
	}
}

// usageError marks an error caused by how the command was called.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// usagef returns a usageError with a formatted message.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}
