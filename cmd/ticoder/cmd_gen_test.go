package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/generate"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestMain lets the test binary become a sandbox init (the gen tests start
// sandboxed workers for extraction), and, with $TICODER_TEST_AS_MAIN=1, the
// ticoder program itself (the NATS tests start workers and coordinators as
// processes of their own).
func TestMain(m *testing.M) {
	sandbox.Main()
	if os.Getenv(asMainEnv) == "1" {
		os.Exit(runWithSignals(os.Args[1:]))
	}
	os.Exit(m.Run())
}

const recorded = "samples/humaneval-codegen16b"

// genTestOptions returns gen options for a few HumanEval problems, writing
// to a fresh directory, with HTTP retries that do not sleep and an empty
// environment.
func genTestOptions(t *testing.T, model string) genOptions {
	t.Helper()
	return genOptions{
		dataset:     "humaneval-noexamples",
		model:       model,
		codes:       20,
		tests:       20,
		out:         filepath.Join(t.TempDir(), "gen.jsonl"),
		problems:    []string{"HumanEval/0", "HumanEval/53", "HumanEval/85", "HumanEval/161"},
		style:       "completion",
		temperature: 0.8,
		topP:        0.95,
		seed:        -1,
		jobs:        2,
		retry:       llm.Retry{Sleep: func(context.Context, time.Duration) error { return nil }},
		getenv:      func(string) string { return "" },
	}
}

// genGlobals returns global options with a fresh cache and the test
// fixtures, which hold the recorded samples of the problems used here.
func genGlobals(t *testing.T) *globalOptions {
	t.Helper()
	return &globalOptions{dataDir: testutil.Fixtures(t), cachePath: filepath.Join(t.TempDir(), "cache.db")}
}

func readRows(t *testing.T, path string) []generate.Result {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []generate.Result
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r generate.Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows
}

func TestGenReplay(t *testing.T) {
	g := genGlobals(t)
	o := genTestOptions(t, "replay:"+filepath.Join(g.dataDir, recorded))
	o.codes, o.tests = 100, 100
	if err := runGen(context.Background(), g, o); err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, o.out)
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.TaskID)
		if len(r.RawCodes) != 100 || len(r.RawTests) != 100 {
			t.Errorf("%s: %d raw codes and %d raw tests, want 100 each", r.TaskID, len(r.RawCodes), len(r.RawTests))
		}
		if len(r.Candidates) == 0 || len(r.Tests) == 0 {
			t.Errorf("%s: %d candidates and %d tests", r.TaskID, len(r.Candidates), len(r.Tests))
		}
		for name, st := range map[string]struct{ samples, unique, failed, kept, pieces, accounted int }{
			"codes": {r.Stats.Codes.Samples, r.Stats.Codes.Unique, r.Stats.Codes.Failed, r.Stats.Codes.Kept, r.Stats.Codes.Pieces, r.Stats.Codes.Kept + r.Stats.Codes.Dropped()},
			"tests": {r.Stats.Tests.Samples, r.Stats.Tests.Unique, r.Stats.Tests.Failed, r.Stats.Tests.Kept, r.Stats.Tests.Pieces, r.Stats.Tests.Kept + r.Stats.Tests.Setup + r.Stats.Tests.Dropped()},
		} {
			if st.samples != 100 || st.failed != 0 || st.pieces != st.accounted {
				t.Errorf("%s %s stats inconsistent: %+v", r.TaskID, name, st)
			}
		}
		if r.Stats.Codes.Unique != len(r.Candidates) || r.Stats.Tests.Unique != len(r.Tests) {
			t.Errorf("%s: unique counts differ from the lists", r.TaskID)
		}
	}
	want := []string{"HumanEval/0", "HumanEval/53", "HumanEval/85", "HumanEval/161"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("task ids (-want +got):\n%s", diff)
	}
	if info, err := os.Stat(o.out); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("output file mode: %v %v", info, err)
	}
}

// recordedResponder answers completion requests with the recorded samples
// of the prompt, marking every choice as cut at the length limit (what a
// recorded continuation without a final newline is taken to be).
func recordedResponder(t *testing.T, dir string) llmtest.Responder {
	t.Helper()
	byPrompt := map[string][]string{}
	for _, name := range []string{"codes.jsonl", "tests.jsonl"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var row struct {
				Prompt  string   `json:"prompt"`
				Samples []string `json:"samples"`
			}
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				t.Fatal(err)
			}
			byPrompt[row.Prompt] = row.Samples
		}
	}
	return func(c llmtest.Call) llmtest.Reply {
		s, ok := byPrompt[c.Prompt]
		if !ok {
			return llmtest.Reply{Status: 400, ErrorMessage: "unexpected prompt"}
		}
		return llmtest.Reply{Texts: s[:min(c.Want(), len(s))], FinishReason: "length"}
	}
}

