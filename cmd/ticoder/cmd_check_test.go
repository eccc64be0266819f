package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	dir := t.TempDir()
	path := filepath.Join(dir, "samples.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	g := &globalOptions{dataDir: testutil.Fixtures(t), cachePath: filepath.Join(dir, "cache.db")}
	o := &checkOptions{dataset: "humaneval", samples: path, ks: "1,2", timeout: 2 * time.Second, json: true, quiet: true}
	if set != nil {
		set(o)
	}
	var stdout, stderr bytes.Buffer
	if err := runCheck(context.Background(), g, o, &stdout, &stderr); err != nil {
		return nil, nil, err
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
	return sum, results, nil
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
	if len(results) != len(lines) {
		t.Fatalf("%d per-sample results for %d lines", len(results), len(lines))
	}
	want := map[string]int{"passed": 2, "failed: AssertionError": 1, "timed out": 1, "failed: SyntaxError": 1}
	got := map[string]int{}
	errs := 0
	for _, r := range results {
		res := r["result"].(string)
		if strings.HasPrefix(res, "error: ") {
			errs++
			continue
		}
		got[res]++
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%d results %q, want %d (all: %v)", got[k], k, n, got)
		}
	}
	if errs != 2 {
		t.Errorf("%d error results (unknown task, truncated line), want 2", errs)
	}
	// HumanEval/7 has 6 samples (the truncated line is attributed to it and
	// counts as failing), 2 correct: pass@1 = 2/6.
	if p := sum["pass@1"].(float64); p < 0.3333 || p > 0.3334 {
		t.Errorf("pass@1 = %v, want 1/3", p)
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
