package llm_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/testutil"
)

// recordedFiles lists the files the recorded-samples tests read.
var recordedFiles = []string{"humaneval/HumanEval-noexamples.jsonl",
	testutil.Recorded + "/codes.jsonl", testutil.Recorded + "/tests.jsonl", testutil.Recorded + "/test-prompts.jsonl"}

// recordedProblems loads the problems the recorded samples in d were
// generated for: all 164 of HumanEval-noexamples in the full data, those
// the fixtures list in the fixtures.
func recordedProblems(t *testing.T, d testutil.Data) []dataset.Problem {
	t.Helper()
	ds, err := dataset.Load(context.Background(), d.Dir, "humaneval-noexamples")
	if err != nil {
		t.Fatal(err)
	}
	if d.Full {
		if ds.Len() != 164 {
			t.Fatalf("humaneval-noexamples has %d problems, want 164", ds.Len())
		}
		return ds.Problems
	}
	problems, err := ds.Select(testutil.FixtureTasks[testutil.Recorded+"/codes.jsonl"])
	if err != nil {
		t.Fatal(err)
	}
	return problems
}

func readCodeT(t *testing.T, path string) map[string][]string { return testutil.CodeTRows(t, path) }

func TestReplayRecordedHumanEval(t *testing.T) {
	testutil.ForEachData(t, checkReplayRecorded, recordedFiles...)
}

