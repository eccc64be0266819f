package server

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/session"
	"github.com/ticoder/ticoder/internal/testutil/browsertest"
)

// screenshotDir returns where the browser test saves its screenshots:
// $TICODER_SCREENSHOTS, else testdata/screenshots in this package's
// directory (ignored by git).
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TICODER_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join("testdata", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newBrowser starts a headless chromium (see browsertest.New).
func newBrowser(t *testing.T) context.Context { return browsertest.New(t) }

// step runs actions with a time limit (see browsertest.Step).
func step(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	browsertest.Step(t, ctx, what, actions...)
}

// value evaluates a JavaScript expression in the page.
func value[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	return browsertest.Value[T](t, ctx, expr)
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	img, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(screenshotDir(t), name)
	if err := os.WriteFile(path, img, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", path)
}

// consoleLog collects what the page writes to the console, including the
// browser's Content-Security-Policy reports. It is safe for concurrent use.
type consoleLog struct {
	mu   sync.Mutex
	msgs []string
}

// watchConsole starts collecting the console messages of the tab in ctx.
func watchConsole(ctx context.Context) *consoleLog {
	l := &consoleLog{}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			l.mu.Lock()
			l.msgs = append(l.msgs, m.String())
			l.mu.Unlock()
		}
	}()
	return l
}

// matching returns the messages that contain s.
func (l *consoleLog) matching(s string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, m := range l.msgs {
		if strings.Contains(m, s) {
			out = append(out, m)
		}
	}
	return out
}