func TestGenServerMatchesReplayAndCaches(t *testing.T) {
	g := genGlobals(t)
	dir := filepath.Join(g.dataDir, recorded)
	replay := genTestOptions(t, "replay:"+dir)
	if err := runGen(context.Background(), g, replay); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(replay.out)
	if err != nil {
		t.Fatal(err)
	}

	srv := llmtest.New(t, llmtest.Config{Respond: recordedResponder(t, dir)})
	live := genTestOptions(t, "vllm:codegen-16b@"+srv.URL)
	if err := runGen(context.Background(), g, live); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(live.out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("fake server output differs from replay output:\n%s", cmp.Diff(string(want), string(got)))
	}
	if n := srv.Count("completions"); n != 2*len(live.problems) {
		t.Errorf("first run made %d completion calls, want %d", n, 2*len(live.problems))
	}

	for _, offline := range []bool{false, true} {
		srv.Reset()
		again := genTestOptions(t, "vllm:codegen-16b@"+srv.URL)
		again.offline = offline
		if err := runGen(context.Background(), g, again); err != nil {
			t.Fatal(err)
		}
		if n := srv.Count(""); n != 0 {
			t.Errorf("run from the cache (offline %v) made %d HTTP calls, want 0", offline, n)
		}
		if got2, _ := os.ReadFile(again.out); !bytes.Equal(want, got2) {
			t.Errorf("run from the cache (offline %v): output differs from replay output", offline)
		}
	}
}

// refusedURL returns a base URL nothing listens on.
func refusedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

func TestGenErrors(t *testing.T) {
	cases := []struct {
		name  string
		model func(t *testing.T) string
		want  string // in the error message
	}{
		{"connection refused", func(t *testing.T) string { return "vllm:m@" + refusedURL(t) }, "vllm"},
		{"unauthorized", func(t *testing.T) string {
			return "vllm:m@" + llmtest.New(t, llmtest.Config{APIKey: "sekret"}).URL
		}, "key"},
		{"unknown model", func(t *testing.T) string {
			return "vllm:nope@" + llmtest.New(t, llmtest.Config{Models: []string{"other"}}).URL
		}, "nope"},
		{"truncated response", func(t *testing.T) string {
			return "vllm:m@" + llmtest.New(t, llmtest.Config{Respond: func(llmtest.Call) llmtest.Reply {
				return llmtest.Reply{Texts: []string{"    return 1\n"}, Truncate: true}
			}}).URL
		}, ""},
		{"replay directory missing", func(t *testing.T) string { return "replay:" + filepath.Join(t.TempDir(), "none") }, "replay"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := genTestOptions(t, tc.model(t))
			if err := os.WriteFile(o.out, []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			err := runGen(context.Background(), genGlobals(t), o)
			if err == nil {
				t.Fatal("gen succeeded")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.Contains(msg, tc.want) {
				t.Errorf("error is not one line naming %q: %q", tc.want, msg)
			}
			t.Logf("error: %s", msg)
			if b, _ := os.ReadFile(o.out); string(b) != "old\n" {
				t.Errorf("output file changed: %q", b)
			}
			entries, _ := os.ReadDir(filepath.Dir(o.out))
			if len(entries) != 1 {
				t.Errorf("leftover files: %v", entries)
			}
		})
	}
}

// TestGenFailureNotShownAsDone: when a problem has no recording, the
// progress bar stops where it was instead of jumping to 100% before the
// error.
func TestGenFailureNotShownAsDone(t *testing.T) {
	o := genTestOptions(t, "replay:"+filepath.Join(testutil.Fixtures(t), recorded))
	o.dataset = "humaneval" // recorded for humaneval-noexamples: HumanEval/1 has none
	o.problems = []string{"HumanEval/1", "HumanEval/3", "HumanEval/7"}
	o.jobs = 1
	var bar bytes.Buffer
	o.progress = progress.NewBar(&bar)
	err := runGen(context.Background(), genGlobals(t), o)
	if err == nil || !strings.Contains(err.Error(), "no recorded code for HumanEval/1") {
		t.Fatalf("err = %v, want one naming HumanEval/1's missing recording", err)
	}
	if strings.Contains(bar.String(), "100%") || !strings.Contains(bar.String(), "stopped at 0 of 3") {
		t.Errorf("the bar does not stop where the run failed: %q", bar.String())
	}
}

func TestGenUsageErrors(t *testing.T) {
	base := genTestOptions(t, "replay:x")
	cases := map[string]func(o *genOptions){
		"no dataset":       func(o *genOptions) { o.dataset = "" },
		"no model":         func(o *genOptions) { o.model = "" },
		"bad model":        func(o *genOptions) { o.model = "nokind" },
		"no out":           func(o *genOptions) { o.out = "" },
		"nothing to do":    func(o *genOptions) { o.codes, o.tests = 0, 0 },
		"bad code style":   func(o *genOptions) { o.codeStyle = "weird" },
		"bad prompt style": func(o *genOptions) { o.style = "weird" },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			o := base
			change(&o)
			err := runGen(context.Background(), genGlobals(t), o)
			var u usageError
			if err == nil || !errors.As(err, &u) {
				t.Fatalf("want a usage error, got %v", err)
			}
		})
	}
}

func TestGenCommandFlags(t *testing.T) {
	data := testutil.Fixtures(t)
	out := filepath.Join(t.TempDir(), "gen.jsonl")
	root := newRootCommand()
	var stderr bytes.Buffer
	root.SetErr(&stderr)
	root.SetOut(&stderr)
	root.SetArgs([]string{"gen", "--data-dir", data, "--cache", filepath.Join(t.TempDir(), "c.db"),
		"--dataset", "humaneval-noexamples", "--model", "replay:" + filepath.Join(data, recorded),
		"--codes", "5", "--tests", "5", "--problems", "0,2", "--out", out})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, out)
	if len(rows) != 2 || rows[0].TaskID != "HumanEval/0" || rows[1].TaskID != "HumanEval/2" || len(rows[0].RawCodes) != 5 {
		t.Errorf("unexpected rows: %d", len(rows))
	}
	if !strings.Contains(stderr.String(), "gen: wrote 2 problems to "+out) {
		t.Errorf("no summary on stderr: %q", stderr.String())
	}
}
