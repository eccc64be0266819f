package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
