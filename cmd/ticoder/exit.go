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
	"github.com/ticoder/ticoder/internal/project"
	"github.com/ticoder/ticoder/internal/qe/estimate"
	"github.com/ticoder/ticoder/internal/qe/qestore"
	"github.com/ticoder/ticoder/internal/samples"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/store"
)

// The exit statuses, one per class of error; exitStatuses is the one table
// that maps errors to them and documents them.
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitBadInput    = 3
	exitModel       = 4
	exitSandbox     = 5
	exitInterrupted = 130
)

// exitStatus is one row of the table of exit statuses: the status, what it
// means (as --help says it), and the errors that exit with it.
type exitStatus struct {
	code int
	// help is the meaning, wrapped for --help.
	help string
	// is lists the errors matched with errors.Is.
	is []error
	// as matches the errors of a type (nil: none).
	as func(error) bool
}

// exitStatuses is the table of exit statuses, in the order --help lists
// them; exitClass tries the rows in exitPrecedence's order.
var exitStatuses = []exitStatus{
	{code: exitOK, help: "success"},
	{code: exitError, help: "any other error: approved tests that fail, problems that failed, a\ndatabase from a newer ticoder",
		is: []error{store.ErrNewerSchema}},
	{code: exitUsage, help: "a usage error: an unknown command or flag, a flag value that is not\nvalid (a --model that is no model selector, an --addr that is no\naddress), a required flag missing, flags that do not go together",
		is: []error{llm.ErrBadSpec, interact.ErrNoModel, interact.ErrNoSignature, estimate.ErrNeedsDevSplit, estimate.ErrNeedsJudge,
			estimate.ErrNeedsExamples, llm.ErrNeedsCache, natsexec.ErrNoTrust, natsexec.ErrOpenListener},
		as: func(err error) bool { var u usageError; return errors.As(err, &u) }},
	{code: exitBadInput, help: "bad input: a file, spec, task or dataset that is missing or cannot\nbe used (samples of another dataset, lines --strict refuses, a replay\ndirectory that does not exist)",
		is: []error{fs.ErrNotExist, fs.ErrPermission, interact.ErrBadSource, dataset.ErrUnknown, dataset.ErrNoProblem,
			dataset.ErrBadFile, qestore.ErrNotCQE, qestore.ErrNoExamples, natsexec.ErrBadKeyFile, samples.ErrNoSamples,
			demo.ErrUnknown, llm.ErrBadReplay, project.ErrBadProject},
		as: func(err error) bool {
			var b badInputError
			var se *interact.SyntaxError
			return errors.As(err, &b) || errors.As(err, &se)
		}},
	{code: exitModel, help: "the model cannot be used: unreachable, no answer within\n--request-timeout, key refused, no such model, rate limited, server\nerrors, or (offline, replay) no stored answer",
		is: []error{llm.ErrUnreachable, llm.ErrNoAnswer, llm.ErrUnauthorized, llm.ErrModelNotFound, llm.ErrRateLimited,
			llm.ErrServer, llm.ErrCacheMiss, llm.ErrNoSamples, interact.ErrModelFailed}},
	{code: exitSandbox, help: "the sandbox is unavailable on this machine", is: []error{sandbox.ErrUnavailable}},
	{code: exitInterrupted, help: "interrupted (Ctrl-C or SIGTERM); finished work is kept", is: []error{context.Canceled}},
}

// exitPrecedence is the order exitClass tries the rows of exitStatuses in:
// an interrupt wins over everything, a usage error over what it caused, a
// missing sandbox or model over the input that could not be run.
var exitPrecedence = []int{exitInterrupted, exitUsage, exitSandbox, exitModel, exitBadInput, exitError}

// exitHelp documents the exit statuses, for --help.
var exitHelp = exitHelpText()

// exitHelpText renders exitStatuses as the EXIT STATUS section of --help.
func exitHelpText() string {
	var b strings.Builder
	b.WriteString("EXIT STATUS")
	for _, st := range exitStatuses {
		for i, line := range strings.Split(st.help, "\n") {
			if i == 0 {
				fmt.Fprintf(&b, "\n  %-4d %s", st.code, line)
			} else {
				fmt.Fprintf(&b, "\n       %s", line)
			}
		}
	}
	return b.String()
}

// badInputError marks an error caused by input that cannot be used, where
// no sentinel says so.
type badInputError struct{ err error }

func (b badInputError) Error() string { return b.err.Error() }
func (b badInputError) Unwrap() error { return b.err }

// badInputf returns a badInputError with a formatted message.
func badInputf(format string, args ...any) error {
	return badInputError{fmt.Errorf(format, args...)}
}

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

// exitClass returns the exit status of a non-nil err: the first row of
// exitStatuses, in exitPrecedence's order, that matches it.
func exitClass(err error) int {
	for _, code := range exitPrecedence {
		for _, st := range exitStatuses {
			if st.code == code && st.matches(err) {
				return code
			}
		}
	}
	return exitError
}

// matches reports whether err exits with st.
func (st exitStatus) matches(err error) bool {
	for _, e := range st.is {
		if errors.Is(err, e) {
			return true
		}
	}
	return st.as != nil && st.as(err)
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
	case errors.Is(err, llm.ErrNoAnswer):
		return "if the model is only slow, give it more time with --request-timeout (e.g. --request-timeout 15m)"
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
