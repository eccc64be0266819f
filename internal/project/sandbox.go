package project

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ticoder/ticoder/internal/sandbox"
)

// Sandbox returns the configuration of a sandbox that runs in: the
// interpreter at its own path, exactly its paths (Interpreter.Paths), and
// the project, read-only, without its masked entries. A virtual
// environment inside the project is shown whole (masks are for the
// project's own files; a package may ship a cacert.pem).
func (p *Project) Sandbox(in Interpreter) sandbox.Config {
	view := &sandbox.ProjectView{Dir: p.Root, Mask: p.Mask}
	if in.Prefix != in.BasePrefix && under(filepath.Clean(in.Prefix), p.Root) {
		view.Whole = []string{filepath.Clean(in.Prefix)}
	}
	return sandbox.Config{Python: in.Path, PythonPath: in.Paths(), Project: view}
}

// under reports whether p is inside dir (not dir itself).
func under(p, dir string) bool { return strings.HasPrefix(p, dir+"/") }

// maxFingerprintFiles bounds the files Fingerprint looks at.
const maxFingerprintFiles = 100_000

// Fingerprint returns a hash of what a candidate's results depend on
// besides its own code and tests: the module's name and path, the
// interpreter and its paths, and the name, size and modification time of
// every file the sandbox shows of the project (the virtual environment's
// by its directories' times). Results cached under one fingerprint are not
// reused under another.
func (p *Project) Fingerprint(in Interpreter) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\n", p.Root, p.Rel, p.Module, in.Path, in.VersionString())
	for _, q := range append(in.Paths(), p.Paths...) {
		fmt.Fprintf(h, "path %s %s\n", q, dirStamp(q))
	}
	var whole string
	if in.Prefix != in.BasePrefix {
		whole = filepath.Clean(in.Prefix)
	}
	lines := fileStamps(p.Root, p.Mask, whole)
	for _, l := range lines {
		fmt.Fprintln(h, l)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// fileStamps returns the name (relative to root), size and modification
// time of every file under root but the masked ones and those under
// whole, sorted.
func fileStamps(root string, mask []string, whole string) []string {
	var lines []string
	n := 0
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if path != root && (sandbox.Masked(mask, rel) || path == whole) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if n++; n > maxFingerprintFiles {
			return filepath.SkipAll
		}
		if info, err := d.Info(); err == nil && !d.IsDir() {
			lines = append(lines, fmt.Sprintf("%s %d %d", rel, info.Size(), info.ModTime().UnixNano()))
		}
		return nil
	})
	sort.Strings(lines)
	return lines
}

// dirStamp describes directory dir's entries by name and modification
// time (a package installed or removed changes it).
func dirStamp(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "-"
	}
	h := sha256.New()
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			fmt.Fprintf(h, "%s %d\n", e.Name(), info.ModTime().UnixNano())
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
