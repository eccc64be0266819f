package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/project"
	"github.com/ticoder/ticoder/internal/project/projecttest"
)

// discountModel is a fake model for the fixture project's
// shop.pricing.apply_discount: one right candidate (half-up cents through
// the project's helper), one that does not round, one that rounds down
// (and needs an import the module lacks), and tests that tell them apart.
// onCode, if not nil, runs when the candidates are asked for.
func discountModel(onCode func()) func(c llmtest.Call) llmtest.Reply {
	fence := func(code string) string { return "```python\n" + code + "```\n" }
	return func(c llmtest.Call) llmtest.Reply {
		text := c.Text()
		switch {
		case strings.Contains(text, "Implement the Python function `apply_discount`"):
			if onCode != nil {
				onCode()
			}
			return llmtest.Reply{Texts: []string{
				fence("from .money import round_cents\n\n\ndef apply_discount(price: float, percent: float) -> float:\n" +
					"    if not 0 <= percent <= 100:\n        raise ValueError(percent)\n" +
					"    return round_cents(price * (100 - percent) / 100)\n"),
				fence("def apply_discount(price: float, percent: float) -> float:\n    return price * (100 - percent) / 100\n"),
				fence("import math\n\n\ndef apply_discount(price: float, percent: float) -> float:\n" +
					"    return math.floor(price * (100 - percent)) / 100\n"),
			}}
		case strings.Contains(text, "Write 10 different tests"):
			return llmtest.Reply{Texts: []string{fence("assert apply_discount(10.0, 15) == 8.5\n" +
				"assert apply_discount(9.99, 33) == 6.69\nassert apply_discount(0.05, 50) == 0.03\n")}}
		}
		return llmtest.Reply{Status: http.StatusBadRequest, ErrorMessage: "unexpected request"}
	}
}

// projectRunOptions returns run options for apply_discount in fx, with
// the fake model at url.
func projectRunOptions(t *testing.T, fx projecttest.Project, url string) *runOptions {
	t.Helper()
	o := runDefaults(t)
	o.spec = filepath.Join(fx.Root, "src/shop/pricing.py") + "::apply_discount"
	o.flags.model = "vllm:m@" + url
	o.flags.questions = "tests"
	return o
}

