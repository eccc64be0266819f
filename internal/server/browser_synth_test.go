package server

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ticoder/ticoder/internal/demo"
)

// TestBrowserSynthesized completes the digit_sum demo in a real browser, on
// a server with its default settings. digit_sum's tests never try a
// negative number, so they leave three hidden bugs with the correct
// candidates; the page must ask at least one synthesized question (an input
// no test tries, showing the value the best-ranked candidate returns),
// which the user answers as the reference behaves, and end with correct
// code whose exported tests hold the approved synthesized question.
func TestBrowserSynthesized(t *testing.T) {
	ctx := newBrowser(t)
	console := watchConsole(ctx)
	pool := testPool(t)
	_, hs := serve(t, pool, Options{Token: testToken})
	p, _ := demo.Get("digit_sum")

	step(t, ctx, "open the page", chromedp.Navigate(hs.URL+"/?token="+testToken), chromedp.WaitVisible(chromedp.ID("demo-digit_sum")))
	step(t, ctx, "start the demo",
		chromedp.Click(chromedp.ID("demo-digit_sum")),
		chromedp.WaitVisible(chromedp.ID("question")))
	var synthesized []string
	for n := 0; !value[bool](t, ctx, "state.done"); n++ {
		if n > 2*len(p.Tests) {
			t.Fatal("more questions than the pool holds")
		}
		button := "btn-pass"
		if value[bool](t, ctx, "!!state.question.synthesized") {
			input := value[string](t, ctx, "state.question.input")
			shown := value[string](t, ctx, "state.question.expected")
			prompt := value[string](t, ctx, "document.getElementById('question').textContent")
			if !strings.Contains(prompt, input+" == "+shown) {
				t.Errorf("the page shows %q for the synthesized question %s == %s", prompt, input, shown)
			}
			verdict, _, err := p.AnswerCall(ctx, pool, "", input, shown, false)
			if err != nil {
				t.Fatal(err)
			}
			button = "btn-" + verdict
			synthesized = append(synthesized, input)
			screenshot(t, ctx, "synthesized-question.png")
		} else {
			switch p.TestLabels[value[int](t, ctx, "state.question.test")] {
			case demo.Wrong:
				button = "btn-fail"
			case demo.Undefined:
				button = "btn-undefined"
			}
		}
		step(t, ctx, "answer question "+itoa(int64(n+1)),
			chromedp.Click(chromedp.ID(button)),
			chromedp.Poll[chromedp.Void]("state.history.length === "+itoa(int64(n+1)), chromedp.WithPollingTimeout(30*time.Second)))
	}
	if len(synthesized) == 0 {
		t.Fatal("the page asked no synthesized question")
	}
	step(t, ctx, "final view", chromedp.WaitVisible(chromedp.ID("final")),
		chromedp.Poll[chromedp.Void]("document.getElementById('check').textContent.length > 0", chromedp.WithPollingTimeout(30*time.Second)))
	idx := value[int](t, ctx, "state.candidates[0].index")
	if p.CandidateLabels[idx] != demo.Correct {
		t.Errorf("exported candidate %d is %s (%s)", idx, p.CandidateLabels[idx], p.CandidateNotes[idx])
	}
	tests := value[string](t, ctx, "document.getElementById('export-tests').textContent")
	approved := value[[]string](t, ctx, "state.history.filter(h => h.verdict === 'pass').map(h => h.code)")
	for _, code := range approved {
		if !strings.Contains(tests, code) {
			t.Errorf("export lacks approved question %q:\n%s", code, tests)
		}
	}
	if !strings.Contains(tests, "digit_sum(-") {
		t.Errorf("export lacks a question on a negative number (asked %q):\n%s", synthesized, tests)
	}
	if v := console.matching("Content Security Policy"); len(v) > 0 {
		t.Errorf("Content-Security-Policy violations:\n%s", strings.Join(v, "\n"))
	}
}
