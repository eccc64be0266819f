package ui

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/session"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

func testPool(t *testing.T) *execute.Pool { return testutil.Pool(t) }

// start starts demo name with the generated tests only (the tests answer
// by the demo's labels).
func start(t *testing.T, pool *execute.Pool, name string, mode rank.Mode) *interact.Conversation {
	t.Helper()
	return startWith(t, pool, name, interact.Options{Mode: mode, Questions: session.TestsOnly})
}

func startWith(t *testing.T, pool *execute.Pool, name string, opts interact.Options) *interact.Conversation {
	t.Helper()
	prep, err := (&interact.Builder{Runner: pool}).Build(context.Background(), interact.Source{Demo: name}, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := interact.Start(prep, pool)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// labelKey is the key a user who knows the intent presses for test j.
func labelKey(p demo.Problem, j int) string {
	switch p.TestLabels[j] {
	case demo.Wrong:
		return "n"
	case demo.Undefined:
		return "d"
	}
	return "y"
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		line string
		want command
		err  string
	}{
		{"y", command{verb: "pass"}, ""},
		{" YES ", command{verb: "pass"}, ""},
		{"n", command{verb: "fail"}, ""},
		{"d", command{verb: "undefined"}, ""},
		{"o [1, 2]", command{verb: "output", value: "[1, 2]"}, ""},
		{"output 'a b'", command{verb: "output", value: "'a b'"}, ""},
		{"u", command{verb: "undo"}, ""},
		{"q", command{verb: "stop"}, ""},
		{"?", command{verb: "help"}, ""},
		{"o", command{}, "give the right value"},
		{"y please", command{}, "takes no value"},
		{"maybe", command{}, "cannot read"},
		{"", command{}, "cannot read"},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			got, err := parseCommand(tc.line)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got, cmp.AllowUnexported(command{})); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestPlainConversation drives the plain prompts through pipes as a script
// would: it reads each question, answers by the demo's labels, and on the
// way types a line that cannot be read, an output value in PassFail mode and
// an undo, each of which must be reported without losing answers.
func TestPlainConversation(t *testing.T) {
	pool := testPool(t)
	p, _ := demo.Get("second_largest")
	c := start(t, pool, p.Name, rank.PassFail)
	byPrompt := map[string]int{}
	for j, tc := range p.Tests {
		byPrompt[interact.Prompt(tc.Code, tc.Input, tc.Expected)] = j
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	type ret struct {
		res Result
		err error
	}
	done := make(chan ret, 1)
	go func() {
		res, err := RunPlain(context.Background(), c, inR, outW)
		outW.Close()
		done <- ret{res, err}
	}()
	// The whole conversation has a deadline: past it, reads of the output
	// fail and the test says where it stood.
	deadline := time.AfterFunc(2*time.Minute, func() { outR.CloseWithError(errors.New("no end to the conversation in 2 minutes")) })
	defer deadline.Stop()
	out := bufio.NewReader(outR)
	var transcript strings.Builder
	// readUntil reads output until it ends with suffix.
	readUntil := func(suffix string) string {
		t.Helper()
		var b strings.Builder
		for !strings.HasSuffix(b.String(), suffix) {
			r, _, err := out.ReadRune()
			if err != nil {
				t.Fatalf("output ended before %q (%v):\n%s%s", suffix, err, transcript.String(), b.String())
			}
			b.WriteRune(r)
		}
		transcript.WriteString(b.String())
		return b.String()
	}
	// Lines are written by one goroutine, in order, so that the test never
	// blocks on input while RunPlain blocks on output.
	lines := make(chan string, 64)
	go func() {
		for l := range lines {
			if _, err := io.WriteString(inW, l+"\n"); err != nil {
				return
			}
		}
		inW.Close()
	}()
	defer close(lines)
	send := func(line string) {
		transcript.WriteString(line + "\n")
		lines <- line
	}
	answered := 0
	chunk := readUntil("\n> ")
	for step := 0; !strings.Contains(chunk, "Export which candidate?") && !strings.Contains(chunk, "Export the candidate?"); step++ {
		i := strings.LastIndex(chunk, "Question ")
		if i < 0 {
			t.Fatalf("no question in %q", chunk)
		}
		_, prompt, _ := strings.Cut(strings.TrimSuffix(chunk[i:], "\n> "), ": ")
		j, ok := byPrompt[prompt]
		if !ok {
			t.Fatalf("question %q is not a demo test", prompt)
		}
		switch step {
		case 1:
			send("maybe")
			if got := readUntil("\n> "); !strings.Contains(got, "! cannot read") {
				t.Errorf("after an unreadable line: %q", got)
			}
			send("o None")
			if got := readUntil("\n> "); !strings.Contains(got, "--mode output") || !strings.Contains(got, "yes (y), no (n) or don't know (d)") {
				t.Errorf("after an output in PassFail mode: %q", got)
			}
		case 2:
			send(labelKey(p, j))
			readUntil("\n> ")
			send("u")
			chunk = readUntil("\n> ")
			if !strings.Contains(chunk, "Undone.") || !strings.Contains(chunk, prompt) {
				t.Errorf("after undo: %q\n%s", chunk, transcript.String())
			}
			continue // the same question is asked again
		}
		send(labelKey(p, j))
		answered++
		chunk = readUntil("\n> ")
	}
	send("")
	r := testutil.Receive(t, done, time.Minute, "RunPlain to return after the last answer")
	if r.err != nil {
		t.Fatal(r.err)
	}
	s := c.State("")
	if len(s.History) != answered || !s.Done {
		t.Errorf("%d answers kept, %d given; done %v\n%s", len(s.History), answered, s.Done, transcript.String())
	}
	if r.res.Aborted || p.CandidateLabels[r.res.Candidate] != demo.Correct {
		t.Errorf("result %+v (%s)\n%s", r.res, p.CandidateLabels[r.res.Candidate], transcript.String())
	}
	for _, want := range []string{"Task: second_largest", "Ranked candidates", "[1] #1"} {
		if !strings.Contains(transcript.String(), want) {
			t.Errorf("transcript lacks %q:\n%s", want, transcript.String())
		}
	}
}

// TestPlainEndOfInput stops at the end of the input and exports the best
// candidate: a script that answers nothing still gets code.
func TestPlainEndOfInput(t *testing.T) {
	pool := testPool(t)
	c := start(t, pool, "median", rank.Output)
	var out strings.Builder
	res, err := RunPlain(context.Background(), c, strings.NewReader("o (1,\n"), &out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Aborted || res.Candidate < 0 {
		t.Errorf("result %+v", res)
	}
	if !strings.Contains(out.String(), "not valid Python") || !strings.Contains(out.String(), "You ended the questions.") {
		t.Errorf("output:\n%s", out.String())
	}
}

// TestTUIHeadless runs the bubbletea program on a pipe with a fixed window
// size. The keys are worked out first on a twin conversation (the question
// order is deterministic), then typed all at once with some mistakes: an
// unknown key, `o` in PassFail mode, and an answer that is undone.
func TestTUIHeadless(t *testing.T) {
	pool := testPool(t)
	p, _ := demo.Get("max_increasing_product")
	twin := start(t, pool, p.Name, rank.PassFail)
	var keys []string
	ctx := context.Background()
	for {
		q, ok := twin.Question()
		if !ok {
			break
		}
		k := labelKey(p, q.Test)
		verdict := map[string]string{"y": "pass", "n": "fail", "d": "undefined"}[k]
		if err := twin.Answer(ctx, q.Test, verdict, ""); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	want := twin.State("")
	if len(keys) < 2 {
		t.Fatalf("the demo ends after %d questions; the test needs two", len(keys))
	}
	wrong := map[string]string{"y": "n", "n": "y", "d": "y"}[keys[0]]
	input := "x" + "o" + wrong + "u" + strings.Join(keys, "") + "\r"

	c := start(t, pool, p.Name, rank.PassFail)
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	res, err := RunTUI(tctx, c, TUIOptions{In: strings.NewReader(input), Out: io.Discard, Width: 100, Height: 40, NoColor: true})
	if err != nil {
		t.Fatal(err)
	}
	got := c.State("")
	if d := cmp.Diff(want.History, got.History); d != "" {
		t.Errorf("answers differ from the twin's (-want +got):\n%s", d)
	}
	if res.Aborted || res.Candidate != want.Candidates[0].Index {
		t.Errorf("result %+v, want candidate %d", res, want.Candidates[0].Index)
	}
}

// TestTUIViews renders the question and the final view.
func TestTUIViews(t *testing.T) {
	pool := testPool(t)
	c := start(t, pool, "text_match", rank.Output)
	m := newModel(context.Background(), c, false)
	v := ansi.Strip(m.View().Content)
	q := m.state.Question
	for _, want := range []string{"ticoder · Two lowercase words", q.Prompt, "19 of 19 samples left", "o right output", "def text_match"} {
		if !strings.Contains(v, want) {
			t.Errorf("question view lacks %q:\n%s", want, v)
		}
	}
	m.Update(keyMsg("o"))
	if v := ansi.Strip(m.View().Content); m.phase != typing || !strings.Contains(v, "what should it return instead?") || !strings.Contains(v, "value> ") || !strings.Contains(v, q.Prompt) {
		t.Errorf("after o: phase %v\n%s", m.phase, m.View().Content)
	}
	c.Stop()
	m = newModel(context.Background(), c, false)
	v = ansi.Strip(m.View().Content)
	for _, want := range []string{"You ended the questions.", "▸ #1", "How the top two differ:", "--- #1", "write the code and tests"} {
		if !strings.Contains(v, want) {
			t.Errorf("final view lacks %q:\n%s", want, v)
		}
	}
	m.Update(keyMsg("down"))
	if m.cursor != 1 {
		t.Errorf("cursor %d after down", m.cursor)
	}
}

// keyMsg returns the key press of a key name ("o", "down", ...).
func keyMsg(name string) tea.KeyPressMsg {
	switch name {
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"y", "n", "d", "o [1, 2]", "u", "q", "help", "o", "yes please", "", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := parseCommand(line)
		if err != nil {
			return
		}
		switch c.verb {
		case "pass", "fail", "undefined", "undo", "stop", "help":
			if c.value != "" {
				t.Errorf("%q: verb %s with value %q", line, c.verb, c.value)
			}
		case "output":
			if strings.TrimSpace(c.value) == "" {
				t.Errorf("%q: output without a value", line)
			}
		default:
			t.Errorf("%q: unknown verb %q", line, c.verb)
		}
	})
}

// TestTUIFitsTerminal renders the question and the final view at 80×24
// and 120×40: no line is wider than the window, there are no more lines
// than rows, and the question, the key line and the way to write the code
// are on the screen.
func TestTUIFitsTerminal(t *testing.T) {
	pool := testPool(t)
	sizes := []struct{ w, h int }{{80, 24}, {120, 40}}
	// digit_sum's first question is synthesized, with the candidates'
	// values: a long question.
	for _, name := range []string{"text_match", "max_increasing_product", "digit_sum"} {
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%s/%dx%d", name, sz.w, sz.h), func(t *testing.T) {
				c := startWith(t, pool, name, interact.Options{Mode: rank.Output})
				m := newModel(context.Background(), c, true)
				m.Update(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
				q := m.state.Question
				ask := checkFits(t, m, sz.w, sz.h)
				for _, want := range []string{"Question 1", "y yes", "q stop asking", "ctrl+c quit", "samples left"} {
					if !strings.Contains(ask, want) {
						t.Errorf("question view lacks %q:\n%s", want, ask)
					}
				}
				if !strings.Contains(strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(ask)), " "), strings.Join(strings.Fields(q.Prompt), " ")) {
					t.Errorf("question view lacks the question %q:\n%s", q.Prompt, ask)
				}
				c.Stop()
				m = newModel(context.Background(), c, true)
				m.Update(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
				final := checkFits(t, m, sz.w, sz.h)
				for _, want := range []string{"▸ ", "enter write the code and tests", "esc quit without writing"} {
					if !strings.Contains(final, want) {
						t.Errorf("final view lacks %q:\n%s", want, final)
					}
				}
				// Scrolling reaches the end of the diff.
				for range 20 {
					m.Update(keyMsg("pgdown"))
				}
				end := checkFits(t, m, sz.w, sz.h)
				if strings.Contains(end, "pgdn to scroll") {
					t.Errorf("after scrolling down the view still has more below:\n%s", end)
				}
			})
		}
	}
}

// checkFits renders m and checks that it fits w×h; it returns the text.
func checkFits(t *testing.T, m *model, w, h int) string {
	t.Helper()
	v := ansi.Strip(m.View().Content)
	lines := strings.Split(v, "\n")
	if len(lines) > h {
		t.Errorf("%d lines on a %d-row screen:\n%s", len(lines), h, v)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d cells wide on a %d-column screen: %q", i+1, n, w, l)
		}
	}
	return v
}

