package testutil

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ticoder/ticoder/internal/execute"
)

// RepoRoot returns the repository's root directory.
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate testutil source file")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Pool starts a sandboxed execution pool of two workers for a test and
// closes it when the test ends. The test binary's TestMain must call
// sandbox.Main.
func Pool(t testing.TB) *execute.Pool {
	t.Helper()
	p, err := execute.NewPool(context.Background(), execute.Options{Workers: 2})
	if err != nil {
		t.Fatalf("NewPool: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// CodeTRows reads a CodeT {prompt, samples} JSONL file (such as the recorded
// generations in the shared data) into a map from prompt to samples.
func CodeTRows(t testing.TB, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var row struct {
			Prompt  string   `json:"prompt"`
			Samples []string `json:"samples"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[row.Prompt] = row.Samples
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}
