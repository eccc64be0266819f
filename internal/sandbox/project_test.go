package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// worldReadableDir returns a new directory outside /tmp (the sandbox's /tmp
// is its own) that the sandbox's user can read also when the tests run as
// root (whose sandbox is nobody's), removed when the test ends.
func worldReadableDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/var/tmp", "ticoder-test-")
	if err != nil {
		t.Skipf("no directory outside /tmp to show the sandbox: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// TestMasked checks the mask patterns' rules: names anywhere, paths from
// the top, and everything inside a masked directory.
func TestMasked(t *testing.T) {
	mask := append(append([]string(nil), DefaultMask...), "conf/local.toml", "*.secret")
	cases := map[string]bool{
		".git": true, ".git/config": true, "src/.env": true, ".env.production": true, "a/b/server.pem": true,
		"keys/deploy.key": true, "home/.ssh/config": true, "id_rsa.pub": true, "conf/local.toml": true,
		"x/conf/local.toml": false, "src/shop/money.py": false, "environment.py": false, "pyproject.toml": false,
		"deep/a.secret": true, ".gitignore": false, ".envrc": true,
	}
	for rel, want := range cases {
		if got := Masked(mask, rel); got != want {
			t.Errorf("Masked(%q) = %v, want %v", rel, got, want)
		}
	}
	if err := CheckMask([]string{"[a-"}); err == nil {
		t.Error("CheckMask accepted a bad pattern")
	}
}

// TestProjectView shows a project with secrets in the sandbox: its files
// are readable at their own paths, nothing can be written, and no masked
// entry exists inside, not even as a name in a listing or through a link.
func TestProjectView(t *testing.T) {
	dir := worldReadableDir(t)
	files := map[string]string{
		".git/config": "[remote] url = https://token-SECRET@x", ".env": "API_KEY=SECRET",
		"src/pkg/__init__.py": "", "src/pkg/mod.py": "X = 1\n", "src/pkg/server.pem": "SECRET",
		"notes/id_rsa": "SECRET", "notes/readme.txt": "hello", "venv/lib/cacert.pem": "public",
		"data/private.secret": "SECRET",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".env", filepath.Join(dir, "settings")); err != nil {
		t.Fatal(err)
	}
	view := &ProjectView{Dir: dir, Mask: append(append([]string(nil), DefaultMask...), "*.secret"),
		Whole: []string{filepath.Join(dir, "venv")}}
	src := `
import os, sys
root = sys.argv[1]
def show(kind, rel):
    p = os.path.join(root, rel)
    try:
        if kind == "list":
            r = sorted(os.listdir(p))
        elif kind == "read":
            r = open(p).read()
        elif kind == "write":
            open(p, "w").write("x")
            r = "written"
        elif kind == "mkdir":
            os.mkdir(p)
            r = "made"
    except OSError as e:
        r = type(e).__name__
    print("%s %s: %r" % (kind, rel, r))
for rel in ["", "src/pkg", "notes", "venv/lib", "data"]:
    show("list", rel)
for rel in [".env", ".git/config", "src/pkg/mod.py", "src/pkg/server.pem", "notes/id_rsa", "settings", "venv/lib/cacert.pem"]:
    show("read", rel)
for rel in ["new.py", "src/pkg/mod.py", "src/.pytest_cache", "notes/readme.txt"]:
    show("write", rel)
show("mkdir", ".git")
sys.path.insert(0, os.path.join(root, "src"))
import pkg.mod
print("import", pkg.mod.X)
`
	cmd, err := Command(Config{Args: []string{"-I", "-c", src, dir}, Project: view})
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out.String(), errb.String())
	}
	want := []string{
		"list : ['data', 'notes', 'settings', 'src', 'venv']",
		"list src/pkg: ['__init__.py', 'mod.py']",
		"list notes: ['readme.txt']",
		"list venv/lib: ['cacert.pem']",
		"list data: []",
		"read .env: 'FileNotFoundError'", "read .git/config: 'FileNotFoundError'",
		"read src/pkg/mod.py: 'X = 1\\n'", "read src/pkg/server.pem: 'FileNotFoundError'",
		"read notes/id_rsa: 'FileNotFoundError'", "read settings: 'FileNotFoundError'",
		"read venv/lib/cacert.pem: 'public'",
		"import 1",
	}
	got := out.String()
	for _, w := range want {
		if !strings.Contains(got, w+"\n") {
			t.Errorf("output lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "SECRET") || strings.Contains(got, "written") || strings.Contains(got, "made") {
		t.Errorf("a secret was read or something written:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.py")); err == nil {
		t.Error("new.py was written into the project")
	}
}