// listing returns the project's files (but the venv) with their sizes.
func listing(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == ".venv" {
			return filepath.SkipDir
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// noSecrets fails if a secret of the fixture is in any of texts.
func noSecrets(t *testing.T, what string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if strings.Contains(s, projecttest.SecretMarker) {
			t.Errorf("a secret reached %s", what)
		}
	}
}

// TestRunProjectOut runs the README's flow on the fixture project with
// --out: it writes the function, a patch that git apply and patch -p1
// apply in the project, and tests that import the real module and pass
// against the patched one with the project's venv; the project is left
// as it was, and no secret reaches the model, the output or the cache.
func TestRunProjectOut(t *testing.T) {
	fx := projecttest.ProjectFixture(t)
	before := listing(t, fx.Root)
	srv := llmtest.New(t, llmtest.Config{Respond: discountModel(nil)})
	o := projectRunOptions(t, fx, srv.URL)
	g := runGlobals(t)
	var out, errw bytes.Buffer
	if err := runRun(context.Background(), g, o, strings.NewReader("y\n\n"), &out, &errw); err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out.String(), errw.String())
	}
	for _, want := range []string{"candidates run as shop.pricing", fx.Python, "apply_discount.patch", "git apply"} {
		if !strings.Contains(out.String()+errw.String(), want) {
			t.Errorf("output lacks %q:\n%s\n%s", want, out.String(), errw.String())
		}
	}
	code, _ := os.ReadFile(filepath.Join(o.out, "apply_discount.py"))
	if !strings.Contains(string(code), "round_cents(price * (100 - percent) / 100)") {
		t.Errorf("apply_discount.py is not the right candidate:\n%s", code)
	}
	if got := listing(t, fx.Root); strings.Join(got, "\n") != strings.Join(before, "\n") {
		t.Errorf("the run changed the project's files:\n%v\nwant\n%v", got, before)
	}
	// The patch applies in a copy of the project's sources; the tests pass
	// there with the venv's python, and fail on the stub.
	work := t.TempDir()
	if err := exec.Command("cp", "-r", filepath.Join(fx.Root, "src"), filepath.Join(fx.Root, "pyproject.toml"), work).Run(); err != nil {
		t.Fatal(err)
	}
	tests := filepath.Join(o.out, "test_apply_discount.py")
	runTests := func() ([]byte, error) {
		cmd := exec.Command(fx.Python, tests)
		cmd.Env = []string{"PYTHONPATH=" + filepath.Join(work, "src"), "PYTHONDONTWRITEBYTECODE=1"}
		return cmd.CombinedOutput()
	}
	if out, err := runTests(); err == nil {
		t.Errorf("the tests pass on the stub:\n%s", out)
	}
	for _, apply := range [][]string{{"patch", "-p1", "--dry-run", "-F0", "-i"}, {"git", "apply", "--check"}, {"git", "apply"}} {
		cmd := exec.Command(apply[0], append(apply[1:], filepath.Join(o.out, "apply_discount.patch"))...)
		cmd.Dir = work
		if out, err := cmd.CombinedOutput(); err != nil || strings.Contains(string(out), "fuzz") {
			t.Fatalf("%s: %v\n%s", strings.Join(apply, " "), err, out)
		}
	}
	if out, err := runTests(); err != nil {
		t.Errorf("the tests fail against the patched module: %v\n%s", err, out)
	}
	var prompts []string
	for _, c := range srv.Calls() {
		prompts = append(prompts, string(c.Body))
	}
	cache, _ := os.ReadFile(g.cachePath)
	noSecrets(t, "the model", prompts...)
	noSecrets(t, "the output", out.String(), errw.String(), string(code))
	noSecrets(t, "the cache", string(cache))
}

// runProjectWrite runs apply_discount's session in fx with --write, the
// fake model answering and the user saying yes, then Enter; it returns
// what run printed on stdout and stderr.
func runProjectWrite(t *testing.T, fx projecttest.Project) (out, errw *bytes.Buffer) {
	t.Helper()
	srv := llmtest.New(t, llmtest.Config{Respond: discountModel(nil)})
	o := projectRunOptions(t, fx, srv.URL)
	o.write, o.out = true, ""
	out, errw = &bytes.Buffer{}, &bytes.Buffer{}
	if err := runRun(context.Background(), runGlobals(t), o, strings.NewReader("y\n\n"), out, errw); err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out.String(), errw.String())
	}
	return out, errw
}

