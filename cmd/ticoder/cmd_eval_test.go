package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/eval"
	"github.com/ticoder/ticoder/internal/store"
	"github.com/ticoder/ticoder/internal/testutil"
)

func evalTestOptions(t *testing.T, out string) *evalOptions {
	t.Helper()
	return &evalOptions{
		dataset:      "humaneval-noexamples",
		model:        "replay:" + filepath.Join(testutil.Fixtures(t), recorded),
		modes:        []string{"passfail", "output"},
		selectors:    []string{"discr", "infogain"},
		rankers:      []string{"passing"},
		maxQuestions: 2,
		problems:     []string{"HumanEval/0", "HumanEval/53"},
		seed:         1,
		out:          out,
		codes:        20,
		tests:        20,
		style:        "completion",
		temperature:  0.8,
		topP:         0.95,
		jobs:         2,
		stdout:       &bytes.Buffer{},
	}
}

func countLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		n++
	}
	return n
}

func TestEvalReplayResumes(t *testing.T) {
	ctx := context.Background()
	g := genGlobals(t)
	out := filepath.Join(t.TempDir(), "run")
	o := evalTestOptions(t, out)
	if err := runEval(ctx, g, o); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(out, "results.jsonl")
	if n := countLines(t, results); n != 2 {
		t.Fatalf("results.jsonl has %d lines, want 2", n)
	}
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## pass@1@m — code ranking `passing`, strict", "| discr |", "| infogain |", "PassFail m=2", "Output m=2", "problems: 2",
		"the simulated user answers by EvalPlus's corrected reference solutions where they pass the hidden tests, not by the dataset's: HumanEvalPlus.jsonl.gz sha256:"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
	for _, f := range []string{"summary.csv", "summary.json", "pass1_passing_strict.png", "pass1_passing_strict.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if !strings.Contains(o.stdout.(*bytes.Buffer).String(), "pass@1@m") {
		t.Error("the summary was not printed")
	}

	// The same settings resume: nothing is added.
	if err := runEval(ctx, g, evalTestOptions(t, out)); err != nil {
		t.Fatal(err)
	}
	if n := countLines(t, results); n != 2 {
		t.Errorf("after a rerun results.jsonl has %d lines, want 2", n)
	}
	md2, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	strip := func(b []byte) string { // the wall time differs
		var keep []string
		for _, l := range strings.Split(string(b), "\n") {
			if !strings.Contains(l, "wall time") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if strip(md) != strip(md2) {
		t.Error("the resumed summary differs")
	}

	// Other settings are refused: results.jsonl and summary.md stay those
	// of one benchmark.
	o = evalTestOptions(t, out)
	o.maxQuestions = 1
	o.problems = []string{"HumanEval/0"}
	err = runEval(ctx, g, o)
	var u usageError
	if !errors.Is(err, eval.ErrOtherSettings) || !errors.As(err, &u) || !strings.Contains(err.Error(), "max_questions: 2 → 1") {
		t.Errorf("rerun with --max-questions 1: %v, want a usage error that names max_questions: 2 → 1", err)
	}
	if n := countLines(t, results); n != 2 {
		t.Errorf("after refusing new settings results.jsonl has %d lines, want 2", n)
	}
	// Answering by the dataset's own references instead of EvalPlus's is
	// another benchmark too.
	o = evalTestOptions(t, out)
	o.userRef = "dataset"
	if err := runEval(ctx, g, o); !errors.Is(err, eval.ErrOtherSettings) || !strings.Contains(err.Error(), "reference") {
		t.Errorf("rerun with --user-reference dataset: %v, want a refusal that names the reference", err)
	}
	md3, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	if strip(md) != strip(md3) {
		t.Error("refusing new settings changed summary.md")
	}

	// The same settings with one more problem: resumes, and says so.
	o = evalTestOptions(t, out)
	o.problems = append(o.problems, "HumanEval/85")
	var stderr bytes.Buffer
	o.stderr = &stderr
	if err := runEval(ctx, g, o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "resuming: 2 of 3 problems already done") {
		t.Errorf("stderr does not say it resumes:\n%s", stderr.String())
	}
	if n := countLines(t, results); n != 3 {
		t.Errorf("after resuming with one more problem results.jsonl has %d lines, want 3", n)
	}
}

// TestEvalProblemWithoutRecordingGoesOn: a replay that lacks one task
// records that problem as failed and the others are still run and reported.
func TestEvalProblemWithoutRecordingGoesOn(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	o := evalTestOptions(t, out)
	o.problems = []string{"HumanEval/0", "HumanEval/1"} // the fixtures hold no recording of HumanEval/1
	var stderr bytes.Buffer
	o.stderr = &stderr
	err := runEval(context.Background(), genGlobals(t), o)
	var u usageError
	if err == nil || errors.As(err, &u) || !strings.Contains(err.Error(), "1 of 2 problems failed") {
		t.Fatalf("err = %v, want a (non-usage) error saying 1 of 2 problems failed", err)
	}
	if n := countLines(t, filepath.Join(out, "results.jsonl")); n != 1 {
		t.Errorf("results.jsonl has %d lines, want 1 (HumanEval/0)", n)
	}
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"problems: 1;", "FAILED, left out of every figure (a rerun retries it): HumanEval/1: ", "no recorded code for HumanEval/1"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(stderr.String(), "HumanEval/1 failed, left out (the run goes on)") {
		t.Errorf("stderr does not report the failed problem:\n%s", stderr.String())
	}
}

// TestEvalManyFailuresSummarised: when many problems fail, the first few
// are reported as they happen and the rest only in summary.md.
func TestEvalManyFailuresSummarised(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	o := evalTestOptions(t, out)
	o.problems = []string{"HumanEval/0", "HumanEval/1", "HumanEval/3", "HumanEval/7", "HumanEval/38", "HumanEval/115"}
	var stderr bytes.Buffer
	o.stderr = &stderr
	err := runEval(context.Background(), genGlobals(t), o)
	if err == nil || !strings.Contains(err.Error(), "5 of 6 problems failed") {
		t.Fatalf("err = %v, want one saying 5 of 6 problems failed", err)
	}
	if n := strings.Count(stderr.String(), "failed, left out"); n != shownFailures || !strings.Contains(stderr.String(), "further failed problems are listed in summary.md only") {
		t.Errorf("stderr reports %d failures (want %d, then a line for the rest):\n%s", n, shownFailures, stderr.String())
	}
	md, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	if n := strings.Count(string(md), "FAILED"); n != 5 {
		t.Errorf("summary.md lists %d failed problems, want 5:\n%s", n, md)
	}
}

// evalArgs is the command line of a replayed eval of the five problems the
// fixtures hold recordings of.
func evalArgs(t *testing.T, out string) []string {
	t.Helper()
	return []string{
		"--data-dir", testutil.Fixtures(t), "--cache", filepath.Join(t.TempDir(), "cache.db"),
		"eval", "--dataset", "humaneval-noexamples", "--model", "replay:" + filepath.Join(testutil.Fixtures(t), recorded),
		"--style", "completion", "--codes", "20", "--tests", "20", "--max-questions", "2", "--select", "discr",
		"--rank-codes", "passing", "--problems", "HumanEval/0,HumanEval/2,HumanEval/53,HumanEval/85,HumanEval/161", "--out", out,
	}
}

// TestEvalRedirectedStderrIsShort: redirected, an eval of five problems
// writes a few plain lines to stderr, no redraws.
func TestEvalRedirectedStderrIsShort(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runMain(context.Background(), evalArgs(t, filepath.Join(t.TempDir(), "run")), &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d:\n%s", code, stderr.String())
	}
	lines := strings.Count(stderr.String(), "\n")
	if lines > 20 || strings.Contains(stderr.String(), "\r") {
		t.Errorf("stderr has %d lines (want ≤ 20) or carriage returns:\n%q", lines, stderr.String())
	}
	if !strings.Contains(stderr.String(), "eval: done, 5 in") {
		t.Errorf("stderr does not say the five problems are done:\n%s", stderr.String())
	}
}

// TestEvalTerminalShowsBar: on a terminal, eval draws a live bar.
func TestEvalTerminalShowsBar(t *testing.T) {
	term := testutil.OpenTerminal(t, 24, 100)
	var stdout bytes.Buffer
	if code := runMain(context.Background(), evalArgs(t, filepath.Join(t.TempDir(), "run")), &stdout, term.TTY); code != 0 {
		t.Fatalf("exit status %d:\n%s", code, term.Output())
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(term.Output(), "(5/5") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	out := term.Output()
	for _, want := range []string{"\r", "eval", "100%", "(5/5"} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q: %q", want, out)
		}
	}
	if strings.Contains(out, "to do") {
		t.Errorf("terminal output has the plain lines meant for logs: %q", out)
	}
}

func TestEvalUsageErrors(t *testing.T) {
	ctx := context.Background()
	g := genGlobals(t)
	tests := []struct {
		name string
		edit func(o *evalOptions)
	}{
		{"mode", func(o *evalOptions) { o.modes = []string{"verbose"} }},
		{"selector", func(o *evalOptions) { o.selectors = []string{"best"} }},
		{"ranker", func(o *evalOptions) { o.rankers = []string{"passing+knn"} }},
		{"noise", func(o *evalOptions) { o.noise = 2 }},
		{"prior needing a pool", func(o *evalOptions) { o.rankers = []string{"qe:knn"} }},
		{"user reference", func(o *evalOptions) { o.userRef = "evalplus" }},
		{"contracts file", func(o *evalOptions) { o.contracts = filepath.Join(t.TempDir(), "missing.jsonl") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := evalTestOptions(t, filepath.Join(t.TempDir(), "run"))
			tc.edit(o)
			err := runEval(ctx, g, o)
			var u usageError
			if !errors.As(err, &u) {
				t.Errorf("err = %v, want a usage error", err)
			}
		})
	}
}

// TestEvalGenCacheSurvivesRebuild runs eval with one binary, then with a
// different one (the same program with other bytes, as a rebuild gives), on
// one cache: the second run finds the first one's extractions instead of
// adding its own (the key was once the executable's hash).
func TestEvalGenCacheSurvivesRebuild(t *testing.T) {
	dir := t.TempDir()
	bin1 := buildTicoder(t, dir)
	b, err := os.ReadFile(bin1)
	if err != nil {
		t.Fatal(err)
	}
	bin2 := filepath.Join(dir, "ticoder-rebuilt")
	if err := os.WriteFile(bin2, append(b, "rebuilt"...), 0o755); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache.db")
	for i, bin := range []string{bin1, bin2} {
		args := []string{
			"--data-dir", testutil.Fixtures(t), "--cache", cache,
			"eval", "--dataset", "humaneval-noexamples", "--model", "replay:" + filepath.Join(testutil.Fixtures(t), recorded),
			"--style", "completion", "--codes", "20", "--tests", "20", "--max-questions", "1", "--select", "discr",
			"--rank-codes", "passing", "--problems", "HumanEval/0", "--out", filepath.Join(dir, fmt.Sprint("out", i)),
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("run %d: %v\n%s", i+1, err, out)
		}
		db, err := store.Open(cache)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		err = db.QueryRow(`SELECT COUNT(*) FROM eval_generated`).Scan(&n)
		db.Close()
		if err != nil || n != 1 {
			t.Fatalf("after run %d (%s) eval_generated has %d rows (%v), want 1", i+1, filepath.Base(bin), n, err)
		}
	}
}

// TestEvalLeavesOutProblemsWithoutReference: problems without a reference
// solution (some of MBJP's) are not applicable, reported, and not failures.
func TestEvalLeavesOutProblemsWithoutReference(t *testing.T) {
	ps := []dataset.Problem{{ID: "MBJP/1", Reference: "class A {}"}, {ID: "MBJP/2"}, {ID: "MBJP/3", Reference: " \n"}, {ID: "MBJP/4", Reference: "class B {}"}}
	with, without := withReference(ps)
	if len(with) != 2 || with[0].ID != "MBJP/1" || with[1].ID != "MBJP/4" {
		t.Errorf("with a reference: %v, want MBJP/1 and MBJP/4", with)
	}
	if strings.Join(without, " ") != "MBJP/2 MBJP/3" {
		t.Errorf("without: %v, want MBJP/2 MBJP/3", without)
	}
	msg := notApplicable(without, len(ps), noReferenceGiven)
	if !strings.Contains(msg, "2 of 4 problems are not applicable") || !strings.Contains(msg, "MBJP/2, MBJP/3") {
		t.Errorf("message %q", msg)
	}
	many := make([]string, 8)
	for i := range many {
		many[i] = fmt.Sprint("P/", i)
	}
	if msg := notApplicable(many, 10, noReferenceGiven); !strings.Contains(msg, "… (3 more)") {
		t.Errorf("message %q, want the first five and a count", msg)
	}
}

// TestEvalWholeFunctionReplay: a replay built by scripts/cqe-replay.py from
// a CQE file, whose samples are whole functions (as Codestral's are), gives
// eval the functions themselves as candidates: the correct ones pass the
// hidden tests, as `check` would run them.
func TestEvalWholeFunctionReplay(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	rows := []map[string]any{
		{"task_id": "53", "no_of_codes": 3,
			"code_1": "def add(x, y):\n    return x + y",
			"code_2": "def add(x: int, y: int) -> int:\n    \"\"\"Adds.\"\"\"\n    return y + x\n",
			"code_3": "def add(x, y):\n    return x - y"},
		{"task_id": "0", "no_of_codes": 2,
			"code_1": "def has_close_elements(numbers, threshold):\n    return any(abs(a - b) < threshold for i, a in enumerate(numbers) for b in numbers[i + 1:])",
			"code_2": "def has_close_elements(numbers, threshold):\n    return False"},
	}
	replay := cqeReplay(t, dir, rows)
	out := filepath.Join(dir, "run")
	o := evalTestOptions(t, out)
	o.model, o.codes, o.tests, o.style = "replay:"+replay, 3, 0, "chat"
	o.problems = []string{"HumanEval/0", "HumanEval/53"}
	if err := runEval(ctx, genGlobals(t), o); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{"HumanEval/0": {2, 1}, "HumanEval/53": {3, 2}} // samples, correct
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r eval.Result
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if got := [2]int{r.Samples, r.CorrectSamples}; got != want[r.ID] {
			t.Errorf("%s: %d samples, %d correct; want %v", r.ID, r.Samples, r.CorrectSamples, want[r.ID])
		}
		delete(want, r.ID)
	}
	if len(want) > 0 {
		t.Errorf("no results for %v", want)
	}
}

