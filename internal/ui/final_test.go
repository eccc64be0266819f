package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/ticoder/ticoder/api"
)

func TestListWindow(t *testing.T) {
	tests := []struct {
		n, cursor, room int
		first, last     int
	}{
		{3, 2, 8, 0, 3},    // all fit
		{12, 0, 8, 0, 7},   // seven rows and "… 5 more"
		{12, 6, 8, 0, 7},   // the last row above the "more" line
		{12, 7, 8, 1, 8},   // one step down
		{12, 8, 8, 2, 9},   // another
		{12, 9, 8, 3, 10},  // …
		{12, 10, 8, 4, 12}, // the end fills the room: no "more" line
		{12, 11, 8, 4, 12},
		{12, 5, 1, 5, 6}, // one line: the cursor's row alone
		{12, 11, 2, 10, 12},
		{12, 0, 2, 0, 1},
		{12, 99, 8, 4, 12}, // a cursor past the end
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d/%d/%d", tc.n, tc.cursor, tc.room), func(t *testing.T) {
			first, last := listWindow(tc.n, tc.cursor, tc.room)
			if first != tc.first || last != tc.last {
				t.Errorf("listWindow(%d, %d, %d) = %d, %d; want %d, %d", tc.n, tc.cursor, tc.room, first, last, tc.first, tc.last)
			}
		})
	}
}

// finalState is a finished session with n candidates of ten lines each.
func finalState(n int) api.Session {
	s := api.Session{Task: api.Task{Name: "f", Stub: "def f(x):\n    pass\n"}, Done: true, StopMessage: "You ended the questions.",
		Total: api.Counts{Programs: n, Samples: n, Classes: n}, Remaining: api.Counts{Programs: n, Samples: n, Classes: n}}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "def f(x):  # candidate %d\n", i)
		for k := range 9 {
			fmt.Fprintf(&b, "    x = x + %d  # line %d of candidate %d\n", k, k+2, i)
		}
		s.Candidates = append(s.Candidates, api.Candidate{Rank: i + 1, Index: 100 + i, Program: b.String(), Samples: 1, Programs: 1})
	}
	return s
}

// TestFinalCursorShows moves down the final list of twelve candidates and
// back up at 80×24 and 120×40: the chosen row is always on the screen,
// with its code.
func TestFinalCursorShows(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m := sized(finalState(12), false, sz.w, sz.h)
			keys := append(strings.Split(strings.Repeat("down ", 11), " "), strings.Split(strings.Repeat("up ", 11), " ")...)
			for _, k := range keys {
				if k != "" {
					m.Update(keyMsg(k))
				}
				s := checkFits(t, m, sz.w, sz.h)
				head := candidateHead(m.state.Candidates, m.cursor)
				if !strings.Contains(s, "▸ "+head+"\n") {
					t.Fatalf("after %s to row %d the chosen row %q is not on the screen:\n%s", k, m.cursor+1, head, s)
				}
				if !strings.Contains(s, fmt.Sprintf("# candidate %d\n", m.cursor)) {
					t.Fatalf("row %d: its code does not show from its first line:\n%s", m.cursor+1, s)
				}
			}
		})
	}
}

// TestFinalScrollResets: after pgdn scrolls a candidate's code, choosing
// another candidate shows the new one from its first line; pgdn works
// again after.
func TestFinalScrollResets(t *testing.T) {
	m := sized(finalState(3), false, 80, 24)
	m.View() // the view sets how far the code can scroll
	m.Update(keyMsg("pgdown"))
	if m.scroll == 0 {
		t.Fatalf("pgdn did not scroll:\n%s", ansi.Strip(m.View().Content))
	}
	m.View()
	for _, k := range []string{"down", "up"} {
		m.Update(keyMsg(k))
		s := ansi.Strip(m.View().Content)
		if m.scroll != 0 || !strings.Contains(s, fmt.Sprintf("# candidate %d\n", m.cursor)) {
			t.Errorf("after pgdn and %s: scroll %d\n%s", k, m.scroll, s)
		}
	}
	m.Update(keyMsg("pgdown"))
	if m.scroll == 0 {
		t.Errorf("pgdn does not scroll the newly chosen candidate")
	}
}
