package projecttest

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Project is a copy of the fixture project testdata/project with a
// virtual environment of its own.
type Project struct {
	// Root is the copy's directory, outside /tmp (the sandbox's /tmp is its
	// own) and readable by every user (as root, the sandbox is nobody's).
	Root string
	// Python is the venv's interpreter, ROOT/.venv/bin/python.
	Python string
}

// SecretMarker is in every secret of the fixture project.
const SecretMarker = "SECRET-MARKER"

// ProjectFixture copies testdata/project to a new directory under
// /var/tmp, with dot-env and dot-git/ as .env and .git/, and builds its
// virtual environment with /usr/bin/python3 -m venv --without-pip (no
// network), the local package localpkg/shopfmt copied into its
// site-packages. It skips the test when /var/tmp or the venv module is
// unavailable.
func ProjectFixture(t testing.TB) Project {
	t.Helper()
	return ProjectFixtureWith(t, "/usr/bin/python3")
}

// ProjectFixtureWith is ProjectFixture with the venv built by the
// interpreter python (another Python version's, say).
func ProjectFixtureWith(t testing.TB, python string) Project {
	t.Helper()
	p := copyWith(t, filepath.Join("testdata", "project"), python)
	site, err := filepath.Glob(filepath.Join(p.Root, ".venv", "lib", "python3.*", "site-packages"))
	if err != nil || len(site) != 1 {
		t.Fatalf("no site-packages in %s: %v", p.Root, site)
	}
	data, err := os.ReadFile(filepath.Join(p.Root, "localpkg", "shopfmt", "__init__.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(site[0], "shopfmt"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(site[0], "shopfmt", "__init__.py"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("chmod", "-R", "a+rX", p.Root).Run(); err != nil {
		t.Fatal(err)
	}
	return p
}

// Copy copies the project at dir (relative to the repository's root) as
// ProjectFixture does, .venv built the same way, and returns it.
func Copy(t testing.TB, dir string) Project {
	t.Helper()
	return copyWith(t, dir, "/usr/bin/python3")
}

// copyWith is Copy with the venv built by the interpreter python.
func copyWith(t testing.TB, dir, python string) Project {
	t.Helper()
	tmp, root := copyTree(t, dir)
	venv := filepath.Join(root, ".venv")
	if out, err := exec.Command(python, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Skipf("%s -m venv (Debian's python3-venv) failed: %v\n%s", python, err, out)
	}
	if err := exec.Command("chmod", "-R", "a+rX", tmp).Run(); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	return Project{Root: real, Python: filepath.Join(real, ".venv", "bin", "python")}
}

// copyTree copies the directory dir (relative to the repository's root)
// to TMP/shop, TMP a new directory under /var/tmp removed when the test
// ends, with dot-git and dot-env renamed .git and .env; it returns both.
func copyTree(t testing.TB, dir string) (tmp, root string) {
	t.Helper()
	tmp, err := os.MkdirTemp("/var/tmp", "ticoder-project-")
	if err != nil {
		t.Skipf("no directory outside /tmp for the fixture project: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	root = filepath.Join(tmp, "shop")
	src := filepath.Join(repoRoot(t), dir)
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = strings.Replace(strings.Replace(rel, "dot-git", ".git", 1), "dot-env", ".env", 1)
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", dir, err)
	}
	return tmp, root
}

// repoRoot returns the repository's root: the nearest directory above the
// test's working directory with a go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
	}
	t.Fatal("no go.mod above the working directory")
	return ""
}