// TestBrowserDemo completes the text_match demo in a real browser by
// clicking, as a user who knows the intent would, on a server that needs an
// access token, opened with ?token= as ticoder serve prints it. It checks
// that the token is kept in a cookie scripts cannot read and leaves the
// address, that the candidate count shrinks, that a wrong output value and a
// value that is code are reported on the page without losing answers, that
// the export shows the approved tests and downloads, and that the browser
// reported no Content-Security-Policy violation. Screenshots of the start, a
// question and the end are saved (screenshotDir).
func TestBrowserDemo(t *testing.T) {
	ctx := newBrowser(t)
	console := watchConsole(ctx)
	pool := testPool(t)
	// Generated tests only: the user answers by the demo's labels
	// (TestBrowserSynthesized covers the synthesized questions).
	_, hs := serve(t, pool, Options{Token: testToken, Defaults: interact.Options{Questions: session.TestsOnly}})
	p, _ := demo.Get("text_match")

	step(t, ctx, "open the page", chromedp.Navigate(hs.URL+"/?token="+testToken), chromedp.WaitVisible(chromedp.ID("demo-text_match")))
	if got := value[string](t, ctx, "location.search + document.cookie"); got != "" {
		t.Errorf("the token is in the address or readable by scripts: %q", got)
	}
	screenshot(t, ctx, "1-start.png")

	step(t, ctx, "start the demo in output mode",
		chromedp.SetValue(chromedp.ID("mode"), "output"),
		chromedp.Click(chromedp.ID("demo-text_match")),
		chromedp.WaitVisible(chromedp.ID("question")))
	total := value[int](t, ctx, "Number(document.getElementById('remaining-samples').textContent)")
	if total != 19 {
		t.Errorf("page shows %d candidate samples at the start, want 19", total)
	}
	screenshot(t, ctx, "2-question.png")

	remaining := []int{total}
	for n := 0; ; n++ {
		if value[bool](t, ctx, "state.done") {
			break
		}
		if n > len(p.Tests) {
			t.Fatal("more questions than tests")
		}
		test := value[int](t, ctx, "state.question.test")
		button := "btn-pass"
		switch p.TestLabels[test] {
		case demo.Wrong:
			button = "btn-fail"
		case demo.Undefined:
			button = "btn-undefined"
		}
		if n == 1 {
			// A value that is not Python: the page says so, nothing is lost.
			step(t, ctx, "give a broken value",
				chromedp.SendKeys(chromedp.ID("output-value"), "[1, 2"),
				chromedp.Click(chromedp.ID("btn-output")),
				chromedp.WaitVisible(chromedp.ID("error")))
			msg := value[string](t, ctx, "document.getElementById('error-text').textContent")
			if !strings.Contains(msg, "not valid Python") || !strings.Contains(msg, "never closed") {
				t.Errorf("error shown: %q", msg)
			}
			screenshot(t, ctx, "3-error.png")
			// A value that is code: refused, not run.
			step(t, ctx, "give a value that is code",
				chromedp.SetValue(chromedp.ID("output-value"), "open('/etc/hostname').read()"),
				chromedp.Click(chromedp.ID("btn-output")),
				chromedp.Poll[chromedp.Void]("document.getElementById('error-text').textContent.includes('only literal values')",
					chromedp.WithPollingTimeout(30*time.Second)))
			if got := value[int](t, ctx, "state.history.length"); got != n {
				t.Errorf("after the refused values the page has %d answers, want %d", got, n)
			}
		}
		step(t, ctx, "answer question "+string(rune('1'+n)),
			chromedp.Click(chromedp.ID(button)),
			chromedp.Poll[chromedp.Void]("state.history.length === "+itoa(int64(n+1)), chromedp.WithPollingTimeout(30*time.Second)))
		remaining = append(remaining, value[int](t, ctx, "state.remaining.samples"))
	}
	if last := remaining[len(remaining)-1]; last >= total {
		t.Errorf("candidate samples did not shrink: %v", remaining)
	}
	for i := 1; i < len(remaining); i++ {
		if remaining[i] > remaining[i-1] {
			t.Errorf("candidate samples grew: %v", remaining)
		}
	}
	step(t, ctx, "final view", chromedp.WaitVisible(chromedp.ID("final")),
		chromedp.Poll[chromedp.Void]("document.getElementById('check').textContent.length > 0", chromedp.WithPollingTimeout(30*time.Second)))
	tests := value[string](t, ctx, "document.getElementById('export-tests').textContent")
	approved := value[[]string](t, ctx, "state.history.filter(h => h.verdict === 'pass').map(h => h.code)")
	if len(approved) == 0 {
		t.Error("no test was approved")
	}
	for _, code := range approved {
		if !strings.Contains(tests, code) {
			t.Errorf("export lacks approved test %q:\n%s", code, tests)
		}
	}
	check := value[string](t, ctx, "document.getElementById('check').textContent")
	if !strings.Contains(check, "pass against this code") {
		t.Errorf("check line: %q", check)
	}
	code := value[string](t, ctx, "document.getElementById('export-code').textContent")
	idx := value[int](t, ctx, "state.candidates[0].index")
	if p.CandidateLabels[idx] != demo.Correct || !strings.Contains(code, "def text_match") {
		t.Errorf("exported candidate %d (%s):\n%s", idx, p.CandidateLabels[idx], code)
	}
	dl, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		"fetch(document.getElementById('dl-tests').href).then(r => r.status + ' ' + r.headers.get('content-disposition'))",
		chromedp.EvalAwaitPromise))
	if err != nil || dl != "200 attachment; filename=test_text_match.py" {
		t.Errorf("download of the tests: %q, %v", dl, err)
	}
	screenshot(t, ctx, "4-end.png")

	// A reload resumes the session from the URL.
	step(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("final")))
	// A fallback says why it ranks last, as in the terminal.
	fb := value[string](t, ctx, `(() => { const el = document.createElement("ol");
		renderCandidates(el, [{rank: 1, index: 0, samples: 2, programs: 1, program: "def f(): pass"},
			{rank: 2, index: 1, samples: 1, programs: 1, program: "def f(): pass", crashes: 2}], false);
		return el.querySelectorAll(".cand-head")[1].textContent; })()`)
	if fb != "#2 1 sample — fallback, crashes on 2 answered inputs" {
		t.Errorf("a fallback's head says %q", fb)
	}
	if v := console.matching("Content Security Policy"); len(v) > 0 {
		t.Errorf("Content-Security-Policy violations:\n%s", strings.Join(v, "\n"))
	}
}

