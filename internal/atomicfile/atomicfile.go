package atomicfile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write writes the file at path (mode 0644) with write, atomically: on any
// error the file is left as it was and no temporary file remains.
func Write(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w (does the directory exist and is it writable?)", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriterSize(tmp, 1<<20)
	if err := write(w); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	for _, step := range []func() error{w.Flush, func() error { return tmp.Chmod(0o644) }, tmp.Sync, tmp.Close} {
		if err := step(); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteJSONL writes one JSON line per row to path (HTML characters not
// escaped), atomically.
func WriteJSONL[T any](path string, rows []T) error {
	return Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, r := range rows {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	})
}
