package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/project/projecttest"
)

// cartModel is a fake model for the fixture project's shop.cart.Cart
// methods. For the static Cart.line_total it answers with the whole class
// (right), the method alone indented as in the class (no rounding), and the
// method at column 0 (rounds down, with an import the module lacks); for
// the instance method Cart.bulk_price, one right and one wrong candidate.
// Tests call the methods' stand-ins, as the prompts ask. prompts, if not
// nil, collects the requests' texts.
func cartModel(prompts *[]string) func(c llmtest.Call) llmtest.Reply {
	fence := func(code string) string { return "```python\n" + code + "```\n" }
	return func(c llmtest.Call) llmtest.Reply {
		text := c.Text()
		if prompts != nil {
			*prompts = append(*prompts, text)
		}
		switch {
		case strings.Contains(text, "Implement the method `line_total` of the Python class `Cart`"):
			return llmtest.Reply{Texts: []string{
				fence("class Cart:\n    @staticmethod\n    def line_total(price: float, quantity: int) -> float:\n" +
					"        if quantity < 0:\n            raise ValueError(quantity)\n        return round_cents(price * quantity)\n"),
				fence("    @staticmethod\n    def line_total(price: float, quantity: int) -> float:\n        return price * quantity\n"),
				fence("import math\n\n\ndef line_total(price: float, quantity: int) -> float:\n" +
					"    return math.floor(price * quantity * 100) / 100\n"),
			}}
		case strings.Contains(text, "method `line_total`") && strings.Contains(text, "Write 10 different tests"):
			return llmtest.Reply{Texts: []string{fence("assert Cart_line_total(2.5, 3) == 7.5\n" +
				"assert Cart_line_total(0.1, 3) == 0.3\nassert Cart_line_total(1.115, 1) == 1.12\n")}}
		case strings.Contains(text, "Implement the method `bulk_price` of the Python class `Cart`"):
			return llmtest.Reply{Texts: []string{
				fence("def bulk_price(self, price: float, quantity: int) -> float:\n" +
					"    total = price * quantity\n    if quantity >= 10:\n        total *= 0.9\n    return round_cents(total)\n"),
				fence("def bulk_price(self, price, quantity):\n    return round_cents(price * quantity)\n"),
			}}
		case strings.Contains(text, "method `bulk_price`") && strings.Contains(text, "Write 10 different tests"):
			return llmtest.Reply{Texts: []string{fence("assert Cart_bulk_price(2.0, 3) == 6.0\nassert Cart_bulk_price(1.0, 10) == 9.0\n")}}
		}
		return llmtest.Reply{Status: http.StatusBadRequest, ErrorMessage: "unexpected request"}
	}
}

// methodRunOptions returns run options for FILE::Class.method of the
// fixture's shop/cart.py with the fake model at url.
func methodRunOptions(t *testing.T, fx projecttest.Project, name, url string) *runOptions {
	t.Helper()
	o := runDefaults(t)
	o.spec = filepath.Join(fx.Root, "src/shop/cart.py") + "::" + name
	o.flags.model = "vllm:m@" + url
	o.flags.questions = "tests"
	return o
}

