package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/natsexec"
	"github.com/ticoder/ticoder/internal/qe/estimate"
	"github.com/ticoder/ticoder/internal/qe/qestore"
	"github.com/ticoder/ticoder/internal/samples"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/store"
)

// The exit statuses, one per class of error; exitCode is the one place
// that maps errors to them and exitHelp documents them.
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitBadInput    = 3
	exitModel       = 4
	exitSandbox     = 5
	exitInterrupted = 130
)

// exitHelp documents the exit statuses exitCode returns.
const exitHelp = `EXIT STATUS
  0    success
  1    any other error: approved tests that fail, problems that failed, a
       database from a newer ticoder
  2    a usage error: an unknown command or flag, a flag value that is not
       valid (a --model that is no model selector), a required flag
       missing, flags that do not go together
  3    bad input: a file, spec, task or dataset that is missing or cannot
       be used
  4    the model cannot be used: unreachable, key refused, no such model,
       rate limited, server errors, or (offline, replay) no stored answer
  5    the sandbox is unavailable on this machine
  130  interrupted (Ctrl-C or SIGTERM); finished work is kept`

// exitCode maps an error to the process exit status, in one place, and
// writes the error, with a hint about the flags to use where one helps, to
// stderr.
func exitCode(err error, stderr io.Writer) int {
	return exitCodeOf(nil, err, stderr)
}

// exitCodeOf is exitCode for an error of command cmd (nil: unknown), whose
// flags the hint may name.
func exitCodeOf(cmd *cobra.Command, err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	code := exitClass(err)
	if code == exitInterrupted {
		fmt.Fprintln(stderr, "ticoder: interrupted")
		return code
	}
	fmt.Fprintln(stderr, "ticoder:", cliMessageOf(cmd, err))
	return code
}

// cliMessage is err as the command line shows it: its message and, where
// one helps, the flags to use.
func cliMessage(err error) string { return cliMessageOf(nil, err) }

// cliMessageOf is cliMessage for an error of command cmd (nil: unknown):
// a hint names only flags cmd has.
func cliMessageOf(cmd *cobra.Command, err error) string {
	msg := err.Error()
	if h := flagHint(err, cmd == nil || cmd.Flags().Lookup("demo") != nil); h != "" && !strings.Contains(msg, h) {
		msg += "; " + h
	}
	return msg
}

// exitClass returns the exit status of a non-nil err; the first class that
// matches wins.
func exitClass(err error) int {
	var u usageError
	switch {
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &u), errors.Is(err, llm.ErrBadSpec), errors.Is(err, interact.ErrNoModel),
		errors.Is(err, interact.ErrNoSignature), errors.Is(err, estimate.ErrNeedsDevSplit), errors.Is(err, estimate.ErrNeedsJudge),
		errors.Is(err, estimate.ErrNeedsExamples), errors.Is(err, llm.ErrNeedsCache), errors.Is(err, natsexec.ErrNoTrust),
		errors.Is(err, natsexec.ErrOpenListener):
		return exitUsage
	case errors.Is(err, sandbox.ErrUnavailable):
		return exitSandbox
	case errors.Is(err, llm.ErrUnreachable), errors.Is(err, llm.ErrUnauthorized), errors.Is(err, llm.ErrModelNotFound),
		errors.Is(err, llm.ErrRateLimited), errors.Is(err, llm.ErrServer), errors.Is(err, llm.ErrCacheMiss),
		errors.Is(err, llm.ErrNoSamples), errors.Is(err, interact.ErrModelFailed):
		return exitModel
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission), errors.Is(err, interact.ErrBadSource),
		errors.Is(err, dataset.ErrUnknown), errors.Is(err, qestore.ErrNotCQE), errors.Is(err, qestore.ErrNoExamples),
		errors.Is(err, natsexec.ErrBadKeyFile), errors.Is(err, samples.ErrNoSamples), errors.Is(err, demo.ErrUnknown):
		return exitBadInput
	case errors.Is(err, store.ErrNewerSchema):
		return exitError
	}
	var se *interact.SyntaxError
	if errors.As(err, &se) {
		return exitBadInput
	}
	return exitError
}

// flagHint returns the command-line advice for err: the shared packages
// return sentinel errors that name no flag, and the CLI adds its own;
// demo says whether the command has --demo.
func flagHint(err error, demo bool) string {
	switch {
	case errors.Is(err, interact.ErrNoModel):
		if !demo {
			return "give --model (e.g. openai:gpt-4o-mini, ollama:qwen2.5-coder:7b)"
		}
		return "give --model (e.g. openai:gpt-4o-mini, ollama:qwen2.5-coder:7b), or try --demo"
	case errors.Is(err, interact.ErrNoSignature):
		return "give it with --signature"
	case errors.Is(err, interact.ErrNoCandidates):
		return "try again, or ask for more with --codes"
	case errors.Is(err, interact.ErrNoTests):
		return "try again, or ask for more with --tests"
	case errors.Is(err, sandbox.ErrUnavailable):
		return "or pass --unsafe-no-sandbox to run untrusted code without isolation (only rlimits)"
	case errors.Is(err, llm.ErrNeedsCache):
		return "pass --cache FILE (the one an online run filled)"
	case errors.Is(err, llm.ErrCacheMiss):
		return "run once without --offline, with the same --model and options"
	case errors.Is(err, llm.ErrNoSamples):
		return "use a live --model to generate them"
	case errors.Is(err, llm.ErrUnreachable), errors.Is(err, llm.ErrUnauthorized), errors.Is(err, llm.ErrModelNotFound),
		errors.Is(err, interact.ErrModelFailed):
		if !demo {
			return "check --model"
		}
		return "check --model, or try --demo, which needs no model"
	case errors.Is(err, estimate.ErrNeedsDevSplit):
		return "use a --dev-frac above 0, or give one --k"
	case errors.Is(err, estimate.ErrNeedsExamples):
		return "give a labelled pool with --train"
	case errors.Is(err, estimate.ErrNeedsJudge):
		return "pass --model MODEL"
	case errors.Is(err, store.ErrNewerSchema):
		return "--cache FILE (or $TICODER_CACHE) chooses the database file"
	case errors.Is(err, natsexec.ErrNoTrust), errors.Is(err, natsexec.ErrUnverified):
		return "list the workers' public keys (ticoder worker --print-key prints one) in a file given with --nats-trust FILE or $TICODER_NATS_TRUST; a worker run as this user on this machine is trusted without it"
	}
	return ""
}