// TestRunProjectWrite runs with --write: the function is replaced in place
// (the rest of the module unchanged but for a new import line), the
// approved tests are appended to tests/test_pricing.py after its bytes,
// and they pass when run once in the sandbox. When the module changes
// while the session runs, nothing is written and run fails saying so.
func TestRunProjectWrite(t *testing.T) {
	fx := projecttest.ProjectFixture(t)
	module := filepath.Join(fx.Root, "src/shop/pricing.py")
	testsFile := filepath.Join(fx.Root, "tests/test_pricing.py")
	orig, _ := os.ReadFile(module)
	origTests, _ := os.ReadFile(testsFile)
	out, errw := runProjectWrite(t, fx)
	got, _ := os.ReadFile(module)
	head, _, _ := strings.Cut(string(orig), "def apply_discount")
	_, tail, _ := strings.Cut(string(orig), "    ...\n")
	_, doc, _ := strings.Cut(head+"def apply_discount", "def apply_discount")
	if !strings.HasPrefix(string(got), head) || !strings.HasSuffix(string(got), tail) ||
		!strings.Contains(string(got), "    8.5\n    \"\"\"\n    if not 0 <= percent <= 100:\n") ||
		!strings.Contains(string(got), "return round_cents(price * (100 - percent) / 100)\n") || doc != "" {
		t.Errorf("the module was not patched in place:\n%s", got)
	}
	tests, _ := os.ReadFile(testsFile)
	if !bytes.HasPrefix(tests, origTests) || !strings.Contains(string(tests), "def test_apply_discount_1():") ||
		!strings.Contains(string(tests), "from shop.pricing import apply_discount") {
		t.Errorf("tests/test_pricing.py:\n%s", tests)
	}
	if !strings.Contains(out.String(), "against the patched project in the sandbox with "+fx.Python) || !strings.Contains(out.String(), "all pass") {
		t.Errorf("the output does not show the tests' run:\n%s", out.String())
	}
	// The module changes while the next session runs: nothing is written.
	if err := os.WriteFile(module, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(testsFile, origTests, 0o644); err != nil {
		t.Fatal(err)
	}
	changed := append(append([]byte(nil), orig...), "\n# edited meanwhile\n"...)
	srv2 := llmtest.New(t, llmtest.Config{Respond: discountModel(func() { _ = os.WriteFile(module, changed, 0o644) })})
	o := projectRunOptions(t, fx, srv2.URL)
	o.write, o.out = true, ""
	out.Reset()
	err := runRun(context.Background(), runGlobals(t), o, strings.NewReader("y\n\n"), out, errw)
	if !errors.Is(err, errFileChanged) || exitCode(err, &bytes.Buffer{}) != exitError {
		t.Errorf("run on a changed module: %v, want errFileChanged and exit 1", err)
	}
	if now, _ := os.ReadFile(module); !bytes.Equal(now, changed) {
		t.Error("the changed module was overwritten")
	}
	if now, _ := os.ReadFile(testsFile); !bytes.Equal(now, origTests) {
		t.Error("the tests were written although the module changed")
	}
}

// otherPythons returns the CPython 3.9, 3.10, 3.12 and 3.13 interpreters
// this machine has (Debian's, /usr/local's or pyenv's real binaries, never
// its shims) that the sandbox can run, by version. (As root, pyenv's under
// /root are not: the sandbox runs as nobody.)
func otherPythons() map[string]string {
	home, _ := os.UserHomeDir()
	found := map[string]string{}
	for _, v := range []string{"3.9", "3.10", "3.12", "3.13"} {
		paths := []string{"/usr/bin/python" + v, "/usr/local/bin/python" + v}
		if home != "" {
			m, _ := filepath.Glob(filepath.Join(home, ".pyenv", "versions", v+".*", "bin", "python"+v))
			paths = append(paths, m...)
		}
		for _, p := range paths {
			if exec.Command(p, "-c", "import venv").Run() == nil && project.CheckRunnable(p) == nil {
				found[v] = p
				break
			}
		}
	}
	return found
}

// TestRunProjectOtherPythons runs the fixture project's session with
// --write on venvs of every other Python 3 the machine has (3.9 is the
// oldest ticoder supports): the candidates run, the right one is written
// and its tests pass in the sandbox with that interpreter.
func TestRunProjectOtherPythons(t *testing.T) {
	pythons := otherPythons()
	if len(pythons) == 0 {
		t.Skip("no Python 3.9, 3.10, 3.12 or 3.13 that the sandbox can run on this machine (/usr/bin, /usr/local/bin, ~/.pyenv/versions readable by every user)")
	}
	for v, python := range pythons {
		t.Run(v, func(t *testing.T) {
			fx := projecttest.ProjectFixtureWith(t, python)
			out, errw := runProjectWrite(t, fx)
			got, _ := os.ReadFile(filepath.Join(fx.Root, "src/shop/pricing.py"))
			if !strings.Contains(string(got), "return round_cents(price * (100 - percent) / 100)\n") {
				t.Errorf("the right candidate was not written:\n%s", got)
			}
			for _, want := range []string{"Python " + v + ".", "against the patched project in the sandbox with " + fx.Python, "all pass"} {
				if !strings.Contains(out.String()+errw.String(), want) {
					t.Errorf("output lacks %q:\n%s\n%s", want, out.String(), errw.String())
				}
			}
		})
	}
}