// TestRunProjectMethodWrite runs --spec cart.py::Cart.line_total --write:
// the model is told it writes a method of Cart and sees the class; the
// right candidate, whichever form the model gave it in, goes into the
// class in place with its decorator, indentation and docstring, the rest
// of the module unchanged; the approved tests call Cart.line_total and
// pass in the sandbox.
func TestRunProjectMethodWrite(t *testing.T) {
	fx := projecttest.ProjectFixture(t)
	module := filepath.Join(fx.Root, "src/shop/cart.py")
	orig, _ := os.ReadFile(module)
	var prompts []string
	srv := llmtest.New(t, llmtest.Config{Respond: cartModel(&prompts)})
	o := methodRunOptions(t, fx, "Cart.line_total", srv.URL)
	o.write, o.out = true, ""
	var out, errw bytes.Buffer
	if err := runRun(context.Background(), runGlobals(t), o, strings.NewReader("y\ny\n\n"), &out, &errw); err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out.String(), errw.String())
	}
	if len(prompts) == 0 || !strings.Contains(prompts[0], "class Cart:") || !strings.Contains(prompts[0], "def line_total(price: float") {
		t.Errorf("the code prompt does not show the class:\n%v", prompts)
	}
	got, _ := os.ReadFile(module)
	head, _, _ := strings.Cut(string(orig), "        raise NotImplementedError\n")
	_, tail, _ := strings.Cut(string(orig), "        raise NotImplementedError\n")
	want := head + "        if quantity < 0:\n            raise ValueError(quantity)\n        return round_cents(price * quantity)\n" + tail
	if string(got) != want {
		t.Errorf("cart.py:\n%s\nwant\n%s", got, want)
	}
	tests, _ := os.ReadFile(filepath.Join(fx.Root, "tests/test_cart.py"))
	if !strings.Contains(string(tests), "from shop.cart import Cart\n") || !strings.Contains(string(tests), "    assert Cart.line_total(") ||
		strings.Contains(string(tests), "Cart_line_total") {
		t.Errorf("tests/test_cart.py:\n%s", tests)
	}
	if !strings.Contains(out.String(), "all pass") {
		t.Errorf("the added tests were not run, or failed:\n%s", out.String())
	}
}

// TestRunProjectMethodOut runs an instance method, Cart.bulk_price, with
// --out: tests call it on Cart(), the patch applies in a copy of the
// project, and the exported tests pass there with the project's venv.
// A method of a class that cannot be made without arguments is refused,
// saying why.
func TestRunProjectMethodOut(t *testing.T) {
	fx := projecttest.ProjectFixture(t)
	srv := llmtest.New(t, llmtest.Config{Respond: cartModel(nil)})
	o := methodRunOptions(t, fx, "Cart.bulk_price", srv.URL)
	var out, errw bytes.Buffer
	if err := runRun(context.Background(), runGlobals(t), o, strings.NewReader("y\ny\n\n"), &out, &errw); err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out.String(), errw.String())
	}
	code, _ := os.ReadFile(filepath.Join(o.out, "bulk_price.py"))
	if !strings.HasPrefix(string(code), "def bulk_price(self, price: float, quantity: int) -> float:\n    \"\"\"Return the price") ||
		!strings.Contains(string(code), "total *= 0.9") {
		t.Errorf("bulk_price.py:\n%s", code)
	}
	tests := filepath.Join(o.out, "test_bulk_price.py")
	text, _ := os.ReadFile(tests)
	if !strings.Contains(string(text), "assert Cart().bulk_price(1.0, 10) == 9.0") {
		t.Errorf("test_bulk_price.py:\n%s", text)
	}
	work := t.TempDir()
	if err := exec.Command("cp", "-r", filepath.Join(fx.Root, "src"), work).Run(); err != nil {
		t.Fatal(err)
	}
	apply := exec.Command("git", "apply", filepath.Join(o.out, "bulk_price.patch"))
	apply.Dir = work
	if b, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s", err, b)
	}
	if patched, _ := os.ReadFile(filepath.Join(work, "src/shop/cart.py")); !strings.Contains(string(patched), "\n        if quantity >= 10:\n            total *= 0.9\n") {
		t.Errorf("the patched method is not indented in its class:\n%s", patched)
	}
	run := exec.Command(fx.Python, tests)
	run.Env = []string{"PYTHONPATH=" + filepath.Join(work, "src"), "PYTHONDONTWRITEBYTECODE=1"}
	if b, err := run.CombinedOutput(); err != nil {
		t.Errorf("the exported tests fail against the patched module: %v\n%s", err, b)
	}

	acct := filepath.Join(fx.Root, "src/shop/account.py")
	src := "class Account:\n    def __init__(self, balance):\n        self.balance = balance\n\n    def withdraw(self, amount):\n        \"\"\"Take amount out.\"\"\"\n        ...\n"
	if err := os.WriteFile(acct, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	o = runDefaults(t)
	o.spec, o.flags.model, o.flags.questions = acct+"::Account.withdraw", "vllm:m@"+srv.URL, "tests"
	err := runRun(context.Background(), runGlobals(t), o, strings.NewReader(""), &out, &errw)
	if !errors.Is(err, interact.ErrBadSource) || !strings.Contains(err.Error(), "requires balance") || exitCode(err, &bytes.Buffer{}) != exitBadInput {
		t.Errorf("a method whose class needs arguments: %v (exit %d), want a bad-source error naming balance", err, exitCode(err, &bytes.Buffer{}))
	}
}