// TestBrowserCrossSite attacks a server without a token from a real
// browser: a page of another site (localhost on another port) sends a
// text/plain POST that needs no CORS preflight, and a page reached under an
// attacker's host name that resolves to this computer (DNS rebinding) asks
// for the page and the API. Each is refused and no session is created.
func TestBrowserCrossSite(t *testing.T) {
	ctx := newBrowser(t)
	s, hs := serve(t, testPool(t), Options{})
	_, port, _ := net.SplitHostPort(hs.Listener.Addr().String())
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!doctype html><title>evil</title>"))
	}))
	t.Cleanup(evil.Close)
	_, evilPort, _ := net.SplitHostPort(evil.Listener.Addr().String())

	step(t, ctx, "open another site's page", chromedp.Navigate("http://localhost:"+evilPort+"/"))
	for _, mode := range []string{"no-cors", "cors"} {
		attack := "fetch('" + hs.URL + "/api/sessions', {method: 'POST', mode: '" + mode + "', " +
			"headers: {'Content-Type': 'text/plain'}, body: JSON.stringify({demo: 'median'})})" +
			".then(r => 'sent ' + r.type, e => 'failed ' + e)"
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](attack, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s attack: %v", mode, err)
		}
		t.Logf("%s POST from another site: %s", mode, got)
	}
	if n := sessionCount(t, s); n != 0 {
		t.Errorf("another site's page created %d sessions", n)
	}

	rebound := "http://rebind.test:" + port
	step(t, ctx, "open the server under a rebound name", chromedp.Navigate(rebound+"/"))
	if body := value[string](t, ctx, "document.body.textContent"); !strings.Contains(body, "DNS rebinding") {
		t.Errorf("page under a rebound name: %q", body)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		"fetch('/api/sessions', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({demo: 'median'})})"+
			".then(r => r.status + ' ' + r.statusText)", chromedp.EvalAwaitPromise))
	if err != nil || !strings.HasPrefix(got, "403") {
		t.Errorf("same-origin POST under a rebound name: %q, %v", got, err)
	}
	if n := sessionCount(t, s); n != 0 {
		t.Errorf("a rebound page created %d sessions", n)
	}
}

// contrastJS lists the visible text on the page whose WCAG contrast with
// its background is under 4.5:1: the element's computed colour (times the
// opacity of it and its ancestors) over the nearest opaque background
// behind it. Disabled controls are exempt, as WCAG says.
const contrastJS = `(() => {
  const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return [0, 0, 0, 1];
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const blend = (fg, bg) => { const a = fg[3]; return [fg[0] * a + bg[0] * (1 - a), fg[1] * a + bg[1] * (1 - a), fg[2] * a + bg[2] * (1 - a), 1]; };
  const background = (el) => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    let bg = [255, 255, 255, 1]; for (let i = layers.length - 1; i >= 0; i--) bg = blend(layers[i], bg); return bg; };
  const opacity = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o; };
  const bad = [];
  for (const el of document.querySelectorAll("body *")) {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (!el.getClientRects().length || el.closest("[hidden], .visually-hidden, :disabled")) continue;
    const st = getComputedStyle(el);
    if (st.visibility === "hidden") continue;
    const bg = background(el), fg = parse(st.color);
    const c = blend([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
    const l1 = lum(c), l2 = lum(bg), ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    if (ratio < 4.5) bad.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className ? "." + el.className : "") +
      " " + JSON.stringify(el.textContent.trim().slice(0, 30)) + ": " + ratio.toFixed(2) + ":1");
  }
  return bad;
})()`

// layoutJS describes what does not fit a viewport: a page that scrolls
// sideways, an answer button outside the screen, code that wraps (and so
// loses its indentation), a control or a scrolling code box that the
// keyboard cannot reach, and, when fit is set, a task stub that scrolls.
const layoutJS = `((fit) => {
  const bad = [];
  const de = document.documentElement;
  if (de.scrollWidth > innerWidth) bad.push("the page scrolls sideways: " + de.scrollWidth + " > " + innerWidth);
  for (const id of ["btn-pass", "btn-fail", "btn-undefined", "btn-undo", "btn-stop", "dl-code", "dl-tests", "btn-undo-final", "btn-new"]) {
    const el = document.getElementById(id);
    if (!el || !el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    if (r.left < 0 || r.right > innerWidth) bad.push(id + " is outside the screen: " + r.left + ".." + r.right + " of " + innerWidth);
  }
  for (const pre of document.querySelectorAll("pre.code")) {
    if (!pre.getClientRects().length) continue;
    const ws = getComputedStyle(pre).whiteSpace;
    if (ws !== "pre") bad.push((pre.id || pre.parentElement.tagName) + " has white-space " + ws + ", so code would wrap to column 0");
  }
  for (const el of document.querySelectorAll("button, a, summary, select, input, textarea, pre")) {
    if (!el.getClientRects().length || el.closest("[hidden]") || el.disabled) continue;
    const scrolls = el.tagName === "PRE" && el.scrollWidth > el.clientWidth;
    if ((el.tagName !== "PRE" || scrolls) && el.tabIndex < 0) bad.push((el.id || el.tagName) + " cannot be reached by keyboard");
  }
  const stub = document.getElementById("task-stub");
  if (fit && stub.getClientRects().length && stub.scrollWidth > stub.clientWidth) bad.push("the task's stub is clipped: " + stub.scrollWidth + " > " + stub.clientWidth);
  return bad;
})`

