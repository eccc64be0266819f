package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/spf13/cobra"

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
}

func main() {
	// A re-executed copy of this binary becomes the sandbox's init process;
	// Main does not return in that case.
	sandbox.Main()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRootCommand().ExecuteContext(ctx)
	stop()
	os.Exit(exitCode(err))
}

func newRootCommand() *cobra.Command {
	g := &globalOptions{}
	root := &cobra.Command{
		Use:   "ticoder",
		Short: "Test-driven interactive code generation and code quality estimation",
		Long: `ticoder makes LLM-generated code trustworthy.

It asks a model for many candidate implementations and many candidate tests,
runs every test on every candidate in a sandbox, asks you the few yes/no
questions that split the candidates best, and hands back ranked code plus the
tests you approved. It also benchmarks that loop with a simulated user, checks
pass@k of sample files, and estimates code quality without tests.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			level := slog.LevelWarn
			if g.verbose {
				level = slog.LevelDebug
			}
			slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))
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
	pf.BoolVarP(&g.verbose, "verbose", "v", false, "log more detail on stderr")
	pf.StringVar(&g.cpuProfile, "cpuprofile", "", "write a Go CPU profile to this file")
	_ = pf.MarkHidden("cpuprofile")
	pf.BoolVar(&g.unsafe, "unsafe-no-sandbox", false, "run untrusted code WITHOUT namespace isolation (only rlimits); for machines without user namespaces")

	root.AddCommand(
		newCheckCommand(g),
		newGenCommand(g),
		newEvalCommand(g),
		newDataCommand(g),
		newQECommand(g),
		newRunCommand(g),
		newServeCommand(g),
	)
	return root
}

// exitCode maps an error to the process exit status, in one place.
func exitCode(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(os.Stderr, "ticoder: interrupted")
		return 130
	default:
		fmt.Fprintln(os.Stderr, "ticoder:", err)
		var u usageError
		if errors.As(err, &u) {
			return 2
		}
		return 1
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