// TestRunProjectResume quits a session on apply_discount after one answer
// and takes it up with --resume --write: in the project, with the
// interpreter the session file recorded, and the function is written in
// place. A session whose module changed meanwhile is refused.
func TestRunProjectResume(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	fx := projecttest.ProjectFixture(t)
	module := filepath.Join(fx.Root, "src/shop/pricing.py")
	srv := llmtest.New(t, llmtest.Config{Respond: discountModel(nil)})
	keep := func() string {
		t.Helper()
		var out, errw bytes.Buffer
		err := runRun(context.Background(), runGlobals(t), projectRunOptions(t, fx, srv.URL), strings.NewReader("y\nq\ny\n"), &out, &errw)
		_, path, ok := strings.Cut(errw.String(), "resume with ticoder run --resume ")
		if !errors.Is(err, errNothingWritten) || !ok {
			t.Fatalf("quit: %v\n%s\n%s", err, out.String(), errw.String())
		}
		return strings.TrimSpace(path)
	}
	path := keep()
	r := runDefaults(t)
	r.resume, r.write, r.out = path, true, ""
	var out, errw bytes.Buffer
	if err := runRun(context.Background(), runGlobals(t), r, strings.NewReader("y\ny\n\n\n"), &out, &errw); err != nil {
		t.Fatalf("resume: %v\n%s\n%s", err, out.String(), errw.String())
	}
	if !strings.Contains(errw.String(), "candidates run as shop.pricing") || !strings.Contains(errw.String(), fx.Python) {
		t.Errorf("the resumed session does not run in the project:\n%s", errw.String())
	}
	if got, _ := os.ReadFile(module); !strings.Contains(string(got), "return round_cents(price * (100 - percent) / 100)") {
		t.Errorf("pricing.py after resuming with --write:\n%s", got)
	}

	path = keep()
	if err := os.WriteFile(module, []byte("# edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runDefaults(t)
	r.resume = path
	err := runRun(context.Background(), runGlobals(t), r, strings.NewReader(""), &out, &errw)
	if !errors.Is(err, errFileChanged) || !strings.Contains(err.Error(), "run --spec") {
		t.Errorf("resume after the module changed: %v, want errFileChanged", err)
	}
}

// TestRunResumeJavaRefused: a kept session on a Java method is refused by
// --resume, saying so (exit 3), not taken for a Python one.
func TestRunResumeJavaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.json")
	data := `{"module":{"java":true,"root":"/p","file":"/p/src/Pricing.java","rel":"src/Pricing.java","name":"Pricing.apply"}}`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	o := runDefaults(t)
	o.resume = path
	var out, errw bytes.Buffer
	err := runRun(context.Background(), runGlobals(t), o, strings.NewReader(""), &out, &errw)
	if !errors.Is(err, interact.ErrBadSource) || !strings.Contains(err.Error(), "Java method") || exitCode(err, &bytes.Buffer{}) != exitBadInput {
		t.Errorf("resume of a Java session: %v, want a bad-source error about the Java method", err)
	}
}
