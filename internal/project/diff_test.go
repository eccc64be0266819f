package project

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnifiedDiffApplies checks that git apply and patch -p1 apply each
// diff exactly (no fuzz, no offset) and give the new file.
func TestUnifiedDiffApplies(t *testing.T) {
	var long []string
	for i := 0; i < 40; i++ {
		long = append(long, "line "+strings.Repeat("x", i%5)+string(rune('a'+i%26))+"\n")
	}
	base := strings.Join(long, "")
	cases := map[string][2]string{
		"middle":          {base, strings.Replace(base, "line xxc\n", "line NEW\nline NEW2\n", 1)},
		"two places":      {base, "import os\n" + strings.Replace(base, "line xxxxj\n", "changed\n", 1)},
		"end no newline":  {"a\nb\nc", "a\nb\nd"},
		"add newline":     {"a\nb", "a\nb\n"},
		"from empty-ish":  {"x\n", "x\ny\n"},
		"delete at start": {"a\nb\nc\nd\ne\n", "c\nd\ne\n"},
	}
	for name, c := range cases {
		for _, tool := range []string{"git", "patch"} {
			if _, err := exec.LookPath(tool); err != nil {
				continue
			}
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "src/pkg"), 0o755); err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(dir, "src/pkg/m.py")
			if err := os.WriteFile(f, []byte(c[0]), 0o644); err != nil {
				t.Fatal(err)
			}
			d := UnifiedDiff("src/pkg/m.py", c[0], c[1])
			pf := filepath.Join(dir, "x.patch")
			if err := os.WriteFile(pf, []byte(d), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("git", "apply", "--unidiff-zero=false", pf)
			if tool == "patch" {
				cmd = exec.Command("patch", "-p1", "-F0", "-i", pf)
			} else {
				cmd = exec.Command("git", "apply", pf)
			}
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil || strings.Contains(string(out), "fuzz") || strings.Contains(string(out), "offset") {
				t.Errorf("%s: %s: %v\n%s\n%s", name, tool, err, out, d)
				continue
			}
			got, _ := os.ReadFile(f)
			if string(got) != c[1] {
				t.Errorf("%s: %s gave %q, want %q\n%s", name, tool, got, c[1], d)
			}
		}
	}
	if UnifiedDiff("m.py", "a\n", "a\n") != "" {
		t.Error("a diff of equal files")
	}
}
