package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/interact"
)

// demoState is the state of demo name after answering its first answered
// tests yes, asking the next one, as a conversation shows it.
func demoState(t *testing.T, name string, answered int) api.Session {
	t.Helper()
	p, err := demo.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	shown := func(i int) string {
		if tc := p.Tests[i]; tc.Input != "" {
			return tc.Input + " == " + tc.Expected
		}
		return p.Tests[i].Code
	}
	s := api.Session{
		Task:      api.Task{Name: p.Name, Title: p.Title, Stub: p.Stub, Language: p.Language, EntryPoint: p.EntryPoint},
		Mode:      api.ModeOutput,
		Total:     api.Counts{Programs: 12, Samples: 20, Classes: 9},
		Remaining: api.Counts{Programs: 6, Samples: 10, Classes: 4},
	}
	for i := range answered {
		s.History = append(s.History, api.Answered{Number: i + 1, Test: i, Code: shown(i), Verdict: "pass", Remaining: 10})
	}
	tc := p.Tests[answered]
	s.Question = &api.Question{Number: answered + 1, Test: answered, Code: tc.Code, Input: tc.Input, Expected: tc.Expected,
		Prompt: interact.Prompt(tc.Code, tc.Input, tc.Expected), CanOutput: tc.Input != ""}
	return s
}

// sized returns a model of state laid out for a w×h window.
func sized(state api.Session, colour bool, w, h int) *model {
	m := modelOf(state, colour)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// boxRows returns the rows of the question box in the stripped screen s.
func boxRows(s string) []string {
	var rows []string
	in := false
	for _, l := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(l, "╭"):
			in = true
		case strings.HasPrefix(l, "╰"):
			return append(rows, l)
		}
		if in {
			rows = append(rows, l)
		}
	}
	return rows
}

// TestQuestionBoxWidths asks every question of every demo, Python and Java,
// answering or typing a value, in colour and not, at 78 to 82 columns: no
// line is wider than the window before the view cuts it, the box's rows
// are all equally wide, its border is whole, and no row of the question
// ends with the minus sign of a negative number.
func TestQuestionBoxWidths(t *testing.T) {
	for _, name := range demo.Names() {
		p, _ := demo.Get(name)
		for w := 78; w <= 82; w++ {
			t.Run(fmt.Sprintf("%s/%d", name, w), func(t *testing.T) {
				for j := range p.Tests {
					for _, tc := range []struct {
						typing, colour bool
					}{{false, false}, {false, true}, {true, false}} {
						m := sized(demoState(t, name, j), tc.colour, w, 24)
						if tc.typing && m.state.Question.CanOutput {
							m.phase = typing
						}
						for i, l := range m.askLines(w, 24) {
							if n := ansi.StringWidth(l); n > w {
								t.Errorf("test %d: line %d is %d cells wide: %q", j, i, n, ansi.Strip(l))
							}
						}
						rows := boxRows(ansi.Strip(m.View().Content))
						if len(rows) < 3 {
							t.Fatalf("test %d: no question box:\n%s", j, ansi.Strip(m.View().Content))
						}
						for i, r := range rows {
							if ansi.StringWidth(r) != ansi.StringWidth(rows[0]) || (i > 0 && i < len(rows)-1 && !strings.HasSuffix(r, "│")) {
								t.Errorf("test %d: box rows of different widths or cut:\n%s", j, strings.Join(rows, "\n"))
								break
							}
							inner := strings.TrimRight(strings.TrimSuffix(r, "│"), " ")
							if i+1 < len(rows)-1 && strings.HasSuffix(inner, "-") {
								t.Errorf("test %d: a row ends with a minus sign:\n%s", j, strings.Join(rows, "\n"))
							}
						}
					}
				}
			})
		}
	}
}

// TestTypingFits80x24 types a value for the third question of each Java
// demo (long calls, a long stub) and of a Python one at 80×24: the whole
// stub and both earlier answers show, whole, and nothing is cut at the
// right edge.
func TestTypingFits80x24(t *testing.T) {
	for _, name := range []string{"sorted_union", "min_cost", "max_increasing_product"} {
		t.Run(name, func(t *testing.T) {
			st := demoState(t, name, 2)
			m := sized(st, true, 80, 24)
			m.Update(keyMsg("o"))
			if m.phase != typing {
				t.Fatalf("o did not start typing a value")
			}
			for _, r := range "42" {
				m.Update(keyMsg(string(r)))
			}
			s := checkFits(t, m, 80, 24)
			lines := strings.Split(s, "\n")
			for _, l := range lines {
				if strings.HasSuffix(l, "…") {
					t.Errorf("a line is cut: %q", l)
				}
			}
			for _, l := range strings.Split(strings.TrimRight(st.Task.Stub, "\n"), "\n") {
				if !strings.Contains(s, l) {
					t.Errorf("the stub's line %q does not show:\n%s", l, s)
				}
			}
			joined := strings.Join(strings.Fields(s), " ")
			for _, a := range st.History {
				if !strings.Contains(joined, strings.Join(strings.Fields(a.Code), " ")) {
					t.Errorf("answer %d (%s) does not show whole:\n%s", a.Number, a.Code, s)
				}
			}
			if !strings.Contains(s, "value> 42") || !strings.Contains(s, "esc cancel") {
				t.Errorf("the value being typed or its keys do not show:\n%s", s)
			}
		})
	}
}