// TestTies marks candidates of equal rank as tied, in the list and in the
// diff's header, in the words of both UIs; a fallback says why it ranks
// last.
func TestTies(t *testing.T) {
	cands := []api.Candidate{{Rank: 1, Samples: 3}, {Rank: 2, Samples: 2}, {Rank: 2, Samples: 2}, {Rank: 4, Samples: 1}, {Rank: 5, Samples: 1, Crashes: 2}}
	var got []string
	for i := range cands {
		got = append(got, candidateHead(cands, i))
	}
	want := []string{"#1  3 samples", "=2  2 samples (tied)", "=2  2 samples (tied)", "#4  1 sample", "#5  1 sample — fallback, crashes on 2 answered inputs"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("heads (-want +got):\n%s", d)
	}
	cands[1].Rank = 1
	if h, _, _ := strings.Cut(renderDiff(cands, false), "\n  "); !strings.HasPrefix(h, "--- =1  (tied)\n+++ =1  (tied)") {
		t.Errorf("diff header %q", h)
	}
}

// TestVocabulary: the history says answers in the words of the keys (yes,
// no, don't know), as the web page does.
func TestVocabulary(t *testing.T) {
	for verdict, want := range map[string]string{"pass": "yes", "fail": "no", "undefined": "don't know", "output": "= 3"} {
		if got := verdictWord(verdict, "3"); got != want {
			t.Errorf("%s: %q, want %q", verdict, got, want)
		}
	}
}

