package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/testutil"
)

// TestExitStatus: one mapping, per class: 0 success, 1 an error while
// running, 2 a usage error, 130 interrupted; messages a person understands.
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	samplesFile := filepath.Join(dir, "samples.jsonl")
	if err := os.WriteFile(samplesFile, []byte(`{"task_id": "HumanEval/0", "completion": "    return True\n"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	humanEvalSamples := filepath.Join(testutil.Fixtures(t), recorded, "codes.jsonl")
	emptyFile := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(emptyFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	globals := []string{"--data-dir", testutil.Fixtures(t), "--cache", filepath.Join(dir, "cache.db")}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name    string
		ctx     context.Context
		args    []string
		code    int
		want    string // in stderr, or in stdout for help
		notWant string
	}{
		{name: "help documents the exit statuses", args: []string{"--help"}, code: 0, want: "EXIT STATUS"},
		{name: "help lists the sandbox's status", args: []string{"--help"}, code: 0, want: "5    the sandbox is unavailable"},
		{name: "help lists the model's status", args: []string{"--help"}, code: 0, want: "4    the model cannot be used"},
		{name: "unknown command", args: []string{"chek"}, code: 2, want: `unknown command "chek" for "ticoder": did you mean check?`},
		{name: "unknown subcommand", args: []string{"qe", "evl"}, code: 2, want: `unknown command "evl" for "ticoder qe"`},
		{name: "unknown flag", args: []string{"check", "--bogus"}, code: 2, want: "unknown flag: --bogus"},
		{name: "unexpected argument", args: []string{"check", "--dataset", "humaneval", "--samples", samplesFile, "extra"}, code: 2, want: `check: unknown command "extra"`},
		{name: "missing required flags", args: []string{"check"}, code: 2, want: "check: --dataset and --samples are required"},
		{name: "not a number", args: []string{"run", "--demo", "--codes", "abc"}, code: 2, want: `--codes "abc": want a whole number, e.g. --codes 20`, notWant: "strconv"},
		{name: "duration without unit", args: []string{"check", "--dataset", "humaneval", "--samples", samplesFile, "--timeout", "3"}, code: 2, want: `--timeout "3": want a duration with a unit, e.g. --timeout 5s`},
		{name: "negative timeout", args: []string{"check", "--dataset", "humaneval", "--samples", samplesFile, "--timeout", "-1s"}, code: 2, want: "--timeout -1s: a duration must not be negative"},
		{name: "negative timeout of run", args: []string{"run", "--demo", "--timeout", "-1s"}, code: 2, want: "--timeout -1s: a duration must not be negative"},
		{name: "misspelt model kind", args: []string{"gen", "--dataset", "humaneval", "--model", "olama:x", "--out", filepath.Join(dir, "g.jsonl")}, code: 2, want: `did you mean "ollama"?`, notWant: "["},
		{name: "empty prompt", args: []string{"run", "--prompt", "", "--signature", "def fib(n: int) -> int"}, code: 2, want: "--prompt is empty", notWant: "needs a signature"},
		{name: "blank prompt", args: []string{"run", "--prompt", "  ", "--signature", "def fib(n: int) -> int", "--model", "openai:gpt-4o-mini"}, code: 2, want: "--prompt is empty"},
		{name: "signature without prompt", args: []string{"run", "--signature", "def fib(n: int) -> int"}, code: 2, want: "--signature needs --prompt too"},
		{name: "samples given as a CQE file", args: []string{"qe", "eval", "--train", humanEvalSamples, "--test", humanEvalSamples, "--estimator", "els"}, code: 2,
			want: "the row is a CodeT samples row", notWant: "appears twice"},
		{name: "a missing file is bad input", args: []string{"check", "--dataset", "humaneval", "--samples", filepath.Join(dir, "nope.jsonl")}, code: exitBadInput, want: "no such file"},
		{name: "interrupted", ctx: canceled, args: []string{"check", "--dataset", "humaneval", "--samples", samplesFile, "--out", filepath.Join(dir, "r.jsonl"), "-q"}, code: 130, want: "ticoder: interrupted"},
		{name: "oracle selection in a session", args: []string{"run", "--demo", "--select", "oracle"}, code: 2, want: "the oracle needs a reference solution, which only eval has"},
		{name: "a resumed session keeps its mode", args: []string{"run", "--resume", samplesFile, "--mode", "output"}, code: 2, want: "--mode cannot change it"},
		{name: "an empty samples file is bad input", args: []string{"check", "--dataset", "humaneval", "--samples", emptyFile, "--out", filepath.Join(dir, "r.jsonl")}, code: exitBadInput, want: "the file is empty"},
		{name: "a directory as samples is bad input", args: []string{"check", "--dataset", "humaneval", "--samples", dir, "--out", filepath.Join(dir, "r.jsonl")}, code: exitBadInput, want: "it is a directory"},
		{name: "an unknown demo is bad input", args: []string{"run", "--demo", "nope"}, code: exitBadInput, want: `unknown demo problem "nope"`},
		{name: "a corrupt session file is bad input", args: []string{"run", "--resume", emptyFile}, code: exitBadInput, want: "is not a session file that run kept"},
		{name: "an unknown dataset to fetch is bad input, as in check", args: []string{"data", "fetch", "bogus"}, code: exitBadInput, want: `unknown dataset "bogus"`},
		{name: "a missing dataset file is bad input", args: []string{"--data-dir", filepath.Join(dir, "nodata"), "check", "--dataset", "humaneval", "--samples", samplesFile, "--out", filepath.Join(dir, "r.jsonl")}, code: exitBadInput, want: "ticoder data fetch humaneval"},
		{name: "no workers", args: []string{"check", "--dataset", "humaneval", "--samples", samplesFile, "--workers", "0"}, code: 2, want: "--workers 0: give a number above 0"},
		{name: "negative workers", args: []string{"check", "--dataset", "humaneval", "--samples", samplesFile, "--workers", "-3"}, code: 2, want: "--workers -3: give a number above 0"},
		{name: "negative factor", args: []string{"check", "--dataset", "humaneval", "--samples", samplesFile, "--factor", "-2"}, code: 2, want: "--factor -2: give a number above 0"},
		{name: "a cache in a directory that does not exist", args: []string{"--cache", filepath.Join(dir, "no", "such", "c.db"), "check", "--dataset", "humaneval", "--samples", samplesFile, "--out", filepath.Join(dir, "r.jsonl")}, code: exitBadInput, want: "does not exist (create it first"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := c.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			var stdout, stderr bytes.Buffer
			args := append(append([]string{}, globals...), c.args...)
			code := runMain(ctx, args, &stdout, &stderr)
			out := stderr.String() + stdout.String()
			if code != c.code {
				t.Errorf("exit status %d, want %d; output:\n%s", code, c.code, out)
			}
			if !strings.Contains(out, c.want) || c.notWant != "" && strings.Contains(stderr.String(), c.notWant) {
				t.Errorf("output lacks %q (or has %q):\n%s", c.want, c.notWant, out)
			}
		})
	}
}
