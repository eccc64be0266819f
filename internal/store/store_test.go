package store

import (
	"path/filepath"
	"testing"
)

func TestOpenUsesWAL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested", "dir", "c.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q (%v), want wal", mode, err)
	}
	var timeout int
	if err := db.QueryRow(`PRAGMA busy_timeout`).Scan(&timeout); err != nil || timeout != 10000 {
		t.Errorf("busy_timeout = %d (%v), want 10000", timeout, err)
	}
	if _, err := Open(""); err == nil {
		t.Error("Open(\"\") succeeded")
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("TICODER_CACHE", "/x/y.db")
	if got := DefaultPath(); got != "/x/y.db" {
		t.Errorf("DefaultPath = %q, want $TICODER_CACHE", got)
	}
}
