package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/testutil"
)

// TestCheckMBJP runs `ticoder check --dataset mbjp` on Java samples: a right
// one, a wrong one, one that does not compile, one that exits to end its
// test early (a crash, not a pass) and one that loops.
func TestCheckMBJP(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	line := func(id, completion string) string {
		b, _ := json.Marshal(map[string]string{"task_id": id, "completion": completion})
		return string(b)
	}
	freq := "        HashMap<Integer, Integer> freq = new HashMap<>();\n        for (List<Integer> list : nums) {\n" +
		"            for (int i : list) {\n                freq.put(i, freq.getOrDefault(i, 0) + 1);\n            }\n        }\n        return freq;\n    }\n}"
	lines := []string{
		line("MBJP/40", freq),
		line("MBJP/40", "        return new HashMap<>();\n    }\n}"),
		line("MBJP/40", "        return 1;\n    }\n}"),
		line("MBJP/40", "        System.exit(0);\n        return null;\n    }\n}"),
		line("MBJP/40", "        while (true) { }\n    }\n}"),
	}
	_, results, err := checkFileWith(t, lines, func(o *checkOptions) { o.dataset = "mbjp"; o.ks = "1" })
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		passed bool
		result string
	}{
		{true, "passed"},
		{false, "failed: Exception"},
		{false, ""},
		{false, ""},
		{false, "timed out"},
	}
	if len(results) != len(want) {
		t.Fatalf("%d results, want %d", len(results), len(want))
	}
	for i, w := range want {
		r := results[i]
		if r["passed"] != w.passed || w.result != "" && r["result"] != w.result {
			t.Errorf("sample %d: %v %v, want %v %q", i, r["passed"], r["result"], w.passed, w.result)
		}
	}
}

// TestQEScoreJava ranks Java samples of MBJP with agree (the prompt's
// examples run in the JVM worker) and labels them with --check.
func TestQEScoreJava(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	dir := t.TempDir()
	g := &globalOptions{dataDir: testutil.Fixtures(t), cachePath: filepath.Join(dir, "cache.db")}
	right := "        Set<Integer> a = new TreeSet<>(testTup1);\n        a.retainAll(new HashSet<>(testTup2));\n        return new ArrayList<>(a);\n    }\n}"
	wrong := "        return new ArrayList<>(testTup1);\n    }\n}"
	lines := []string{
		jsonLine(t, map[string]string{"task_id": "MBJP/2", "completion": wrong}),
		jsonLine(t, map[string]string{"task_id": "MBJP/2", "completion": right}),
	}
	path := filepath.Join(dir, "samples.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _ := scoreChecked(t, g, "mbjp", path, 2*time.Second)
	if len(got) != 2 {
		t.Fatalf("%d scored samples, want 2", len(got))
	}
	for _, s := range got {
		if s.Passed == nil || *s.Passed != (s.Index == 1) || *s.Passed != (s.Rank == 1) {
			t.Errorf("sample %+v: want the right one (index 1) passing and ranked first", s)
		}
	}
}
