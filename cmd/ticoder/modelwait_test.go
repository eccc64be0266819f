package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestSilentModel: a model server that takes every request and never
// answers is reported while the command waits ("waiting for the model at
// URL, no answer yet"), and the command gives up after --request-timeout
// with the model's exit status and a message that names the flag.
func TestSilentModel(t *testing.T) {
	defer func(n, k time.Duration) { waitNotice, waitTick = n, k }(waitNotice, waitTick)
	waitNotice, waitTick = 0, 10*time.Millisecond

	srv := llmtest.New(t, llmtest.Config{Respond: llmtest.Silent()})
	dir := t.TempDir()
	model := "vllm:m@" + srv.URL
	problem := []string{"--dataset", "humaneval-noexamples", "--problems", "HumanEval/0", "--codes", "1", "--tests", "1"}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"gen", append([]string{"gen", "--out", filepath.Join(dir, "gen.jsonl")}, problem...)},
		{"eval", append([]string{"eval", "--out", filepath.Join(dir, "eval"), "--mode", "passfail", "--select", "random", "--rank-codes", "passing"}, problem...)},
		{"run", []string{"run", "--task", "humaneval-noexamples/HumanEval/0", "--codes", "1", "--tests", "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"--data-dir", testutil.Fixtures(t), "--cache", filepath.Join(dir, c.name+".db")}, c.args...)
			args = append(args, "--model", model, "--request-timeout", "1s")
			var stdout, stderr bytes.Buffer
			code := runMain(context.Background(), args, &stdout, &stderr)
			out := stderr.String()
			for _, want := range []string{
				"waiting for the model at " + srv.URL + ", no answer yet",
				"no answer from " + srv.URL + " within 1s",
				"--request-timeout",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("stderr lacks %q:\n%s", want, out)
				}
			}
			// eval reports a problem that failed and goes on; the others
			// stop with the model's status.
			want := exitModel
			if c.name == "eval" {
				want = exitError
			}
			if code != want {
				t.Errorf("exit %d, want %d:\n%s", code, want, out)
			}
		})
	}
}
