package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/check"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/testutil"
)

// checkFile runs `ticoder check` on a samples file written from lines and
// returns the JSON summary and the per-sample results.
func checkFile(t *testing.T, lines []string) (map[string]any, []map[string]any, error) {
	t.Helper()
	return checkFileWith(t, lines, nil)
}

// checkFileWith is checkFile with options changed by set.
func checkFileWith(t *testing.T, lines []string, set func(*checkOptions)) (map[string]any, []map[string]any, error) {
	t.Helper()
	sum, results, _, err := checkFileStderr(t, lines, set)
	return sum, results, err
}

// checkFileStderr is checkFileWith that also returns what went to stderr.
func checkFileStderr(t *testing.T, lines []string, set func(*checkOptions)) (map[string]any, []map[string]any, string, error) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "samples.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	g := &globalOptions{dataDir: testutil.Fixtures(t), cachePath: filepath.Join(dir, "cache.db")}
	o := &checkOptions{dataset: "humaneval", samples: path, ks: "1,2", timeout: 2 * time.Second, json: true, quiet: true,
		out: filepath.Join(dir, "samples_results.jsonl")}
	if set != nil {
		set(o)
	}
	var stdout, stderr bytes.Buffer
	if err := runCheck(context.Background(), g, o, &stdout, &stderr); err != nil {
		return nil, nil, stderr.String(), err
	}
	var sum map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("summary is not JSON: %v\n%s", err, stdout.String())
	}
	f, err := os.Open(filepath.Join(dir, "samples_results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var results []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	return sum, results, stderr.String(), nil
}

func jsonLine(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCheckSamples(t *testing.T) {
	correct := "    return [x for x in strings if substring in x]\n"
	lines := []string{
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": correct}),
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": "    return strings\n"}),
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": "    while True:\n        pass\n"}),
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": "    return [x for x in strings if\n"}), // does not parse
		jsonLine(t, map[string]string{"task_id": "HumanEval/99999", "completion": correct}),                           // unknown task
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "solution": "from typing import List\ndef filter_by_substring(strings: List[str], substring: str) -> List[str]:\n" + correct}),
		`{"task_id": "HumanEval/7", "completion": "    return str`, // truncated last line
	}
	sum, results, err := checkFile(t, lines)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != len(lines)-2 {
		t.Fatalf("%d per-sample results for %d lines, 2 of them not samples", len(results), len(lines))
	}
	want := map[string]int{"passed": 2, "failed: AssertionError": 1, "timed out": 1, "failed: SyntaxError": 1}
	got := map[string]int{}
	for _, r := range results {
		got[r["result"].(string)]++
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%d results %q, want %d (all: %v)", got[k], k, n, got)
		}
	}
	// HumanEval/7 has 5 samples, 2 correct (the truncated line and the
	// unknown task are not samples): pass@1 = 2/5.
	if p := sum["pass@1"].(float64); math.Abs(p-0.4) > 1e-9 {
		t.Errorf("pass@1 = %v, want 2/5", p)
	}
	if n := sum["problems"].(float64); n != 1 {
		t.Errorf("problems = %v, want 1", n)
	}
}

// TestCheckHostileSamples: a wrong sample cannot pass by returning an object
// that equals everything or by writing verdicts to its descriptors; with
// --allow-objects the object's own == decides, as in OpenAI's harness.
func TestCheckHostileSamples(t *testing.T) {
	anything := "    class Any(list):\n        pass\n    class Eq:\n        def __eq__(self, other):\n            return True\n    return Eq()\n"
	forge := "    import os\n    for fd in range(3, 64):\n        try:\n            os.write(fd, b'{\"j\": 0, \"o\": \"pass\"}\\n{\"j\": 0, \"n\": {}}\\n')\n        except OSError:\n            pass\n    os._exit(0)\n"
	lines := []string{
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": anything}),
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": forge}),
	}
	for _, allow := range []bool{false, true} {
		_, results, err := checkFileWith(t, lines, func(o *checkOptions) { o.allowObjects = allow })
		if err != nil {
			t.Fatal(err)
		}
		if len(results) != 2 {
			t.Fatalf("%d results, want 2", len(results))
		}
		obj, forged := results[0]["result"].(string), results[1]["result"].(string)
		if !allow && !strings.Contains(obj, "not plain data") {
			t.Errorf("an object equal to everything: %q, want a failure that says it is not plain data", obj)
		}
		if allow && obj != "passed" {
			t.Errorf("--allow-objects: an object equal to everything: %q, want passed (its == decides)", obj)
		}
		if results[1]["passed"].(bool) {
			t.Errorf("a sample that writes verdicts to its descriptors passed (%q)", forged)
		}
	}
}

