package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/project/projecttest"
	"github.com/ticoder/ticoder/internal/testutil"
	"github.com/ticoder/ticoder/internal/testutil/browsertest"
)

// startProjectServe starts `serve --project ROOT --mask 'src/shop/secret_*'`
// with the model at model; it returns the server's URL.
func startProjectServe(t *testing.T, root, model string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	o := &serveOptions{addr: "127.0.0.1:0", ready: func(u string) { ready <- u }}
	o.flags = runDefaults(t).flags
	o.flags.model, o.flags.questions = model, "tests"
	o.proj = projectFlags{project: root, mask: []string{"src/shop/secret_*"}}
	var errw syncBuffer
	done := make(chan error, 1)
	go func() { done <- runServe(ctx, runGlobals(t), o, &errw) }()
	t.Cleanup(func() {
		cancel()
		testutil.Receive(t, done, time.Minute, "serve to stop")
	})
	select {
	case u := <-ready:
		return u
	case err := <-done:
		t.Fatalf("serve stopped: %v\n%s", err, errw.String())
	case <-time.After(time.Minute):
		t.Fatalf("serve did not start in a minute:\n%s", errw.String())
	}
	return ""
}

// TestServeProjectBrowser drives serve --project in chromium: the picker
// lists the project's functions and methods but none of a masked file, a
// symlink, the venv or the tests; a session on apply_discount runs as
// run --spec would, the patch is shown and downloadable, and the project is
// written only when the box is ticked. Files the server did not list are
// refused, whatever the path.
func TestServeProjectBrowser(t *testing.T) {
	fx := projecttest.ProjectFixture(t)
	outside := filepath.Join(filepath.Dir(fx.Root), "outside.py")
	for path, text := range map[string]string{
		outside: "def leaked(x):\n    ...\n",
		filepath.Join(fx.Root, "src/shop/secret_rates.py"): "def secret_rate():\n    ...\n",
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(fx.Root, "src/shop/linked.py")); err != nil {
		t.Fatal(err)
	}
	module := filepath.Join(fx.Root, "src/shop/pricing.py")
	orig, _ := os.ReadFile(module)
	srv := llmtest.New(t, llmtest.Config{Respond: discountModel(nil)})
	url := startProjectServe(t, fx.Root, "vllm:m@"+srv.URL)

	c := api.NewClient(url, nil)
	for _, bad := range []api.CreateSession{
		{File: "../outside.py", Function: "leaked"}, {File: "src/shop/linked.py", Function: "leaked"},
		{File: outside, Function: "leaked"}, {File: "src/shop/secret_rates.py", Function: "secret_rate"},
		{File: "src/shop/pricing.py", Function: "nope"}, {File: "tests/test_pricing.py", Function: "test_with_vat"},
	} {
		if _, err := c.Create(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "not one of the project's functions") {
			t.Errorf("create %v: %v, want refused", bad, err)
		}
	}

	ctx := browsertest.New(t)
	browsertest.Step(t, ctx, "open the page", chromedp.Navigate(url), chromedp.WaitVisible(chromedp.ID("create-project")))
	browsertest.Step(t, ctx, "wait for the picker", chromedp.Poll[chromedp.Void]("document.getElementById('project-function').options.length > 0", chromedp.WithPollingTimeout(60*time.Second)))
	listed := browsertest.Value[string](t, ctx, "[...document.getElementById('project-function').options].map(o => o.textContent).join('\\n')")
	for _, want := range []string{"src/shop/pricing.py::apply_discount", "src/shop/cart.py::Cart.line_total", "src/shop/money.py::round_cents"} {
		if !strings.Contains(listed, want) {
			t.Errorf("the picker lacks %s:\n%s", want, listed)
		}
	}
	for _, bad := range []string{"leaked", "secret", "test_", ".venv", "linked"} {
		if strings.Contains(listed, bad) {
			t.Errorf("the picker lists %q:\n%s", bad, listed)
		}
	}
	idx := browsertest.Value[string](t, ctx, "String(projectFunctions.findIndex(f => f.file === 'src/shop/pricing.py' && f.name === 'apply_discount'))")
	browsertest.Step(t, ctx, "start on apply_discount", chromedp.SetValue(chromedp.ID("project-function"), idx),
		chromedp.Click(chromedp.ID("create-project")), chromedp.WaitVisible(chromedp.ID("question")))
	for i := 0; i < 5 && !browsertest.Value[bool](t, ctx, "state.done"); i++ {
		browsertest.Step(t, ctx, "answer yes", chromedp.Click(chromedp.ID("btn-pass")),
			chromedp.Poll[chromedp.Void]("!document.body.classList.contains('is-busy')", chromedp.WithPollingTimeout(60*time.Second)))
	}
	browsertest.Step(t, ctx, "see the patch", chromedp.WaitVisible(chromedp.ID("patch-panel")),
		chromedp.Poll[chromedp.Void]("document.getElementById('export-patch').textContent.includes('+++ b/src/shop/pricing.py')", chromedp.WithPollingTimeout(60*time.Second)))
	patch := browsertest.Value[string](t, ctx, "document.getElementById('export-patch').textContent")
	if href := browsertest.Value[string](t, ctx, "document.getElementById('dl-patch').getAttribute('href')"); !strings.HasSuffix(href, "download=patch") {
		t.Errorf("patch link %q", href)
	}
	if now, _ := os.ReadFile(module); !bytes.Equal(now, orig) || !strings.Contains(patch, "round_cents(price * (100 - percent) / 100)") {
		t.Fatalf("before writing: module changed %v, patch:\n%s", !bytes.Equal(now, orig), patch)
	}
	if !browsertest.Value[bool](t, ctx, "document.getElementById('btn-write').disabled") {
		t.Error("the write button works without the box ticked")
	}
	browsertest.Step(t, ctx, "write in place", chromedp.Click(chromedp.ID("write-ok")), chromedp.Click(chromedp.ID("btn-write")),
		chromedp.Poll[chromedp.Void]("document.getElementById('write-report').textContent.includes('Wrote')", chromedp.WithPollingTimeout(60*time.Second)))
	if now, _ := os.ReadFile(module); !strings.Contains(string(now), "return round_cents(price * (100 - percent) / 100)") {
		t.Errorf("pricing.py was not written:\n%s", now)
	}
	if tests, _ := os.ReadFile(filepath.Join(fx.Root, "tests/test_pricing.py")); !strings.Contains(string(tests), "def test_apply_discount_1():") {
		t.Errorf("tests/test_pricing.py:\n%s", tests)
	}
	if report := browsertest.Value[string](t, ctx, "document.getElementById('write-report').textContent"); !strings.Contains(report, "all pass") {
		t.Errorf("write report: %s", report)
	}
}
