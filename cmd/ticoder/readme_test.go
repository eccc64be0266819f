package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestReadmeSpeaksToUsers: the README refers to nothing of the project's
// own process (issue numbers), and its speed figures for check come from
// BENCHMARKS.md, with the command and the date of the measurement.
func TestReadmeSpeaksToUsers(t *testing.T) {
	root := testutil.RepoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	bench, err := os.ReadFile(filepath.Join(root, "BENCHMARKS.md"))
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`(?i)\bissues? #?\d+`).Find(readme); m != nil {
		t.Errorf("README refers to the project's process: %q", m)
	}
	var para string
	for _, p := range strings.Split(string(readme), "\n\n") {
		if strings.Contains(p, "16,400") {
			para = p
			break
		}
	}
	if para == "" {
		t.Fatal("README gives no figure for checking the 16,400 recorded samples")
	}
	figures := regexp.MustCompile(`\b\d+(\.\d+)? s\b`).FindAllString(para, -1)
	if len(figures) == 0 {
		t.Errorf("README's check paragraph gives no time:\n%s", para)
	}
	for _, f := range figures {
		if !strings.Contains(string(bench), f) {
			t.Errorf("README's figure %q is not in BENCHMARKS.md:\n%s", f, para)
		}
	}
	date := regexp.MustCompile(`measured (\d{4}-\d{2}-\d{2})`).FindStringSubmatch(para)
	if date == nil || !strings.Contains(string(bench), "measured "+date[1]) {
		t.Errorf("README's check paragraph does not give the date BENCHMARKS.md measured it:\n%s", para)
	}
	for _, want := range []string{"BENCHMARKS.md", "ticoder check --dataset humaneval-noexamples"} {
		if !strings.Contains(para, want) {
			t.Errorf("README's check paragraph lacks %q:\n%s", want, para)
		}
	}
}

// TestReadmeDataPaths: every data file an example in the README or in
// docs/*.md reads either comes with `ticoder data fetch` or is listed, with
// where to get it, in the README's table of data that fetch does not
// download.
func TestReadmeDataPaths(t *testing.T) {
	root := testutil.RepoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	all := text
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all += "\n" + string(b)
	}
	const heading = "#### Data that `data fetch` does not download"
	i := strings.Index(text, heading)
	if i < 0 {
		t.Fatalf("README has no section %q", heading)
	}
	table := text[i:]
	if j := strings.Index(table[len(heading):], "\n#"); j >= 0 {
		table = table[:len(heading)+j]
	}
	fetched := map[string]bool{}
	for _, s := range dataset.Downloads() {
		// A file data fetch downloads, and the directories it is in.
		for p := s.File; p != "."; p = filepath.Dir(p) {
			fetched[p] = true
		}
	}
	uses := regexp.MustCompile(`\$TICODER_DATA/([A-Za-z0-9_./-]+)`).FindAllStringSubmatch(all, -1)
	if len(uses) == 0 {
		t.Fatal("no $TICODER_DATA path in the README or docs/")
	}
	for _, m := range uses {
		path := strings.TrimRight(m[1], ".")
		if fetched[path] {
			continue
		}
		dir, file := filepath.Split(path)
		if !strings.Contains(table, "`"+path+"`") && !strings.Contains(table, "`"+file+"`") && !strings.Contains(table, "`"+strings.TrimSuffix(dir, "/")) {
			t.Errorf("an example in the README or docs/ reads $TICODER_DATA/%s, which data fetch does not download and the table does not list", path)
		}
	}
	for _, want := range []string{"cqe/mbpp-codestral-22b.jsonl", "licence"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table of data fetch does not download lacks %q", want)
		}
	}
}

// TestDataFetchHelpSaysWhatItLeavesOut: `data fetch --help` names the data
// the README's examples need that it does not download.
func TestDataFetchHelpSaysWhatItLeavesOut(t *testing.T) {
	long := newDataFetchCommand(&globalOptions{}).Long
	for _, want := range []string{"samples/humaneval-codegen16b/", "codegen16b-codes", "cqe/", "README"} {
		if !strings.Contains(long, want) {
			t.Errorf("data fetch --help lacks %q:\n%s", want, long)
		}
	}
}
