package server

import (
	"slices"
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
	synthesized, _ := synthDemo(t, "passfail")
	if len(synthesized) == 0 {
		t.Fatal("the page asked no synthesized question")
	}
}

// TestBrowserSynthesizedChoices completes the digit_sum demo in output mode:
// a synthesized question offers each value the remaining candidates return
// as a button (with the free value and "invalid input"), and the user
// answers at least once by clicking the value the reference returns.
func TestBrowserSynthesizedChoices(t *testing.T) {
	synthesized, clicked := synthDemo(t, "output")
	if len(synthesized) == 0 {
		t.Fatal("the page asked no synthesized question")
	}
	if clicked == 0 {
		t.Errorf("no synthesized question (%q) was answered with a choice button", synthesized)
	}
}

// synthDemo runs the digit_sum demo in mode, answering as the reference
// behaves (synthesized questions through their choice buttons where the
// page offers the right value), checks the end, and returns the inputs of
// the synthesized questions asked and how many were answered by a choice.
func synthDemo(t *testing.T, mode string) (synthesized []string, clicked int) {
	ctx := newBrowser(t)
	console := watchConsole(ctx)
	pool := testPool(t)
	_, hs := serve(t, pool, Options{Token: testToken})
	p, _ := demo.Get("digit_sum")

	step(t, ctx, "open the page", chromedp.Navigate(hs.URL+"/?token="+testToken), chromedp.WaitVisible(chromedp.ID("demo-digit_sum")))
	step(t, ctx, "start the demo in "+mode+" mode",
		chromedp.SetValue(chromedp.ID("mode"), mode),
		chromedp.Click(chromedp.ID("demo-digit_sum")),
		chromedp.WaitVisible(chromedp.ID("question")))
	for n := 0; !value[bool](t, ctx, "state.done"); n++ {
		if n > 2*len(p.Tests) {
			t.Fatal("more questions than the pool holds")
		}
		var click []chromedp.Action[chromedp.Void]
		if value[bool](t, ctx, "!!state.question.synthesized") {
			input := value[string](t, ctx, "state.question.input")
			shown := value[string](t, ctx, "state.question.expected")
			prompt := value[string](t, ctx, "document.getElementById('question').textContent")
			if !strings.Contains(prompt, input+" == "+shown) {
				t.Errorf("the page shows %q for the synthesized question %s == %s", prompt, input, shown)
			}
			output := value[bool](t, ctx, "state.question.can_output")
			choices := value[[]string](t, ctx, "state.question.choices || []")
			// The note in words after the code is plain text, not
			// highlighted as code.
			prose := value[string](t, ctx, "(document.querySelector('#question .prose') || {}).textContent || ''")
			if wantNote := output && len(choices) > 1; wantNote != strings.HasPrefix(prose, "\n(what should "+input) || prompt != value[string](t, ctx, "state.question.prompt") {
				t.Errorf("question %q: the note in words is %q, want it plain after the code: %v", prompt, prose, wantNote)
			}
			buttons := value[[]string](t, ctx, "document.getElementById('choices').hidden ? [] : "+
				"[...document.querySelectorAll('#choice-buttons button')].map(b => b.textContent)")
			if want := choices; !output {
				want = nil
				if len(buttons) != 0 {
					t.Errorf("%s mode shows choice buttons %q", mode, buttons)
				}
			} else if !slices.Equal(buttons, want) {
				t.Errorf("choice buttons %q, want the candidates' values %q", buttons, want)
			}
			verdict, v, err := p.AnswerCall(ctx, pool, "", input, shown, output)
			if err != nil {
				t.Fatal(err)
			}
			synthesized = append(synthesized, input)
			switch i := slices.Index(buttons, map[bool]string{true: shown, false: v}[verdict == "pass"]); {
			case verdict != "undefined" && i >= 0:
				click = []chromedp.Action[chromedp.Void]{chromedp.Click(chromedp.ID("choice-" + itoa(int64(i))))}
				clicked++
				screenshot(t, ctx, "synthesized-question-"+mode+".png")
			case verdict == "output":
				click = []chromedp.Action[chromedp.Void]{chromedp.SetValue(chromedp.ID("output-value"), v), chromedp.Click(chromedp.ID("btn-output"))}
			default:
				click = []chromedp.Action[chromedp.Void]{chromedp.Click(chromedp.ID("btn-" + verdict))}
			}
		} else {
			button := "btn-pass"
			switch p.TestLabels[value[int](t, ctx, "state.question.test")] {
			case demo.Wrong:
				button = "btn-fail"
			case demo.Undefined:
				button = "btn-undefined"
			}
			click = []chromedp.Action[chromedp.Void]{chromedp.Click(chromedp.ID(button))}
		}
		step(t, ctx, "answer question "+itoa(int64(n+1)), append(click,
			chromedp.Poll[chromedp.Void]("state.history.length === "+itoa(int64(n+1)), chromedp.WithPollingTimeout(30*time.Second)))...)
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
	return synthesized, clicked
}