// TestTUIQuitConfirms: on the final view, esc with answers given asks
// first (another key stays), a second esc quits without writing, and Ctrl-C
// is reported as an interruption.
func TestTUIQuitConfirms(t *testing.T) {
	pool := testPool(t)
	c := start(t, pool, "text_match", rank.PassFail)
	q, _ := c.Question()
	if err := c.Answer(context.Background(), q.Test, "pass", ""); err != nil {
		t.Fatal(err)
	}
	c.Stop()
	tests := []struct {
		name        string
		keys        []string
		stopped     bool
		interrupted bool
	}{
		{"esc asks", []string{"esc"}, false, false},
		{"another key stays", []string{"esc", "down", "esc"}, false, false},
		{"esc twice quits", []string{"esc", "esc"}, true, false},
		{"q twice quits", []string{"q", "q"}, true, false},
		{"ctrl+c", []string{"ctrl+c"}, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(context.Background(), c, false)
			for _, k := range tc.keys {
				m.Update(keyMsg(k))
			}
			if m.stopped != tc.stopped || m.result.Interrupted != tc.interrupted || m.stopped && !m.result.Aborted {
				t.Errorf("stopped %v, result %+v; want stopped %v, interrupted %v", m.stopped, m.result, tc.stopped, tc.interrupted)
			}
			if !m.stopped && !strings.Contains(ansi.Strip(m.View().Content), "Quit without writing the code? Your 1 answer will be kept") {
				t.Errorf("no question before quitting:\n%s", ansi.Strip(m.View().Content))
			}
		})
	}
}

