package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/qe/estimate"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/store"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestExitStatusPerClass runs the built binary, as a user does, once per
// class of error and command: the same mistake gives the same status from
// run, gen and eval, and the message names the flag to fix where one helps.
func TestExitStatusPerClass(t *testing.T) {
	dir := t.TempDir()
	bin := buildTicoder(t, dir)
	spec := filepath.Join(dir, "median.py")
	if err := os.WriteFile(spec, []byte("def median(l: list):\n    \"\"\"Return median of elements in the list l.\"\"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const (
		badModel = "bogus"                        // no provider kind
		deadURL  = "vllm:m@http://127.0.0.1:1/v1" // nothing listens on port 1
	)
	// commands returns the run, gen and eval command lines with model.
	commands := func(model string) map[string][]string {
		problems := []string{"--dataset", "humaneval-noexamples", "--problems", "HumanEval/0"}
		return map[string][]string{
			"run":  {"run", "--spec", spec, "--model", model},
			"gen":  append(append([]string{"gen"}, problems...), "--out", filepath.Join(dir, "gen.jsonl"), "--model", model),
			"eval": append(append([]string{"eval"}, problems...), "--out", filepath.Join(dir, "eval-"+model[:3]), "--model", model),
		}
	}
	type tc struct {
		name string
		args []string
		code int
		want string // in stderr
	}
	var tests []tc
	for _, cmd := range []string{"run", "gen", "eval"} {
		tests = append(tests,
			tc{"usage: bad --model from " + cmd, commands(badModel)[cmd], exitUsage, "has no provider kind"},
			tc{"model unreachable from " + cmd, commands(deadURL)[cmd], exitModel, "check --model"},
		)
	}
	tests = append(tests,
		tc{"usage: unknown flag", []string{"gen", "--no-such-flag"}, exitUsage, "no-such-flag"},
		tc{"usage: no model for a spec", []string{"run", "--spec", spec}, exitUsage, "give --model"},
		tc{"usage: prompt without signature", []string{"run", "--prompt", "add two numbers"}, exitUsage, "--signature"},
		tc{"bad input: missing spec file", []string{"run", "--spec", filepath.Join(dir, "none.py"), "--model", deadURL}, exitBadInput, "no such file"},
		tc{"bad input: unknown dataset from gen", []string{"gen", "--dataset", filepath.Join(dir, "none.jsonl"), "--model", deadURL, "--out", filepath.Join(dir, "g2.jsonl")}, exitBadInput, "unknown dataset"},
		tc{"bad input: unknown dataset from eval", []string{"eval", "--dataset", filepath.Join(dir, "none.jsonl"), "--model", deadURL, "--out", filepath.Join(dir, "e2")}, exitBadInput, "unknown dataset"},
	)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--data-dir", testutil.Fixtures(t), "--cache", filepath.Join(dir, "cache.db")}, tt.args...)
			code, stderr := runBinary(t, exec.Command(bin, args...))
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("ticoder %s: exit %d, want %d, and stderr with %q:\n%s", strings.Join(tt.args, " "), code, tt.code, tt.want, stderr)
			}
		})
	}

	t.Run("database from a newer ticoder", func(t *testing.T) {
		newer := filepath.Join(dir, "newer.db")
		db, err := store.Open(newer)
		if err != nil {
			t.Fatal(err)
		}
		step := store.Migration{Name: "a future step", SQL: "SELECT 1"}
		future := store.Schema{Component: "execute", Migrations: make([]store.Migration, 1+execute.CacheSchema().Version())}
		for i := range future.Migrations {
			future.Migrations[i] = step
		}
		err = store.Migrate(context.Background(), db, future)
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		code, stderr := runBinary(t, exec.Command(bin, "--cache", newer, "run", "--demo"))
		if code != exitError || !strings.Contains(stderr, "newer ticoder") || !strings.Contains(stderr, "--cache") {
			t.Errorf("exit %d, want %d, and stderr saying a newer ticoder wrote it and naming --cache:\n%s", code, exitError, stderr)
		}
	})

	t.Run("sandbox unavailable", func(t *testing.T) {
		// Inside a user namespace whose own limit on user namespaces is 0,
		// the sandbox cannot create its namespaces.
		if _, err := exec.LookPath("unshare"); err != nil {
			t.Skip("needs unshare (util-linux)")
		}
		if out, err := exec.Command("unshare", "-U", "-r", "true").CombinedOutput(); err != nil {
			t.Skipf("cannot create a user namespace here (%v: %s); the sandbox could not either", err, out)
		}
		script := `echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"`
		cmd := exec.Command("unshare", "-U", "-r", "sh", "-c", script, "sh", bin, "--cache", filepath.Join(dir, "cache.db"), "run", "--demo")
		code, stderr := runBinary(t, cmd)
		if code != exitSandbox || !strings.Contains(stderr, "sandbox unavailable") || !strings.Contains(stderr, "--unsafe-no-sandbox") {
			t.Errorf("exit %d, want %d, and stderr naming --unsafe-no-sandbox:\n%s", code, exitSandbox, stderr)
		}
	})

	t.Run("interrupted", func(t *testing.T) {
		cmd := exec.Command(bin, "--cache", filepath.Join(dir, "cache.db"), "run", "--demo")
		stdin, err := cmd.StdinPipe() // kept open: run waits for an answer
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		asked := make(chan error, 1)
		go func() { asked <- readUntilText(stdout, "> ") }()
		select {
		case err := <-asked:
			if err != nil {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("no question asked: %v\n%s", err, stderr.String())
			}
		case <-time.After(2 * time.Minute):
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("no question within two minutes:\n%s", stderr.String())
		}
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		go func() { _, _ = io.Copy(io.Discard, stdout) }()
		code := waitExit(t, cmd)
		if code != exitInterrupted {
			t.Errorf("exit %d after SIGINT, want %d:\n%s", code, exitInterrupted, stderr.String())
		}
	})
}

