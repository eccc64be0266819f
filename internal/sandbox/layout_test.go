package sandbox

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestPythonLayout(t *testing.T) {
	if _, err := os.Stat(DefaultPython); err != nil {
		t.Skipf("no %s: %v", DefaultPython, err)
	}
	l, err := pythonLayout(DefaultPython)
	if err != nil {
		t.Fatal(err)
	}
	all := append(append([]string{}, l.dirs...), l.files...)
	if !slices.Contains(l.files, DefaultPython) {
		t.Errorf("files %v lack %s", l.files, DefaultPython)
	}
	hasStdlib := false
	for _, d := range l.dirs {
		if _, err := os.Stat(filepath.Join(d, "os.py")); err == nil {
			hasStdlib = true
		}
	}
	if !hasStdlib {
		t.Errorf("no standard library among %v", l.dirs)
	}
	for _, p := range all {
		for _, banned := range []string{"/", "/usr", "/etc", "/usr/lib", "/usr/share", "/usr/bin", "/usr/local", "/lib"} {
			if realPath(p) == banned || strings.HasPrefix(realPath(p), "/usr/local/") {
				t.Errorf("layout shows %s (%s)", p, realPath(p))
			}
		}
	}
	if _, ok := l.etc["passwd"]; !ok {
		t.Errorf("no generated /etc/passwd")
	}
}

func TestPythonLayoutErrors(t *testing.T) {
	dir := t.TempDir()
	copied := filepath.Join(dir, "bin", "python3.11")
	if src, err := os.Open(DefaultPython); err == nil {
		defer src.Close()
		if err := os.MkdirAll(filepath.Dir(copied), 0o755); err != nil {
			t.Fatal(err)
		}
		dst, err := os.Create(copied)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(dst, src); err != nil {
			t.Fatal(err)
		}
		dst.Close()
	}
	cases := []struct {
		name, python, want string
	}{
		{"relative", "python3", "not an absolute path"},
		{"missing", "/nonexistent/python3", "/nonexistent/python3"},
		{"not ELF", "/etc/hostname", "/etc/hostname"},
		{"no standard library", copied, "standard library (os.py) not found in " + dir},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := os.Stat(c.python); err != nil && c.name != "missing" && c.name != "relative" {
				t.Skip(err)
			}
			_, err := pythonLayout(c.python)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestCheckLibraries(t *testing.T) {
	err := checkLibraries("/usr/bin/python3", "", []string{"libnope.so.9"}, []string{t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "libnope.so.9") {
		t.Errorf("error %v, want one naming libnope.so.9", err)
	}
	err = checkLibraries("/usr/bin/python3", "/nonexistent/ld.so", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/ld.so") {
		t.Errorf("error %v, want one naming the loader", err)
	}
}

func TestAlternatives(t *testing.T) {
	dir := t.TempDir()
	for name, target := range map[string]string{
		"libblas.so.3": "/etc/alternatives/libblas.so.3-x86_64-linux-gnu",
		"libz.so.1":    "libz.so.1.2.13",
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	got := alternatives([]string{dir, dir})
	want := []string{filepath.Join(dir, "libblas.so.3")}
	if !slices.Equal(got, want) {
		t.Errorf("alternatives = %v, want %v", got, want)
	}
}

// TestMissingInterpreterReported checks that a sandbox whose interpreter
// cannot be shown fails with a message naming what is missing.
func TestMissingInterpreterReported(t *testing.T) {
	cmd, err := Command(Config{Python: "/nonexistent/python3.11", Args: []string{"-c", "pass"}})
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatal("a sandbox without its interpreter ran")
	}
	if !strings.Contains(stderr.String(), "/nonexistent/python3.11") {
		t.Errorf("stderr does not name the interpreter: %s", stderr.String())
	}
}
