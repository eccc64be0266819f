package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	for _, want := range []string{"## pass@1@m — code ranking `passing`, strict", "| discr |", "| infogain |", "PassFail m=2", "Output m=2", "problems: 2"} {
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

	// Other settings run again, beside the old lines.
	o = evalTestOptions(t, out)
	o.maxQuestions = 1
	o.problems = []string{"HumanEval/0"}
	if err := runEval(ctx, g, o); err != nil {
		t.Fatal(err)
	}
	if n := countLines(t, results); n != 3 {
		t.Errorf("after new settings results.jsonl has %d lines, want 3", n)
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
		{"problem", func(o *evalOptions) { o.problems = []string{"HumanEval/999"} }},
		{"prior needing a pool", func(o *evalOptions) { o.rankers = []string{"qe:knn"} }},
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