// runBinary runs cmd (stdin empty) with a deadline and returns its exit
// status and stderr.
func runBinary(t *testing.T, cmd *exec.Cmd) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return waitExit(t, cmd), stderr.String()
}

// waitExit waits at most two minutes for cmd and returns its exit status.
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("%s did not exit within two minutes", strings.Join(cmd.Args, " "))
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	default:
		t.Fatal(err)
		return -1
	}
}

// readUntilText reads r until it has seen s.
func readUntilText(r io.Reader, s string) error {
	var seen []byte
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		seen = append(seen, buf[:n]...)
		if bytes.Contains(seen, []byte(s)) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w after %q", err, seen)
		}
	}
}

// TestExitClass checks the classes that need no process, including the
// ones a wrapped error must still reach.
func TestExitClass(t *testing.T) {
	tests := []struct {
		err  error
		code int
	}{
		{context.Canceled, exitInterrupted},
		{fmt.Errorf("eval: %w", context.Canceled), exitInterrupted},
		{usagef("--x: bad"), exitUsage},
		{fmt.Errorf("open: %w", os.ErrNotExist), exitBadInput},
		{fmt.Errorf("--problems: %w", dataset.ErrNoProblem), exitBadInput},
		{fmt.Errorf("load x: %w", dataset.ErrBadFile), exitBadInput},
		{fmt.Errorf("open: %w", llm.ErrBadReplay), exitBadInput},
		{badInputf("--strict: 2 lines skipped"), exitBadInput},
		{fmt.Errorf("gen: %w", llm.ErrNoAnswer), exitModel},
		{fmt.Errorf("gen: %w", llm.ErrBadSpec), exitUsage},
		{errors.New("anything else"), exitError},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		if got := exitCode(tt.err, &buf); got != tt.code {
			t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.code)
		}
	}
	if got := exitCode(nil, io.Discard); got != exitOK {
		t.Errorf("exitCode(nil) = %d", got)
	}
}

// TestCLIMessageHints: each sentinel of the shared packages, wrapped as a
// command wraps it, gets its flag hint and its exit class.
func TestCLIMessageHints(t *testing.T) {
	tests := []struct {
		err  error
		flag string
		code int
	}{
		{interact.ErrNoCandidates, "--codes", exitError},
		{interact.ErrNoTests, "--tests", exitError},
		{interact.ErrNoModel, "--demo", exitUsage},
		{interact.ErrNoSignature, "--signature", exitUsage},
		{estimate.ErrNeedsDevSplit, "--dev-frac", exitUsage},
		{estimate.ErrNeedsExamples, "--train", exitUsage},
		{estimate.ErrNeedsJudge, "--model", exitUsage},
		{llm.ErrNeedsCache, "--cache", exitUsage},
		{llm.ErrCacheMiss, "--offline", exitModel},
		{llm.ErrNoSamples, "--model", exitModel},
		{llm.ErrNoAnswer, "--request-timeout", exitModel},
		{sandbox.ErrUnavailable, "--unsafe-no-sandbox", exitSandbox},
		{store.ErrNewerSchema, "--cache", exitError},
	}
	for _, tt := range tests {
		err := fmt.Errorf("gen HumanEval/0: %w", tt.err)
		if msg := cliMessage(err); !strings.Contains(msg, tt.flag) {
			t.Errorf("cliMessage(%v) = %q, want a hint naming %s", tt.err, msg, tt.flag)
		}
		if got := exitClass(err); got != tt.code {
			t.Errorf("exitClass(%v) = %d, want %d", tt.err, got, tt.code)
		}
	}
}

