package server

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/llm"
)

// errorShownJS says what is wrong with the error banner after a failing
// action, or "" when its message is shown whole inside the window, is not
// covered, and is announced (role=alert).
const errorShownJS = `(() => {
  const box = document.getElementById("error"), text = document.getElementById("error-text");
  if (box.hidden || !text.textContent) return "no error is shown";
  if (box.getAttribute("role") !== "alert") return "the error is not announced (role " + box.getAttribute("role") + ")";
  const r = box.getBoundingClientRect(), t = text.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
    return "the error is outside the window: " + [r.left, r.top, r.right, r.bottom].map(Math.round) + " in " + innerWidth + "×" + innerHeight + " scrolled to " + scrollY;
  if (t.height === 0 || t.top < r.top || t.bottom > r.bottom + 1) return "the message is not inside its banner";
  const hit = document.elementFromPoint(t.left + 2, t.top + 2);
  if (!box.contains(hit)) return "the message is covered by " + (hit ? hit.tagName + "#" + hit.id : "nothing");
  return "";
})()`

// uncoveredJS says, for the id of a control, "" when its middle is on the
// screen and not under the error banner (so the user can try again), else
// what hides it.
const uncoveredJS = `((id) => {
  const el = document.getElementById(id), r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (y < 0 || y > innerHeight) return id + " is off the screen";
  const hit = document.elementFromPoint(x, y);
  return el.contains(hit) ? "" : id + " is covered by " + (hit ? hit.tagName + "#" + hit.id : "nothing");
})`

// unreachableModel returns a generator whose model server refuses
// connections (a port just closed), failing at once.
func unreachableModel(t *testing.T, pool extract.Caller) (interact.Generator, string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/v1"
	l.Close()
	prov, err := llm.Open(llm.Spec{Kind: llm.KindVLLM, Model: "m", BaseURL: url}, llm.Options{Retry: llm.Retry{Attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return &interact.ModelGenerator{Provider: prov, Caller: pool}, url
}

// TestBrowserErrorInView makes actions fail where their controls are far
// down the page, at a phone's, a small laptop's and a desktop's width (390,
// 1024, 1440 px): "describe your own function" with a model server that
// cannot be reached, and an Output value that is code (refused), given
// twice. Each time the message must show inside the window, announced and
// uncovered, and the control used must stay uncovered; dismissing the
// message hides it. Screenshots: error-WIDTH-*.png.
func TestBrowserErrorInView(t *testing.T) {
	ctx := newBrowser(t)
	pool := testPool(t)
	gen, url := unreachableModel(t, pool)
	_, hs := serve(t, pool, Options{Model: "m", Builder: &interact.Builder{Runner: pool, Generator: gen}})
	check := func(t *testing.T, width int64, what, control string) {
		t.Helper()
		if bad := value[string](t, ctx, errorShownJS); bad != "" {
			t.Errorf("%s at %d px: %s", what, width, bad)
		}
		if bad := value[string](t, ctx, uncoveredJS+"('"+control+"')"); bad != "" {
			t.Errorf("%s at %d px: %s", what, width, bad)
		}
	}
	errorShown := chromedp.Poll[chromedp.Void]("!document.getElementById('error').hidden", chromedp.WithPollingTimeout(30*time.Second))
	for _, width := range []int64{390, 1024, 1440} {
		w := itoa(width)
		t.Run(w, func(t *testing.T) {
			step(t, ctx, "open the page", chromedp.EmulateViewport(width, 700),
				chromedp.Navigate(hs.URL+"/"), chromedp.WaitVisible(chromedp.ID("own")))
			step(t, ctx, "describe a function with the model unreachable",
				chromedp.Click(chromedp.CSS("#own summary")), chromedp.WaitVisible(chromedp.ID("create-spec")),
				chromedp.Click(chromedp.ID("create-spec")), errorShown)
			msg := value[string](t, ctx, "document.getElementById('error-text').textContent")
			if !strings.Contains(msg, strings.TrimSuffix(url, "/v1")) {
				t.Errorf("the error does not name the model server %s: %q", url, msg)
			}
			if width == 390 && value[float64](t, ctx, "scrollY") == 0 {
				t.Errorf("at 390 px the form is not below the fold: the test shows nothing")
			}
			check(t, width, "the model's error", "create-spec")
			screenshot(t, ctx, "error-"+w+"-own.png")
			step(t, ctx, "dismiss the error", chromedp.Click(chromedp.ID("error-close")),
				chromedp.Poll[chromedp.Void]("document.getElementById('error').hidden && document.body.style.paddingBottom === ''", chromedp.WithPollingTimeout(10*time.Second)))

			step(t, ctx, "start the demo in output mode",
				chromedp.SetValue(chromedp.ID("mode"), "output"),
				chromedp.Click(chromedp.ID("demo-text_match")), chromedp.WaitVisible(chromedp.ID("output-value")))
			for try := range 2 {
				step(t, ctx, "give a value that is code",
					chromedp.SetValue(chromedp.ID("output-value"), "open('/etc/hostname').read()"),
					chromedp.Click(chromedp.ID("btn-output")), errorShown)
				if msg := value[string](t, ctx, "document.getElementById('error-text').textContent"); !strings.Contains(msg, "only literal values") {
					t.Errorf("try %d: the error says %q", try+1, msg)
				}
				check(t, width, "the refused value", "btn-output")
			}
			screenshot(t, ctx, "error-"+w+"-output.png")
			if n := value[int](t, ctx, "state.history.length"); n != 0 {
				t.Errorf("after refused values the page has %d answers", n)
			}
			step(t, ctx, "answer", chromedp.Click(chromedp.ID("btn-pass")),
				chromedp.Poll[chromedp.Void]("state.history.length === 1", chromedp.WithPollingTimeout(30*time.Second)))
			if hidden := value[bool](t, ctx, "document.getElementById('error').hidden"); !hidden {
				t.Errorf("the error stays after an answer that worked")
			}
		})
	}
}
