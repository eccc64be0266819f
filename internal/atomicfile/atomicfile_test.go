package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		write   func(io.Writer) error
		wantErr error
		want    string // the file afterwards
	}{
		{"written", func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }, nil, "new\n"},
		{"error keeps the old file", func(w io.Writer) error { io.WriteString(w, "half"); return boom }, boom, "old\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.txt")
			if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := Write(path, tc.write); !errors.Is(err, tc.wantErr) {
				t.Fatalf("Write: %v, want %v", err, tc.wantErr)
			}
			b, err := os.ReadFile(path)
			if err != nil || string(b) != tc.want {
				t.Errorf("file holds %q (%v), want %q", b, err, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("leftover files: %v", entries)
			}
			if st, _ := os.Stat(path); tc.wantErr == nil && st.Mode().Perm() != 0o644 {
				t.Errorf("mode %v, want 0644", st.Mode().Perm())
			}
		})
	}
}

func TestWriteMissingDirectory(t *testing.T) {
	err := Write(filepath.Join(t.TempDir(), "no", "f.txt"), func(io.Writer) error { return nil })
	if err == nil {
		t.Fatal("Write into a missing directory succeeded")
	}
}

func TestWriteJSONL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rows.jsonl")
	rows := []map[string]string{{"a": "<b>"}, {"c": "d"}}
	if err := WriteJSONL(path, rows); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if want := "{\"a\":\"<b>\"}\n{\"c\":\"d\"}\n"; err != nil || string(b) != want {
		t.Errorf("file holds %q (%v), want %q", b, err, want)
	}
}