// checkReplayRecorded replays the recorded samples in d and compares them
// with the file's rows.
func checkReplayRecorded(t *testing.T, d testutil.Data) {
	dir := filepath.Join(d.Dir, filepath.FromSlash(testutil.Recorded))
	p, err := llm.OpenString("replay:"+dir, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	codes := readCodeT(t, filepath.Join(dir, "codes.jsonl"))
	tests := readCodeT(t, filepath.Join(dir, "tests.jsonl"))
	ctx := context.Background()
	for _, prob := range recordedProblems(t, d) {
		task := llm.TaskFrom(prob)
		testPrompt := prob.Prompt + "    pass\n\n# check the correctness of " + prob.EntryPoint + "\nassert "
		for _, c := range []struct {
			purpose   llm.Purpose
			want      []string
			continues string
		}{
			{llm.PurposeCode, codes[prob.Prompt], prob.Prompt},
			{llm.PurposeTests, tests[testPrompt], testPrompt},
		} {
			g, err := p.Generate(ctx, llm.Request{Purpose: c.purpose, Task: task, Params: llm.Params{N: 100, Temperature: 0.8}})
			if err != nil {
				t.Fatalf("%s %s: %v", prob.ID, c.purpose, err)
			}
			if len(c.want) != 100 {
				t.Fatalf("%s %s: the data file has %d samples, want 100", prob.ID, c.purpose, len(c.want))
			}
			if diff := cmp.Diff(c.want, g.Texts()); diff != "" {
				t.Fatalf("%s %s samples (-want +got):\n%s", prob.ID, c.purpose, diff)
			}
			if g.Continues != c.continues || g.Style != llm.StyleCompletion || g.Short() {
				t.Fatalf("%s %s: continues %q, style %s, short %v", prob.ID, c.purpose, g.Continues, g.Style, g.Short())
			}
		}
	}
}

func TestReplayWithoutTestPromptsFile(t *testing.T) {
	testutil.ForEachData(t, checkReplayWithoutTestPrompts, recordedFiles...)
}

// checkReplayWithoutTestPrompts replays the recorded samples in d without
// their test-prompts.jsonl.
func checkReplayWithoutTestPrompts(t *testing.T, d testutil.Data) {
	// Without test-prompts.jsonl, tests are found under the rendered
	// completion-style test prompt, which is exactly CodeT's.
	src := filepath.Join(d.Dir, filepath.FromSlash(testutil.Recorded))
	dir := t.TempDir()
	for _, f := range []string{"codes.jsonl", "tests.jsonl"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := llm.OpenReplay(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, prob := range recordedProblems(t, d) {
		g, err := p.Generate(context.Background(), llm.Request{Purpose: llm.PurposeTests, Task: llm.TaskFrom(prob), Params: llm.Params{N: 5}})
		if err != nil {
			t.Fatalf("%s: %v", prob.ID, err)
		}
		if len(g.Choices) != 5 {
			t.Fatalf("%s: %d choices", prob.ID, len(g.Choices))
		}
	}
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReplayRowFormats(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "codes.jsonl", strings.Join([]string{
		`{"task_id": "T/1", "completion": "    return 1\n"}`,
		`{"task_id": "T/1", "completion": "    return 2\n"}`,
		`{"task_id": "T/2", "solution": "def g():\n    return 3\n"}`,
		`{"task_id": 3, "samples": ["def h(): return 4", "def h(): return 5"]}`,
		``,
		`{"prompt": "def k():\r\n    \"\"\"K.\"\"\"  \n", "samples": ["    return 6\n"], "extra": true}`,
	}, "\n"))
	writeFile(t, dir, "tests.jsonl", `{"task_id": "T/1", "tests": ["assert f() == 1", "assert f() != 0"]}`+"\n")
	p, err := llm.OpenReplay(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		req       llm.Request
		want      []string
		continues string
		short     bool
	}{
		{name: "completion rows", req: llm.Request{Purpose: llm.PurposeCode, Task: llm.Task{ID: "T/1", Prompt: "def f():\n"}, Params: llm.Params{N: 2}},
			want: []string{"    return 1\n", "    return 2\n"}, continues: "def f():\n"},
		{name: "more than recorded", req: llm.Request{Purpose: llm.PurposeCode, Task: llm.Task{ID: "T/1", Prompt: "def f():\n"}, Params: llm.Params{N: 10}},
			want: []string{"    return 1\n", "    return 2\n"}, continues: "def f():\n", short: true},
		{name: "solution rows", req: llm.Request{Purpose: llm.PurposeCode, Task: llm.Task{ID: "T/2"}, Params: llm.Params{N: 1}},
			want: []string{"def g():\n    return 3\n"}},
		{name: "numeric task id", req: llm.Request{Purpose: llm.PurposeCode, Task: llm.Task{ID: "3"}, Params: llm.Params{N: 1}},
			want: []string{"def h(): return 4"}, short: false},
		{name: "prompt with other whitespace", req: llm.Request{Purpose: llm.PurposeCode, Task: llm.Task{ID: "K", Prompt: "def k():\n    \"\"\"K.\"\"\"\n"}},
			want: []string{"    return 6\n"}, continues: "def k():\r\n    \"\"\"K.\"\"\"  \n"},
		{name: "test lists", req: llm.Request{Purpose: llm.PurposeTests, Task: llm.Task{ID: "T/1"}, Params: llm.Params{N: 5}},
			want: []string{"assert f() == 1", "assert f() != 0"}, short: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := p.Generate(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, g.Texts()); diff != "" {
				t.Errorf("texts (-want +got):\n%s", diff)
			}
			if g.Continues != tt.continues || g.Short() != tt.short {
				t.Errorf("continues %q short %v, want %q %v", g.Continues, g.Short(), tt.continues, tt.short)
			}
		})
	}

	t.Run("errors", func(t *testing.T) {
		_, err := p.Generate(context.Background(), llm.Request{Purpose: llm.PurposeTests, Task: llm.Task{ID: "T/9", Prompt: "def z():\n"}})
		if !errors.Is(err, llm.ErrNoSamples) {
			t.Fatalf("err = %v, want ErrNoSamples", err)
		}
		assertOneLine(t, err, "T/9", "tests", dir)
		_, err = p.TopLogprobs(context.Background(), llm.Request{Prompt: "x"}, 2)
		if !errors.Is(err, llm.ErrUnsupported) {
			t.Errorf("TopLogprobs err = %v, want ErrUnsupported", err)
		}
		_, err = p.Embed(context.Background(), []string{"x"})
		if !errors.Is(err, llm.ErrUnsupported) {
			t.Errorf("Embed err = %v, want ErrUnsupported", err)
		}
	})
}

func TestOpenReplayErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{name: "empty dir", want: "holds neither codes.jsonl nor tests.jsonl"},
		{name: "bad json", files: map[string]string{"codes.jsonl": "{\"prompt\": \n"}, want: "codes.jsonl line 1"},
		{name: "unknown row", files: map[string]string{"tests.jsonl": `{"task_id": "a", "answer": "x"}`}, want: "tests.jsonl line 1: want {\"prompt\", \"samples\"}"},
		{name: "bad task id", files: map[string]string{"codes.jsonl": `{"task_id": [1], "completion": "x"}`}, want: "task_id must be a string or a number"},
		{name: "bad test prompts", files: map[string]string{"codes.jsonl": `{"task_id": "a", "completion": "x"}`, "test-prompts.jsonl": `{"task_id": "a"}`},
			want: "test-prompts.jsonl line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				writeFile(t, dir, name, content)
			}
			_, err := llm.OpenReplay(dir, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, llm.ErrBadReplay) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
	missing := filepath.Join(t.TempDir(), "none")
	if _, err := llm.OpenString("replay:"+missing, llm.Options{}); err == nil || !strings.Contains(err.Error(), missing+" does not exist") ||
		!errors.Is(err, llm.ErrBadReplay) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing dir: err = %v, want one that says it does not exist and matches ErrBadReplay and fs.ErrNotExist", err)
	}
}

