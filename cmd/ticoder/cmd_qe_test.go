package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/qe/measure"
	"github.com/ticoder/ticoder/internal/qe/qestore"
	"github.com/ticoder/ticoder/internal/testutil"
)

// cqeFile returns a CQE file of the full data. Those files state no
// licence, so no fixture holds their rows: the test skips without them.
func cqeFile(t *testing.T, name string) string {
	t.Helper()
	return filepath.Join(testutil.FullData(t, "cqe/"+name), "cqe", name)
}

// toyCQE writes a CQE file of one made-up problem with a right and a wrong
// solution.
func toyCQE(t *testing.T) string {
	t.Helper()
	row := map[string]any{"task_id": "1", "prompt": "def double(x):\n    \"\"\"Return x doubled.\"\"\"\n",
		"solution": "    return 2 * x\n", "no_of_codes": 2, "results": []int{1, 0},
		"code_1": "def double(x):\n    return x + x", "code_2": "def double(x):\n    return x * x"}
	path := filepath.Join(t.TempDir(), "toy.jsonl")
	if err := os.WriteFile(path, []byte(jsonLine(t, row)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestQEEvalTable(t *testing.T) {
	dir := t.TempDir()
	g := &globalOptions{dataDir: testutil.Fixtures(t), cachePath: filepath.Join(dir, "cache.db")}
	o := &qeEvalOptions{
		qeOptions: qeOptions{estimators: []string{"els", "tls", "knn"}, ks: []string{"2"}, alphas: []string{"ps"},
			embedder: "lexical", weighting: "tfidf", maxSolutions: 10, quiet: true, train: cqeFile(t, "mbpp-codestral-22b.jsonl")},
		test:    cqeFile(t, "heval-codestral-22b.jsonl"),
		devFrac: 0.1, seed: 42, out: filepath.Join(dir, "table.md"),
	}
	var stdout, stderr bytes.Buffer
	if err := runQEEval(context.Background(), g, o, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	md := stdout.String()
	for _, want := range []string{
		"| constant (floor) | n/a | 0.889 | 0.639 | 0.768 |",
		"| els | n/a |", "| tls | n/a |", "| knn FS-PS | 2 |",
		"0.903 | 0.640 |", // the paper's ELS figures beside ours
		"| oracle (ceiling) | n/a | 1.000 | 0.762 | 1.000 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	if b, err := os.ReadFile(o.out); err != nil || string(b) != md {
		t.Errorf("--out file differs from stdout (err %v)", err)
	}

	// The same run as JSON, from the embedding cache this time.
	o.json, o.out = true, ""
	stdout.Reset()
	if err := runQEEval(context.Background(), g, o, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	var rep measure.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout.String())
	}
	if len(rep.Rows) != 3 || rep.TestPairs != 1640 || rep.Constant.Mixed != 87 {
		t.Fatalf("report: %d rows, %d test pairs, %d mixed; want 3, 1640, 87", len(rep.Rows), rep.TestPairs, rep.Constant.Mixed)
	}
	for _, r := range rep.Rows {
		if r.Global <= 0.8 || r.Global > 1 || r.Local <= 0.5 || r.Local > rep.Oracle.Local {
			t.Errorf("%s: G %v L %v out of range", r.Estimator, r.Global, r.Local)
		}
	}
}

func TestQEEvalUsageErrors(t *testing.T) {
	g := &globalOptions{dataDir: testutil.Fixtures(t), cachePath: filepath.Join(t.TempDir(), "cache.db")}
	for _, c := range []struct {
		name string
		o    qeEvalOptions
		msg  string
	}{
		{"knn without train", qeEvalOptions{qeOptions: qeOptions{estimators: []string{"knn"}, ks: []string{"2"}, alphas: []string{"ps"}}, test: "x"}, "need --train"},
		{"icl without model", qeEvalOptions{qeOptions: qeOptions{estimators: []string{"zs"}, ks: []string{"2"}, alphas: []string{"ps"}, embedder: "lexical", weighting: "bm25"}, test: toyCQE(t)}, "--model"},
		{"bad k", qeEvalOptions{qeOptions: qeOptions{estimators: []string{"els"}, ks: []string{"0"}, alphas: []string{"ps"}}, test: "x"}, "--k"},
		{"bad alpha", qeEvalOptions{qeOptions: qeOptions{estimators: []string{"els"}, ks: []string{"1"}, alphas: []string{"2"}}, test: "x"}, "--alpha"},
		{"dev-frac NaN", qeEvalOptions{qeOptions: qeOptions{estimators: []string{"els"}, ks: []string{"1"}, alphas: []string{"ps"}}, test: "x", devFrac: math.NaN()}, "--dev-frac"},
		{"dev-frac 1", qeEvalOptions{qeOptions: qeOptions{estimators: []string{"els"}, ks: []string{"1"}, alphas: []string{"ps"}}, test: "x", devFrac: 1}, "--dev-frac"},
		{"unknown estimator", qeEvalOptions{qeOptions: qeOptions{estimators: []string{"magic"}, ks: []string{"1"}, alphas: []string{"ps"}}, test: "x"}, "known are"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			err := runQEEval(context.Background(), g, &c.o, &out, &out)
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %v, want one mentioning %q", err, c.msg)
			}
			var u usageError
			if !errors.As(err, &u) {
				t.Errorf("error %v is not a usage error", err)
			}
		})
	}
}

func TestQEScoreCheckAndPool(t *testing.T) {
	if testing.Short() {
		t.Skip("starts sandboxed workers")
	}
	dir := t.TempDir()
	g := &globalOptions{dataDir: testutil.Fixtures(t), cachePath: filepath.Join(dir, "cache.db")}
	correct := "    return [x for x in strings if substring in x]\n"
	lines := []string{
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": "    return strings\n"}),
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": correct}),
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": "    return [x for x in strings if x.startswith(substring)]\n"}),
		jsonLine(t, map[string]string{"task_id": "HumanEval/2", "completion": "    return number % 1.0\n"}),
		jsonLine(t, map[string]string{"task_id": "HumanEval/2", "completion": "    return int(number)\n"}),
	}
	path := filepath.Join(dir, "samples.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	got, summary := scoreChecked(t, g, "humaneval", path, time.Second)
	if len(got) != 5 {
		t.Fatalf("%d scored samples, want 5", len(got))
	}
	for _, s := range got {
		if s.Passed == nil {
			t.Fatalf("sample %+v has no label", s)
		}
		// The docstring examples separate right from wrong here.
		if *s.Passed != (s.Rank == 1) {
			t.Errorf("sample %s/%d passed=%v but rank %d", s.TaskID, s.Index, *s.Passed, s.Rank)
		}
	}
	var res map[string]any
	if err := json.Unmarshal(summary, &res); err != nil {
		t.Fatalf("check summary is not JSON: %v\n%s", err, summary)
	}
	if res["top1_pass@1"] != 1.0 || res["raw_pass@1"].(float64) >= 1 {
		t.Errorf("summary %v: want top-1 pass@1 1 and raw pass@1 below 1", res)
	}

	// The same samples labelled into a stored pool.
	po := &qePoolOptions{qeOptions: qeOptions{workers: 2}, samples: path, dataset: "humaneval"}
	var stdout, stderr bytes.Buffer
	if err := runQEPoolAdd(context.Background(), g, po, "he-test", &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if want := "pool he-test: 2 problems, 5 solutions, 2 correct"; !strings.Contains(stdout.String(), want) {
		t.Errorf("pool add said %q, want %q", stdout.String(), want)
	}
	stdout.Reset()
	if err := runQEPoolList(context.Background(), g, false, &stdout); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "he-test") {
		t.Errorf("pool list lacks the pool:\n%s", stdout.String())
	}
}

// headLines copies the first n lines of a file into dir.
func headLines(t *testing.T, src, dir string, n int) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	dst := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(dst, []byte(strings.Join(lines[:n], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestQEEvalJudgeAgainstFakeServer(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, llmtest.Config{Respond: func(c llmtest.Call) llmtest.Reply {
		// A judge that likes short programs.
		if len(c.Text()) < 2500 {
			return llmtest.Reply{Top: []llmtest.Logprob{{Token: "yes", Logprob: -0.1}, {Token: "no", Logprob: -2.4}}}
		}
		return llmtest.Reply{Top: []llmtest.Logprob{{Token: "No", Logprob: -0.2}, {Token: " yes", Logprob: -1.7}}}
	}})
	g := &globalOptions{dataDir: testutil.Fixtures(t), cachePath: filepath.Join(dir, "cache.db")}
	o := &qeEvalOptions{
		qeOptions: qeOptions{estimators: []string{"zs", "icl"}, ks: []string{"1"}, alphas: []string{"ps"},
			embedder: "lexical", weighting: "bm25", model: "vllm:judge@" + srv.URL, style: "chat", maxSolutions: 10, json: true,
			train: headLines(t, cqeFile(t, "mbpp-codestral-22b.jsonl"), dir, 20)},
		test: headLines(t, cqeFile(t, "heval-codestral-22b.jsonl"), dir, 3),
	}
	var stdout, stderr bytes.Buffer
	if err := runQEEval(context.Background(), g, o, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	var rep measure.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout.String())
	}
	if len(rep.Rows) != 2 || rep.Rows[0].Estimator != "zs" || rep.Rows[1].Estimator != "icl" || rep.Rows[1].K != 1 {
		t.Fatalf("rows %+v", rep.Rows)
	}
	// Identical (problem, code) pairs are asked once: the response cache
	// answers the repeats.
	test, err := qestore.LoadCQE(o.test, qestore.CQEOptions{MaxSolutions: 10})
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[string]bool{}
	for _, task := range test.Tasks {
		for _, code := range task.Codes() {
			distinct[task.Prompt+"\x00"+code] = true
		}
	}
	calls := srv.Calls()
	if len(calls) != 2*len(distinct) {
		t.Fatalf("%d judge calls, want one per distinct test pair and estimator (%d)", len(calls), 2*len(distinct))
	}
	for i, c := range calls {
		examples := strings.Count(c.Text(), "Example ")
		if want := map[bool]int{true: 0, false: 2}[i < len(distinct)]; examples != want {
			t.Errorf("call %d has %d examples, want %d (zs first, then icl with k = 1)", i, examples, want)
		}
	}
}

// scoreChecked runs `qe score --check --estimator agree --json` on the
// samples file path of dataset and returns the scored samples it prints
// and its summary (stderr).
func scoreChecked(t *testing.T, g *globalOptions, dataset, path string, timeout time.Duration) ([]scoredSample, []byte) {
	t.Helper()
	o := &qeScoreOptions{
		qeOptions: qeOptions{estimators: []string{"agree"}, ks: []string{"4"}, alphas: []string{"ps"}, embedder: "lexical",
			weighting: "bm25", timeout: timeout, workers: 2, json: true, quiet: true},
		dataset: dataset, samples: path, check: true,
	}
	var stdout, stderr bytes.Buffer
	if err := runQEScore(context.Background(), g, o, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	var got []scoredSample
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		var s scoredSample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	return got, stderr.Bytes()
}