// TestCQEReplayTaskIDs: scripts/cqe-replay.py writes the task ids of the
// dataset eval reads, whether the CQE file numbers its rows ("53", named by
// the file) or names them in another spelling ("MBPP/7" for Mbpp/7).
func TestCQEReplayTaskIDs(t *testing.T) {
	for _, tc := range []struct{ file, id, want string }{
		{"heval-model.jsonl", "53", "HumanEval/53"},
		{"mbpp-model.jsonl", "MBPP/7", "Mbpp/7"},
		{"mbpp-model.jsonl", "7", "Mbpp/7"},
		{"mbjp-model.jsonl", "MBJP/3", "MBJP/3"},
		{"heval-model.jsonl", "HumanEval/4", "HumanEval/4"},
	} {
		t.Run(tc.file+" "+tc.id, func(t *testing.T) {
			dir := t.TempDir()
			row := fmt.Sprintf(`{"task_id": %q, "no_of_codes": 1, "code_1": "def f():\n    return 1"}`, tc.id)
			cqe := filepath.Join(dir, tc.file)
			if err := os.WriteFile(cqe, []byte(row+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			replay := filepath.Join(dir, "replay")
			cmd := exec.Command("/usr/bin/python3", filepath.Join(testutil.RepoRoot(t), "scripts", "cqe-replay.py"), cqe, replay)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("cqe-replay.py: %v\n%s", err, out)
			}
			data, err := os.ReadFile(filepath.Join(replay, "codes.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				TaskID string `json:"task_id"`
			}
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			if got.TaskID != tc.want {
				t.Errorf("task id %q, want %q", got.TaskID, tc.want)
			}
		})
	}
}

// cqeReplay writes rows as a CQE file of HumanEval samples and turns it
// into a replay directory under dir with scripts/cqe-replay.py.
func cqeReplay(t *testing.T, dir string, rows []map[string]any) string {
	t.Helper()
	var b strings.Builder
	for _, r := range rows {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	cqe := filepath.Join(dir, "heval-model.jsonl")
	if err := os.WriteFile(cqe, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	replay := filepath.Join(dir, "replay")
	cmd := exec.Command("/usr/bin/python3", filepath.Join(testutil.RepoRoot(t), "scripts", "cqe-replay.py"), cqe, replay)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cqe-replay.py: %v\n%s", err, out)
	}
	return replay
}