// TestPlainInterrupted: a cancelled context (Ctrl-C) ends a plain session
// that waits for the user's next line, reported as an interruption, with
// the answers given kept.
func TestPlainInterrupted(t *testing.T) {
	pool := testPool(t)
	c := start(t, pool, "text_match", rank.PassFail)
	in, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	type ret struct {
		res Result
		err error
	}
	done := make(chan ret, 1)
	go func() {
		res, err := RunPlain(ctx, c, in, outW)
		outW.Close()
		done <- ret{res, err}
	}()
	asked := make(chan bool, 1)
	go func() {
		// Wait for the second question: the first answer is in.
		var seen strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := outR.Read(buf)
			seen.Write(buf[:n])
			if strings.Contains(seen.String(), "Question 2") {
				asked <- true
				_, _ = io.Copy(io.Discard, outR)
				return
			}
			if err != nil {
				asked <- false
				return
			}
		}
	}()
	if _, err := io.WriteString(w, "y\n"); err != nil {
		t.Fatal(err)
	}
	if !testutil.Receive(t, asked, time.Minute, "the second question") {
		t.Fatal("the output ended before the second question")
	}
	cancel()
	r := testutil.Receive(t, done, time.Minute, "RunPlain to return after the interruption")
	if !errors.Is(r.err, context.Canceled) || !r.res.Interrupted || !r.res.Aborted {
		t.Errorf("result %+v, err %v; want an interruption", r.res, r.err)
	}
	if n := len(c.State("").History); n != 1 {
		t.Errorf("%d answers kept, want 1", n)
	}
}

