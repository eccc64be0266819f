package project

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParseTarget(t *testing.T) {
	cases := []struct {
		spec   string
		ok     bool
		bad    bool
		target Target
	}{
		{"stub.py", false, false, Target{}},
		{"src/shop/pricing.py::apply_discount", true, false, Target{"src/shop/pricing.py", "apply_discount"}},
		{"a.py::Cart.total", true, false, Target{"a.py", "Cart.total"}},
		{"a.py::", true, true, Target{}},
		{"::f", true, true, Target{}},
		{"a.py::a.b.c", true, true, Target{}},
	}
	for _, c := range cases {
		got, ok, err := ParseTarget(c.spec)
		if ok != c.ok || (err != nil) != c.bad || (!c.bad && got != c.target) {
			t.Errorf("ParseTarget(%q) = %v, %v, %v", c.spec, got, ok, err)
		}
	}
}

// TestResolve finds the root, the dotted name and the sys.path entries in
// a src layout, a flat layout and a namespace-package src layout, and
// reads the project's own masks.
func TestResolve(t *testing.T) {
	root, err := os.MkdirTemp("/var/tmp", "ticoder-test-")
	if err != nil {
		t.Skipf("no directory outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	write(t, root, map[string]string{
		"pyproject.toml":       "[project]\nname = \"x\"\n\n[tool.ticoder]\nmask = [\n  \"*.secret\", # keys\n  'conf/local.toml',\n]\n",
		"src/shop/__init__.py": "",
		"src/shop/pricing.py":  "def f(): ...\n",
		"src/ns/sub/mod.py":    "def g(): ...\n",
		"flat/__init__.py":     "",
		"flat/util.py":         "def h(): ...\n",
		"scripts/tool.py":      "def k(): ...\n",
		"src/shop/.env.py":     "",
		"src/shop/data.secret": "",
	})
	root, _ = filepath.EvalSymlinks(root)
	cases := []struct {
		file, module string
		paths        []string
	}{
		{"src/shop/pricing.py", "shop.pricing", []string{root + "/src", root}},
		{"src/ns/sub/mod.py", "ns.sub.mod", []string{root + "/src", root}},
		{"flat/util.py", "flat.util", []string{root}},
		{"scripts/tool.py", "tool", []string{root + "/scripts", root}},
	}
	for _, c := range cases {
		p, err := Resolve(Target{File: filepath.Join(root, c.file), Name: "f"}, "", nil)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if p.Root != root || p.Module != c.module || !reflect.DeepEqual(p.Paths, c.paths) || p.Rel != c.file {
			t.Errorf("%s: root %s module %s paths %v rel %s", c.file, p.Root, p.Module, p.Paths, p.Rel)
		}
		if p.Mask[len(p.Mask)-1] != "conf/local.toml" {
			t.Errorf("masks %v lack the project's own", p.Mask)
		}
	}
	if _, err := Resolve(Target{File: filepath.Join(root, "src/shop/data.secret"), Name: "f"}, "", nil); err == nil {
		t.Error("a masked file was accepted")
	}
	if _, err := Resolve(Target{File: filepath.Join(root, "src/shop/pricing.py"), Name: "f"}, "", []string{"pricing.py"}); err == nil {
		t.Error("a file masked by --mask was accepted")
	}
}

func TestTOMLStrings(t *testing.T) {
	text := "[tool.pytest.ini_options]\ntestpaths = [\"tests\", \"more\"]  \n[tool.ticoder]\nmask = \"x\"\n"
	if got, ok := tomlStrings(text, "tool.pytest.ini_options", "testpaths"); !ok || !reflect.DeepEqual(got, []string{"tests", "more"}) {
		t.Errorf("testpaths = %v, %v", got, ok)
	}
	if got, ok := tomlStrings(text, "tool.ticoder", "mask"); !ok || !reflect.DeepEqual(got, []string{"x"}) {
		t.Errorf("mask = %v, %v", got, ok)
	}
	if _, ok := tomlStrings("[tool.ticoder]\nmask = [1, 2]\n", "tool.ticoder", "mask"); ok {
		t.Error("numbers accepted")
	}
}

// TestCheckRunnable refuses a shim script and accepts the system Python.
func TestCheckRunnable(t *testing.T) {
	shim := filepath.Join(t.TempDir(), "python")
	write(t, filepath.Dir(shim), map[string]string{"python": "#!/usr/bin/env bash\nexec pyenv exec python \"$@\"\n"})
	if err := CheckRunnable(shim); err == nil {
		t.Error("a shim script was accepted")
	}
	if err := CheckRunnable("/nonexistent/python"); err == nil {
		t.Error("a missing interpreter was accepted")
	}
	if err := CheckRunnable("/usr/bin/python3"); err != nil {
		t.Errorf("/usr/bin/python3: %v", err)
	}
}
