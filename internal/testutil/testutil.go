// Package testutil holds helpers shared by ticoder's tests.
package testutil

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// DataDir returns the directory of the shared benchmark data used by tests:
// $TICODER_DATA if set, else ../shared/data beside the repository root. It
// fails the test if the directory does not exist.
func DataDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("TICODER_DATA")
	if dir == "" {
		dir = filepath.Join(RepoRoot(t), "..", "shared", "data")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("shared data directory: %v (set TICODER_DATA)", err)
	}
	return dir
}

// RepoRoot returns the repository's root directory.
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate testutil source file")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}
