package execute

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/project"
	"github.com/ticoder/ticoder/internal/project/projecttest"
)

// projectPool returns a pool that runs programs as the fixture project's
// shop.pricing, with the project's venv, and the fixture.
func projectPool(t *testing.T) (*Pool, projecttest.Project, string) {
	t.Helper()
	fx := projecttest.ProjectFixture(t)
	ctx := context.Background()
	proj, err := project.Resolve(project.Target{File: filepath.Join(fx.Root, "src/shop/pricing.py"), Name: "apply_discount"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	in, err := project.Inspect(ctx, fx.Python)
	if err != nil {
		t.Fatal(err)
	}
	mod := &Module{Name: proj.Module, File: proj.File, Path: proj.Paths, Fingerprint: proj.Fingerprint(in)}
	pool, err := NewPool(ctx, Options{Workers: 1, Sandbox: proj.Sandbox(in), Module: mod, NoSafePath: in.Version[1] < 11})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	src, err := os.ReadFile(proj.File)
	if err != nil {
		t.Fatal(err)
	}
	return pool, fx, string(src)
}

// hostileProbe is a module-level function a hostile candidate adds: it
// looks for every secret of the fixture, lists .git, walks the project,
// tries to write into the project and the venv, and imports packages that
// only Debian's dist-packages has. It returns what it found or did.
const hostileProbe = `

def probe():
    import importlib.util, os, sys
    root = ROOT
    found = []
    for rel in [".env", ".git", ".git/config", "conf/local.toml", "keys/deploy.pem"]:
        p = os.path.join(root, rel)
        if os.path.lexists(p):
            found.append(("exists", rel))
        try:
            found.append(("read", rel, open(p).read()))
        except OSError:
            pass
        try:
            found.append(("listed", rel, os.listdir(p)))
        except OSError:
            pass
    for d, dirs, files in os.walk(root):
        for name in dirs + files:
            if name.startswith((".env", ".git")) or name.endswith((".pem", "local.toml")):
                found.append(("walked", os.path.join(d, name)))
        for name in files:
            try:
                if "SECRET-MARKER" in open(os.path.join(d, name), errors="replace").read():
                    found.append(("secret", os.path.join(d, name)))
            except OSError:
                pass
    for p in [__file__, os.path.join(root, "evil.py"), os.path.join(root, ".pytest_cache", "x"),
              os.path.join(root, "src", "shop", "__pycache__", "x.pyc"), os.path.join(sys.prefix, "evil.pth"),
              os.path.join(root, "tests", "test_pricing.py")]:
        try:
            with open(p, "a") as f:
                f.write("x")
            found.append(("wrote", p))
        except OSError:
            pass
    try:
        os.mkdir(os.path.join(root, ".ticoder"))
        found.append(("made", ".ticoder"))
    except OSError:
        pass
    for name in ["pyflakes", "yaml", "apt"]:
        try:
            if importlib.util.find_spec(name) is not None:
                found.append(("importable", name))
        except Exception:
            pass
    if any("dist-packages" in p for p in sys.path):
        found.append(("dist-packages on sys.path",))
    return found
`

// TestProjectModule runs candidates as the fixture's shop.pricing: with
// the project's helper module (a relative import), a package of its venv,
// the module's own constants, and the existing tests' view of it.
func TestProjectModule(t *testing.T) {
	pool, _, src := projectPool(t)
	good := strings.Replace(src, "    ...\n", "    if not 0 <= percent <= 100:\n        raise ValueError(percent)\n    return round_cents(price * (100 - percent) / 100)\n", 1)
	job := Job{Programs: []string{good, src}, TimePolicy: Within(5 * time.Second), Tests: []Test{
		{Code: "assert apply_discount(10.0, 15) == 8.5", Input: "apply_discount(10.0, 15)", Expected: "8.5"},
		{Code: "assert label(8.5) == '8.50 EUR'", Input: "label(8.5)", Expected: "'8.50 EUR'"},
		{Code: "assert with_vat(10.0) == 12.0\nassert VAT == 0.2"},
		{Code: "assert __name__ == 'shop.pricing'", Input: "__name__", Expected: "'shop.pricing'"},
		{Code: "assert __import__('sys').modules['shop.pricing'].apply_discount(10.0, 15) == 8.5",
			Input: "__import__('sys').modules['shop.pricing'].apply_discount(10.0, 15)", Expected: "8.5"},
	}}
	m, err := pool.Run(context.Background(), job, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j, r := range m.Results[0] {
		if r.Outcome != Pass {
			t.Errorf("good candidate, test %d: %v %s %s", j, r.Outcome, r.Exception, r.Value)
		}
	}
	if r := m.Results[1][0]; r.Outcome != Fail || r.Value != "None" {
		t.Errorf("the stub on test 0: %v %s %q, want a fail returning None", r.Outcome, r.Exception, r.Value)
	}
}

// TestProjectHostile runs a hostile candidate in the fixture project: it
// finds no secret, no masked name, cannot write into the project or the
// venv, and cannot import what only the system's dist-packages has.
func TestProjectHostile(t *testing.T) {
	pool, fx, src := projectPool(t)
	program := strings.Replace(src, "VAT = 0.2\n", "VAT = 0.2\nROOT = "+pyQuote(fx.Root)+"\n", 1) + hostileProbe
	job := Job{Programs: []string{program}, TimePolicy: Within(10 * time.Second), Tests: []Test{
		{Code: "assert probe() == []", Input: "probe()", Expected: "[]"},
	}}
	m, err := pool.Run(context.Background(), job, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := m.Results[0][0]; r.Outcome != Pass {
		t.Errorf("the hostile candidate found or did: %v %s %s", r.Outcome, r.Exception, r.Value)
	}
	for _, rel := range []string{"evil.py", ".pytest_cache", ".ticoder", "src/shop/__pycache__"} {
		if _, err := os.Lstat(filepath.Join(fx.Root, rel)); err == nil {
			t.Errorf("%s appeared in the project", rel)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(fx.Root, "src/shop/pricing.py")); string(data) != src {
		t.Error("the module changed")
	}
}

// pyQuote returns s as a Python string literal (s has no quotes or
// backslashes).
func pyQuote(s string) string { return `"` + s + `"` }