// TestPlainNoCandidate: at "No candidate remains" a stray line is refused
// and asked again; only u undoes, and only Enter, q or the end of input
// give up.
func TestPlainNoCandidate(t *testing.T) {
	pool := testPool(t)
	for _, tc := range []struct {
		name    string
		lines   []string
		again   bool
		refused int
	}{
		{"undo", []string{"u"}, true, 0},
		{"stray then undo", []string{"x", "yes", "u"}, true, 2},
		{"stray then Enter", []string{"x", ""}, false, 1},
		{"quit", []string{"q"}, false, 0},
		{"end of input", nil, false, 0},
		{"stray then end of input", []string{"n"}, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := start(t, pool, "median", rank.PassFail)
			q, ok := c.Question()
			if !ok {
				t.Fatal("no question")
			}
			if err := c.Answer(context.Background(), q.Test, "pass", ""); err != nil {
				t.Fatal(err)
			}
			lines := tc.lines
			read := func() (string, bool) {
				if len(lines) == 0 {
					return "", false
				}
				l := lines[0]
				lines = lines[1:]
				return l, true
			}
			var out strings.Builder
			res, again, err := plainChoose(c, api.Session{}, read, &out)
			if err != nil || again != tc.again || !again && !res.Aborted {
				t.Errorf("plainChoose = %+v, again %v, %v; want again %v\n%s", res, again, err, tc.again, out.String())
			}
			if n := strings.Count(out.String(), "! cannot read"); n != tc.refused {
				t.Errorf("%d lines refused, want %d:\n%s", n, tc.refused, out.String())
			}
			if answered := len(c.State("").History); answered != map[bool]int{true: 0, false: 1}[tc.again] {
				t.Errorf("%d answers left, want the undo only with u", answered)
			}
		})
	}
}

// TestHighlightPrompt: in colour, a question's code is highlighted and the
// note in words after it is left as it is.
func TestHighlightPrompt(t *testing.T) {
	note := "(what should f(3) return? the candidates return 1, None)"
	for _, tc := range []struct {
		name, prompt, code, note string
	}{
		{"note", "f(3) == 1 ?\n" + note, "f(3) == 1 ?", note},
		{"no note", "f(3) == 1 ?", "f(3) == 1 ?", ""},
		{"setup and note", "x = [1]\nf(x) == 1 ?\n" + note, "x = [1]\nf(x) == 1 ?", note},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := highlightPrompt(tc.prompt, "", true)
			want := highlight(tc.code, "", true)
			if tc.note != "" {
				want += "\n" + tc.note
			}
			if got != want {
				t.Errorf("highlightPrompt = %q, want %q", got, want)
			}
			if plain := highlightPrompt(tc.prompt, "", false); plain != tc.prompt {
				t.Errorf("without colour: %q, want the prompt unchanged", plain)
			}
		})
	}
}

// TestExportPrompt: the choice of the candidate to export names a range
// only when there is one to choose from.
func TestExportPrompt(t *testing.T) {
	for _, tc := range []struct {
		n          int
		want, must string
	}{
		{1, "Export the candidate? [Enter or 1", "1-1"},
		{2, "Export which candidate? [1-2, Enter for 1", "[1-1"},
		{9, "[1-9, Enter for 1", "1-1,"},
	} {
		got := exportPrompt(tc.n)
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.must) {
			t.Errorf("exportPrompt(%d) = %q, want %q and no %q", tc.n, got, tc.want, tc.must)
		}
	}
}