// TestLiveMatchesReplay checks that a completion-style client talking to a
// server that returns the recorded samples produces the same generations as
// replay: the prompts it renders are exactly the recorded ones.
func TestLiveMatchesReplay(t *testing.T) {
	testutil.ForEachData(t, checkLiveMatchesReplay, recordedFiles...)
}

// checkLiveMatchesReplay compares a live client with replay on the first
// (up to) 20 problems of the recorded samples in d.
func checkLiveMatchesReplay(t *testing.T, d testutil.Data) {
	dir := filepath.Join(d.Dir, filepath.FromSlash(testutil.Recorded))
	byPrompt := readCodeT(t, filepath.Join(dir, "codes.jsonl"))
	for prompt, samples := range readCodeT(t, filepath.Join(dir, "tests.jsonl")) {
		byPrompt[prompt] = samples
	}
	srv := llmtest.New(t, llmtest.Config{Respond: llmtest.Samples(byPrompt)})
	live, _ := clientFor(t, srv, "vllm:codegen-16B-mono", llm.Options{Style: llm.StyleCompletion})
	replay, err := llm.OpenReplay(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	problems := recordedProblems(t, d)
	problems = problems[:min(20, len(problems))]
	for _, prob := range problems {
		for _, purpose := range []llm.Purpose{llm.PurposeCode, llm.PurposeTests} {
			req := llm.Request{Purpose: purpose, Task: llm.TaskFrom(prob), Params: llm.Params{N: 100, Temperature: 0.8, TopP: 0.95}}
			want, err := replay.Generate(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := live.Generate(ctx, req)
			if err != nil {
				t.Fatalf("%s %s: %v", prob.ID, purpose, err)
			}
			if diff := cmp.Diff(want.Texts(), got.Texts()); diff != "" {
				t.Fatalf("%s %s texts (-replay +live):\n%s", prob.ID, purpose, diff)
			}
			if want.Continues != got.Continues || want.Style != got.Style {
				t.Fatalf("%s %s: continues/style differ: %q %s vs %q %s", prob.ID, purpose, want.Continues, want.Style, got.Continues, got.Style)
			}
		}
	}
	if n := srv.Count("completions"); n != 2*len(problems) {
		t.Errorf("%d completions calls, want %d", n, 2*len(problems))
	}
}