func TestCheckBadFiles(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"empty file", nil, "no usable samples"},
		{"only garbage", []string{"not json at all"}, "samples.jsonl:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := checkFile(t, c.lines)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v, want it to mention %q", err, c.want)
			}
		})
	}
}

// TestCheckSkipsLinesThatAreNotSamples: a new user's file of 5 samples and
// 5 lines that are not samples. Those lines are left out of
// pass@k and the results (a problem with no sample is not averaged in at 0),
// reported on stderr with their line numbers, and an error with --strict.
func TestCheckSkipsLinesThatAreNotSamples(t *testing.T) {
	ds, err := dataset.Load(context.Background(), testutil.Fixtures(t), "humaneval")
	if err != nil {
		t.Fatal(err)
	}
	p0, _ := ds.Get("HumanEval/0")
	p2, _ := ds.Get("HumanEval/2")
	sample := func(id, completion string) string {
		return jsonLine(t, map[string]string{"task_id": id, "completion": completion})
	}
	lines := []string{
		sample("HumanEval/0", p0.Reference[len(p0.Prompt):]),
		sample("HumanEval/2", p2.Reference[len(p2.Prompt):]),
		sample("HumanEval/0", "    return True\n"),
		sample("HumanEval/2", "    return 0\n"),
		sample("HumanEval/0", "    return False\n"),
		"not json at all",
		jsonLine(t, map[string]string{"task_id": "HumanEval/53"}),
		sample("HumanEval/9999", "    return 1\n"),
		"\x00\x01\x02\xff binary",
		sample("HumanEval/53", "    return x + y\n")[:30],
	}
	sum, results, stderr, err := checkFileStderr(t, lines, func(o *checkOptions) { o.ks = "1,2,10" })
	if err != nil {
		t.Fatal(err)
	}
	if sum["samples"].(float64) != 5 || sum["problems"].(float64) != 2 || len(results) != 5 {
		t.Errorf("%v samples, %v problems, %d results; want 5, 2, 5", sum["samples"], sum["problems"], len(results))
	}
	// HumanEval/0: 1 of 3 correct, HumanEval/2: 1 of 2.
	if p, want := sum["pass@1"].(float64), (1.0/3+1.0/2)/2; math.Abs(p-want) > 1e-9 {
		t.Errorf("pass@1 = %v, want %v", p, want)
	}
	if _, ok := sum["pass@10"]; ok {
		t.Errorf("pass@10 = %v reported for problems of 2 and 3 samples", sum["pass@10"])
	}
	if sum["skipped_lines"].(float64) != 5 {
		t.Errorf("skipped_lines = %v, want 5", sum["skipped_lines"])
	}
	for _, want := range []string{"5 lines skipped", "samples.jsonl:6: invalid JSON", "samples.jsonl:7: unknown sample format",
		`samples.jsonl:8: unknown task "HumanEval/9999"`, "samples.jsonl:9: invalid JSON", "samples.jsonl:10: invalid JSON (the line is cut off"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	_, _, _, err = checkFileStderr(t, lines, func(o *checkOptions) { o.strict = true })
	if err == nil || !strings.Contains(err.Error(), "5 lines skipped") || !strings.Contains(err.Error(), "samples.jsonl:6:") {
		t.Errorf("--strict: error %v, want one that names the 5 lines", err)
	}
}

// TestCheckLeavesOutLargeK: a 3-sample file reports pass@1, and says that
// pass@10 and pass@100 are left out instead of reporting them as 1.0.
func TestCheckLeavesOutLargeK(t *testing.T) {
	correct := "    return [x for x in strings if substring in x]\n"
	lines := []string{
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": correct}),
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": "    return strings\n"}),
		jsonLine(t, map[string]string{"task_id": "HumanEval/7", "completion": "    return []\n"}),
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "samples.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	g := &globalOptions{dataDir: testutil.Fixtures(t), cachePath: filepath.Join(dir, "cache.db")}
	o := &checkOptions{dataset: "humaneval", samples: path, ks: "1,10,100", timeout: 2 * time.Second, quiet: true, out: filepath.Join(dir, "r.jsonl")}
	var stdout, stderr bytes.Buffer
	if err := runCheck(context.Background(), g, o, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	if !strings.Contains(out, "pass@1    0.3333") || strings.Contains(out, "pass@10 ") || strings.Contains(out, "1.0000") {
		t.Errorf("summary reports pass@k beyond the 3 samples:\n%s", out)
	}
	if !strings.Contains(out, "pass@10, pass@100 left out: a problem has only 3 samples") {
		t.Errorf("summary does not say pass@10 and pass@100 are left out:\n%s", out)
	}
}

// TestCheckResultsLocation: without --out the results go to the working
// directory, not beside the samples (a data directory, often read-only);
// an --out that cannot be written is refused before any sample runs.
func TestCheckResultsLocation(t *testing.T) {
	data := t.TempDir()
	samplesPath := filepath.Join(data, "codes.jsonl")
	line := jsonLine(t, map[string]any{"task_id": "HumanEval/0", "completion": "    return False\n"})
	if err := os.WriteFile(samplesPath, []byte(line+"\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(data, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(data, 0o755) })
	work := t.TempDir()
	t.Chdir(work)
	g := &globalOptions{dataDir: testutil.Fixtures(t), cachePath: filepath.Join(work, "cache.db")}
	run := func(out string) (string, error) {
		var stdout, stderr bytes.Buffer
		o := &checkOptions{dataset: "humaneval", samples: samplesPath, ks: "1", timeout: 2 * time.Second, quiet: true, out: out}
		err := runCheck(context.Background(), g, o, &stdout, &stderr)
		return stdout.String(), err
	}
	stdout, err := run("")
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	if _, err := os.Stat(filepath.Join(work, "codes_results.jsonl")); err != nil {
		t.Errorf("no results in the working directory: %v\n%s", err, stdout)
	}
	if entries, _ := os.ReadDir(data); len(entries) != 1 {
		t.Errorf("check wrote beside the samples: %v", entries)
	}
	if !strings.Contains(stdout, "pass@1") || !strings.Contains(stdout, "1 sample, 1 problem, ") || !strings.Contains(stdout, "codes_results.jsonl") {
		t.Errorf("summary = %q, want pass@1, \"1 sample, 1 problem\" and the results file", stdout)
	}
	for _, c := range []struct {
		out  string
		code int
	}{
		{filepath.Join(work, "no", "such", "dir", "r.jsonl"), exitBadInput},
		{work, exitUsage},
	} {
		stdout, err := run(c.out)
		if err == nil || !strings.Contains(err.Error(), "--out") {
			t.Errorf("--out %s: err = %v, want one that names --out", c.out, err)
		}
		if got := exitClass(err); got != c.code {
			t.Errorf("--out %s: exit status %d, want %d", c.out, got, c.code)
		}
		if stdout != "" {
			t.Errorf("--out %s: ran before refusing (stdout %q)", c.out, stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "no")); err == nil {
		t.Error("--out created directories")
	}
}

// TestSkippedReportLists: the report lists five skipped lines by default
// and every one of them with -v or --strict.
func TestSkippedReportLists(t *testing.T) {
	var skipped []check.Skipped
	for i := 1; i <= 7; i++ {
		skipped = append(skipped, check.Skipped{Line: i, Reason: fmt.Sprintf("reason %d", i)})
	}
	cases := []struct {
		all        bool
		want, lack string
	}{
		{false, "… and 2 more (-v lists them all)", "s.jsonl:6: reason 6"},
		{true, "s.jsonl:7: reason 7", "more"},
	}
	for _, c := range cases {
		got := skippedReport("s.jsonl", skipped, c.all)
		if !strings.Contains(got, "7 lines skipped") || !strings.Contains(got, c.want) || strings.Contains(got, c.lack) {
			t.Errorf("all=%v: report\n%s\nwant %q and not %q", c.all, got, c.want, c.lack)
		}
	}
}

// TestCheckNumericTaskID: a task_id of 0 (a JSON number) is not taken as
// HumanEval/0 silently: check says so, and what to write instead.
func TestCheckNumericTaskID(t *testing.T) {
	for _, tc := range []struct {
		name, line, note string
	}{
		{"number", `{"task_id": 0, "completion": "    return True\n"}`, `0 is HumanEval/0`},
		{"string", `{"task_id": "HumanEval/0", "completion": "    return True\n"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, stderr, err := checkFileStderr(t, []string{tc.line}, nil)
			if err != nil {
				t.Fatal(err)
			}
			has := strings.Contains(stderr, "task_id as a JSON number")
			if has != (tc.note != "") || tc.note != "" && (!strings.Contains(stderr, tc.note) || !strings.Contains(stderr, `"task_id": "HumanEval/0"`)) {
				t.Errorf("stderr %q, want a note: %v (%s)", stderr, tc.note != "", tc.note)
			}
		})
	}
}