// TestHintsNameOnlyTheCommandsFlags: "try --demo" only for commands that
// have --demo.
func TestHintsNameOnlyTheCommandsFlags(t *testing.T) {
	root := newRoot(&globalOptions{})
	for _, c := range []struct {
		args []string
		demo bool
	}{
		{[]string{"run"}, true},
		{[]string{"serve"}, true},
		{[]string{"eval"}, false},
		{[]string{"gen"}, false},
		{[]string{"qe", "eval"}, false},
		{[]string{"mcp"}, false},
	} {
		cmd, _, err := root.Find(c.args)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		for _, e := range []error{interact.ErrNoModel, fmt.Errorf("x: %w", llm.ErrUnreachable)} {
			msg := cliMessageOf(cmd, e)
			if got := strings.Contains(msg, "--demo"); got != c.demo {
				t.Errorf("%v: %q names --demo: %v, want %v", c.args, msg, got, c.demo)
			}
		}
	}
}

// TestExitStatusEveryCommand calls every command of the tree, as a user
// does, with at least one mistake, and checks the status --help promises
// for it: 2 for a usage error, 3 for bad input.
func TestExitStatusEveryCommand(t *testing.T) {
	dir := t.TempDir()
	fixtures := testutil.Fixtures(t)
	write := func(name, text string, mode os.FileMode) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// Samples of MBPP, given where HumanEval's are wanted.
	mbppSamples := write("mbpp-samples.jsonl", `{"task_id": "Mbpp/2", "completion": "    return 1\n"}`+"\n", 0o644)
	// One sample and one line that is none.
	mixed := write("mixed.jsonl", `{"task_id": "HumanEval/0", "completion": "    return True\n"}`+"\nnot json\n", 0o644)
	badKey := write("bad.nk", "not a key\n", 0o600)
	const noReplay = "replay:/nonexistent/recordings"
	replay := "replay:" + filepath.Join(fixtures, recorded)
	out := filepath.Join(dir, "out")

	// cases lists, per command path, the mistakes made with it.
	cases := map[string][]struct {
		args []string
		code int
		want string // in stderr
	}{
		"broker": {
			{[]string{"--listen", "nonsense"}, exitUsage, `--listen "nonsense": want HOST:PORT`},
			{[]string{"--tls-cert", filepath.Join(dir, "none.pem"), "--tls-key", filepath.Join(dir, "none.pem")}, exitBadInput, "--tls-cert"},
		},
		"check": {
			{[]string{"--dataset", "humaneval", "--samples", mbppSamples, "--out", out}, exitBadInput, "is humaneval the right dataset?"},
			{[]string{"--dataset", "humaneval", "--samples", mixed, "--out", out, "--strict"}, exitBadInput, "--strict: 1 line skipped"},
			{[]string{"--dataset", mbppSamples, "--samples", mbppSamples, "--out", out}, exitBadInput, "this looks like a samples file"},
		},
		"completion":            {{[]string{"nosuchshell"}, exitUsage, `unknown command "nosuchshell"`}},
		"completion bash":       {{[]string{"extra"}, exitUsage, `unknown command "extra"`}},
		"completion fish":       {{[]string{"extra"}, exitUsage, `unknown command "extra"`}},
		"completion powershell": {{[]string{"extra"}, exitUsage, `unknown command "extra"`}},
		"completion zsh":        {{[]string{"extra"}, exitUsage, `unknown command "extra"`}},
		"data":                  {{[]string{"bogus"}, exitUsage, `unknown command "bogus"`}},
		"data fetch":            {{[]string{"bogus"}, exitBadInput, `unknown dataset "bogus"`}},
		"data list":             {{[]string{"extra"}, exitUsage, `unknown command "extra"`}},
		"data verify":           {{[]string{"bogus"}, exitBadInput, `unknown dataset "bogus"`}},
		"eval": {
			{[]string{"--dataset", "humaneval", "--model", replay, "--problems", "Mbpp/2", "--out", out}, exitBadInput, `humaneval has no problem "Mbpp/2"`},
			{[]string{"--dataset", "humaneval", "--model", noReplay, "--problems", "HumanEval/0", "--out", out}, exitBadInput, "/nonexistent/recordings does not exist"},
		},
		"gen": {
			{[]string{"--dataset", mbppSamples, "--model", replay, "--out", out}, exitBadInput, "give it with --samples"},
			{[]string{"--dataset", "humaneval", "--model", noReplay, "--out", out}, exitBadInput, "/nonexistent/recordings does not exist"},
			{[]string{"--dataset", "humaneval", "--model", replay, "--problems", "HumanEval/999", "--out", out}, exitBadInput, `humaneval has no problem "HumanEval/999"`},
			{[]string{"--dataset", "humaneval", "--model", "vllm:m@http://127.0.0.1:1/v1", "--request-timeout", "-1s", "--out", out}, exitUsage, "--request-timeout -1s"},
		},
		"help": {{[]string{"nosuch"}, exitUsage, `unknown command "nosuch"`}},
		"mcp": {
			{[]string{"--http", "nonsense"}, exitUsage, `--http "nonsense": want HOST:PORT`},
			{[]string{"--model", noReplay}, exitBadInput, "/nonexistent/recordings does not exist"},
		},
		"qe":          {{[]string{"bogus"}, exitUsage, `unknown command "bogus"`}},
		"qe eval":     {{[]string{"--test", filepath.Join(dir, "none.jsonl"), "--estimator", "agree"}, exitBadInput, "no such file"}},
		"qe pool":     {{[]string{"bogus"}, exitUsage, `unknown command "bogus"`}},
		"qe pool add": {{[]string{"p", "--cqe", filepath.Join(dir, "none.jsonl")}, exitBadInput, "no such file"}},
		"qe pool list": {
			{[]string{"extra"}, exitUsage, `unknown command "extra"`},
		},
		"qe score": {{[]string{"--dataset", "humaneval", "--samples", mbppSamples, "--estimator", "constant"}, exitBadInput, "is humaneval the right dataset?"}},
		"run": {
			{[]string{"--demo", "nope"}, exitBadInput, `unknown demo problem "nope"`},
			{[]string{"--task", "humaneval/HumanEval/0", "--model", noReplay}, exitBadInput, "/nonexistent/recordings does not exist"},
			{[]string{"--task", "humaneval/HumanEval/0", "--model", "vllm:m@http://127.0.0.1:1/v1", "--request-timeout", "soon"}, exitUsage, `--request-timeout "soon"`},
		},
		"serve": {
			{[]string{"--addr", "nonsense"}, exitUsage, `--addr "nonsense": want HOST:PORT`},
			{[]string{"--addr", "127.0.0.1:99999"}, exitUsage, "a port from 0 to 65535"},
			{[]string{"--model", noReplay}, exitBadInput, "/nonexistent/recordings does not exist"},
		},
		"version": {{[]string{"extra"}, exitUsage, `unknown command "extra"`}},
		"worker":  {{[]string{"--key", badKey, "--print-key"}, exitBadInput, "worker key"}},
	}

	// Every command has its cases.
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden {
				continue
			}
			name := commandName(sub)
			if len(cases[name]) == 0 {
				t.Errorf("no exit-status case for ticoder %s", name)
			}
			walk(sub)
		}
	}
	walk(newRoot(&globalOptions{}))

	for name, cs := range cases {
		for _, c := range cs {
			args := append(strings.Fields(name), c.args...)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				full := append([]string{"--data-dir", fixtures, "--cache", filepath.Join(dir, "cache.db")}, args...)
				var stdout, stderr bytes.Buffer
				code := runMain(context.Background(), full, &stdout, &stderr)
				if code != c.code || !strings.Contains(stderr.String(), c.want) {
					t.Errorf("ticoder %s: exit %d, want %d, and stderr with %q:\n%s", strings.Join(args, " "), code, c.code, c.want, stderr.String())
				}
			})
		}
	}
}