// TestBrowserLayout opens the question and the final page at a phone's, a
// small laptop's and a desktop's width (390, 1024, 1440 px) and checks that
// the page never scrolls sideways, the answer buttons are on the screen,
// code keeps its indentation (it scrolls inside its box), the stub fits
// from 1024 px, and all text has a contrast of at least 4.5:1. It answers
// by keyboard and checks that the aria-live region announces the next
// question, and then the result. Screenshots: layout-WIDTH-*.png.
func TestBrowserLayout(t *testing.T) {
	ctx := newBrowser(t)
	console := watchConsole(ctx)
	_, hs := serve(t, testPool(t), Options{})
	for _, width := range []int64{390, 1024, 1440} {
		w := itoa(width)
		step(t, ctx, "open the page at "+w+" px", chromedp.EmulateViewport(width, 900),
			chromedp.Navigate(hs.URL+"/"), chromedp.WaitVisible(chromedp.ID("demo-text_match")))
		if bad := value[[]string](t, ctx, layoutJS+"(false)"); len(bad) > 0 {
			t.Errorf("start page at %s px:\n%s", w, strings.Join(bad, "\n"))
		}
		if bad := value[[]string](t, ctx, contrastJS); len(bad) > 0 {
			t.Errorf("text under 4.5:1 on the start page at %s px:\n%s", w, strings.Join(bad, "\n"))
		}
		step(t, ctx, "start the demo", chromedp.Click(chromedp.ID("demo-text_match")), chromedp.WaitVisible(chromedp.ID("question")))
		if bad := value[[]string](t, ctx, layoutJS+"("+boolJS(width >= 1024)+")"); len(bad) > 0 {
			t.Errorf("question at %s px:\n%s", w, strings.Join(bad, "\n"))
		}
		if bad := value[[]string](t, ctx, contrastJS); len(bad) > 0 {
			t.Errorf("text under 4.5:1 on the question page at %s px:\n%s", w, strings.Join(bad, "\n"))
		}
		said := value[string](t, ctx, "document.getElementById('announce').textContent")
		if live := value[string](t, ctx, "document.getElementById('announce').getAttribute('aria-live')"); live != "polite" || !strings.Contains(said, "Question 1") {
			t.Errorf("live region (aria-live %q) says %q, want the first question", live, said)
		}
		screenshot(t, ctx, "layout-"+w+"-question.png")
		step(t, ctx, "answer by keyboard", chromedp.KeyEvent("y"),
			chromedp.Poll[chromedp.Void]("state.history.length === 1", chromedp.WithPollingTimeout(30*time.Second)))
		if got := value[string](t, ctx, "document.getElementById('announce').textContent"); got == said || !strings.Contains(got, "Answer 1: yes") || !strings.Contains(got, "Question 2") {
			t.Errorf("after an answer the live region says %q (before: %q)", got, said)
		}
		step(t, ctx, "finish by keyboard", chromedp.KeyEvent("q"), chromedp.WaitVisible(chromedp.ID("final")),
			chromedp.Poll[chromedp.Void]("document.getElementById('check').textContent.length > 0", chromedp.WithPollingTimeout(30*time.Second)))
		if bad := value[[]string](t, ctx, layoutJS+"(false)"); len(bad) > 0 {
			t.Errorf("final page at %s px:\n%s", w, strings.Join(bad, "\n"))
		}
		if bad := value[[]string](t, ctx, contrastJS); len(bad) > 0 {
			t.Errorf("text under 4.5:1 on the final page at %s px:\n%s", w, strings.Join(bad, "\n"))
		}
		if got := value[string](t, ctx, "document.getElementById('announce').textContent"); !strings.HasPrefix(got, "Done:") {
			t.Errorf("at the end the live region says %q", got)
		}
		if got := value[string](t, ctx, "document.querySelector('#final-history .verdict').textContent"); got != "yes" {
			t.Errorf("the history says %q for a yes", got)
		}
		screenshot(t, ctx, "layout-"+w+"-final.png")
	}
	// Ties are said as in the terminal: "=1 … (tied)".
	ties := value[[]string](t, ctx, "(() => { const c = [{rank: 1}, {rank: 1}, {rank: 3}]; return [0, 1, 2].map((i) => rankLabel(c, i)); })()")
	if strings.Join(ties, " ") != "=1 =1 #3" {
		t.Errorf("ranks 1, 1, 3 are labelled %v, want =1 =1 #3", ties)
	}
	if v := console.matching("Content Security Policy"); len(v) > 0 {
		t.Errorf("Content-Security-Policy violations:\n%s", strings.Join(v, "\n"))
	}
}

func boolJS(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
