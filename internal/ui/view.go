package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

var (
	titleStyle = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("12"))
	boxStyle   = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("12")).Padding(0, 1)
	dimStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("8"))
	errStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("9")).Bold(true)
	okStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("10"))
	warnStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("11"))
	keyStyle   = lipgloss.NewStyle().Bold(true)
)

// View renders the question or the final view, laid out for the window:
// no line is wider than it and there are no more lines than it has rows.
// The question and the key line always show; the stub, the history, the
// candidates and the diff are shortened (the final view scrolls).
func (m *model) View() tea.View {
	w, h := max(20, m.width), max(8, m.height)
	var lines []string
	if m.phase == choosing {
		lines = m.finalLines(w, h)
	} else {
		lines = m.askLines(w, h)
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	v.WindowTitle = "ticoder · " + m.state.Task.Name
	return v
}

// titleLine names the task.
func (m *model) titleLine() string {
	t := m.state.Task
	title := t.Name
	if t.Title != "" {
		title = t.Title + "  (" + t.Name + ")"
	}
	return titleStyle.Render("ticoder · " + title)
}

// split splits rendered text into lines, wrapping each to width (see wrap).
func split(s string, width int) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return wrap(s, width)
}

// keyLines lays out key help ("y yes", ...) in as many lines of at most
// width cells as needed, never cutting one key's help in two.
func keyLines(keys []string, width int) []string {
	sep := dimStyle.Render(" · ")
	var out []string
	cur, curW := "", 0
	for _, k := range keys {
		key, rest, _ := strings.Cut(k, " ")
		item := keyStyle.Render(key) + " " + rest
		iw := ansi.StringWidth(key + " " + rest)
		switch {
		case cur == "":
			cur, curW = item, iw
		case curW+3+iw <= width:
			cur += sep + item
			curW += 3 + iw
		default:
			out = append(out, cur)
			cur, curW = item, iw
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// clip returns at most n of lines starting at off, saying on the last line
// kept how many more there are and how to see them.
func clip(lines []string, off, n int, noun, more string) []string {
	if n <= 0 {
		return nil
	}
	off = min(max(0, off), max(0, len(lines)-1))
	lines = lines[off:]
	if len(lines) <= n {
		return lines
	}
	hidden := len(lines) - n + 1
	out := append([]string(nil), lines[:n-1]...)
	return append(out, dimStyle.Render(fmt.Sprintf("  … %s%s", plural(hidden, "more "+noun), more)))
}

// bar draws the share of samples left, width cells wide.
func (m *model) bar(width int) string {
	filled := 0
	if m.state.Total.Samples > 0 {
		filled = width * m.state.Remaining.Samples / m.state.Total.Samples
	}
	return okStyle.Render(strings.Repeat("█", filled)) + dimStyle.Render(strings.Repeat("░", width-filled))
}

// statusLine is the bar and the counts; the bar shrinks, or goes, so that
// the counts fit.
func (m *model) statusLine(width int) string {
	counts := countsLine(m.state)
	if bw := min(30, width-ansi.StringWidth(counts)-2); bw >= 8 {
		return m.bar(bw) + "  " + counts
	}
	return counts
}

// questionBox draws the question in a box exactly as wide as its widest
// line and never wider than width: the border and the padding take four
// cells.
func questionBox(prompt string, width int) []string {
	return strings.Split(boxStyle.Render(strings.Join(wrap(prompt, width-4), "\n")), "\n")
}

// askKeys is the key help of the question screen.
func (m *model) askKeys() []string {
	keys := []string{"y yes", "n no", "d don't know / invalid input"}
	if m.state.Question != nil && m.state.Question.CanOutput {
		keys = append(keys, "o right output")
	}
	return append(keys, "u undo", "q stop asking", "ctrl+c quit")
}

// askLines lays out the question screen: the title, the stub, the counts,
// the question with its keys (or the value being typed), any message, and
// the answers given, latest last. The question, its keys and the messages
// always show. When the stub and every answer do not fit with blank lines
// between the parts, the blank lines go; then the older answers go, and
// last the end of the stub (the latest answer stays while three lines of
// the stub do).
func (m *model) askLines(w, h int) []string {
	ask, msgs := m.questionLines(w), m.messageLines(w)
	stub := split(highlight(strings.TrimRight(m.state.Task.Stub, "\n"), m.state.Task.Language, m.colour), w)
	hist := m.historyLines(w)
	fit := fitAsk(h, 2+len(ask)+len(msgs), len(stub), len(msgs) > 0, hist) // the title and the counts are fixed too
	gap := func(out []string) []string {
		if fit.spaced {
			out = append(out, "")
		}
		return out
	}
	out := gap([]string{m.titleLine()})
	out = append(out, clip(stub, 0, fit.stubRoom, "line", "")...)
	out = gap(out)
	out = append(out, m.statusLine(w))
	out = gap(out)
	out = append(out, ask...)
	if len(msgs) > 0 {
		out = append(gap(out), msgs...)
	}
	if hl := historyBlock(hist, fit.histRoom); len(hl) > 0 {
		out = append(gap(out), hl...)
	}
	return out
}

// questionLines returns the question with its keys, or while a value is
// typed, the value with the keys that work then (enter and esc), beside
// it when there is room.
func (m *model) questionLines(w int) []string {
	q := m.state.Question
	typed := m.phase == typing && q != nil
	var ask []string
	if q != nil {
		label := fmt.Sprintf("Question %d — is this what your function should do?", q.Number)
		if typed {
			label = fmt.Sprintf("Question %d — no: what should it return instead?", q.Number)
		}
		ask = append(ask, dimStyle.Render(label))
		ask = append(ask, questionBox(highlightPrompt(q.Prompt, m.state.Task.Language, m.colour), w)...)
	}
	if !typed {
		return append(ask, keyLines(m.askKeys(), w)...)
	}
	in, keys := m.input.View(), keyLines([]string{"enter answer", "esc cancel"}, w)
	if len(keys) == 1 && ansi.StringWidth(in)+2+ansi.StringWidth(keys[0]) <= w {
		return append(ask, in+"  "+keys[0])
	}
	ask = append(ask, in)
	return append(ask, keys...)
}

// messageLines returns the messages under the question: a conflict
// (no candidate agrees with every answer) before anything else, then
// "working…" or the last note, then the last error.
func (m *model) messageLines(w int) []string {
	var msgs []string
	if m.busy {
		msgs = append(msgs, dimStyle.Render("working…"))
	} else if m.note != "" {
		msgs = append(msgs, okStyle.Render(m.note))
	}
	if m.err != "" {
		msgs = append(msgs, split(errStyle.Render("! "+m.err), w)...)
	}
	if msg := m.state.ConflictMessage; msg != "" {
		msgs = append(split(warnStyle.Render(strings.Join(wrap(msg, w), "\n")), w), msgs...)
	}
	return msgs
}

// askFit is how the question screen fits its height: whether blank lines
// separate the parts, and how many lines the stub and the answers get.
type askFit struct {
	spaced             bool
	stubRoom, histRoom int
}

// fitAsk fits the question screen into h lines, of which fixed always
// show, with a stub of stub lines, messages or not (msgs), and the
// answers given (hist, latest last): blank lines between the parts when
// everything fits with them; else none, and the stub cut where the
// answers do not fit beside it, keeping the latest answer while the stub
// keeps three lines.
func fitAsk(h, fixed, stub int, msgs bool, hist [][]string) askFit {
	minHist, allHist := 0, 0 // the header and the latest answer, or all
	if len(hist) > 0 {
		minHist = 1 + len(hist[len(hist)-1])
		allHist = 1
		for _, h := range hist {
			allHist += len(h)
		}
	}
	blanks := 3 // after the title, around the counts
	if msgs {
		blanks++
	}
	if len(hist) > 0 {
		blanks++
	}
	spaced := fixed+blanks+stub+allHist <= h
	if !spaced {
		blanks = 0
	}
	room := max(0, h-fixed-blanks)
	stubRoom, histRoom := stub, room-stub
	if histRoom < minHist {
		histRoom = 0
		if room-minHist >= 3 {
			histRoom = minHist
		}
		stubRoom = room - histRoom
	}
	return askFit{spaced: spaced, stubRoom: stubRoom, histRoom: histRoom}
}

// historyLines lists the answers given in the words of the keys, each
// wrapped to width with its continuation rows indented under the test.
func (m *model) historyLines(width int) [][]string {
	var out [][]string
	for _, a := range m.state.History {
		head := fmt.Sprintf("  %d. %-10s ", a.Number, verdictWord(a.Verdict, a.Value))
		body := fmt.Sprintf("%s  → %s left", a.Code, plural(a.Remaining, "sample"))
		indent := ansi.StringWidth(head)
		var lines []string
		if width-indent < 20 {
			// A long value: the test goes on the rows below it.
			lines = wrap(strings.TrimRight(head, " "), width)
			head, indent = "", 5
		}
		for i, r := range wrap(body, width-indent) {
			if i == 0 && head != "" {
				lines = append(lines, head+r)
			} else {
				lines = append(lines, strings.Repeat(" ", indent)+r)
			}
		}
		out = append(out, lines)
	}
	return out
}

// historyBlock returns the header "Your answers:" and the latest answers
// that fit in n lines (whole answers only), or nothing when not even the
// latest one fits. The header says how many older answers are left out.
func historyBlock(hist [][]string, n int) []string {
	used, first := 1, len(hist)
	for first > 0 && used+len(hist[first-1]) <= n {
		first--
		used += len(hist[first])
	}
	if first == len(hist) {
		return nil
	}
	header := "Your answers:"
	if first > 0 {
		header = fmt.Sprintf("Your answers (the last %d of %d):", len(hist)-first, len(hist))
	}
	out := []string{dimStyle.Render(header)}
	for _, h := range hist[first:] {
		out = append(out, h...)
	}
	return out
}

// finalKeys is the key help of the final view.
func finalKeys(scroll bool) []string {
	keys := []string{"↑/↓ choose", "enter write the code and tests"}
	if scroll {
		keys = append(keys, "pgup/pgdn scroll")
	}
	return append(keys, "u undo", "esc quit without writing")
}

func (m *model) finalLines(w, h int) []string {
	s := m.state
	head := []string{m.titleLine(), ""}
	head = append(head, split(s.StopMessage, w)...)
	if s.ConflictMessage != "" {
		head = append(head, split(warnStyle.Render(ansi.Wrap(s.ConflictMessage, w, "")), w)...)
	}
	head = append(head, split(fmt.Sprintf("%s after %s.", countsLine(s), plural(len(s.History), "answer")), w)...)
	head = append(head, "")
	var foot []string
	if m.err != "" {
		foot = append(foot, split(errStyle.Render("! "+m.err), w)...)
	}
	if len(s.Candidates) == 0 {
		foot = append(foot, keyLines([]string{"u undo the last answer", "esc quit"}, w)...)
		return append(head, foot...)
	}
	var list []string
	for i := range s.Candidates {
		mark, line := "  ", candidateHead(s.Candidates, i)
		if i == m.cursor {
			mark, line = titleStyle.Render("▸ "), keyStyle.Render(line)
		}
		list = append(list, mark+line)
	}
	c := s.Candidates[m.cursor]
	detail := append([]string{dimStyle.Render(candidateHead(s.Candidates, m.cursor) + ":")},
		split(highlight(strings.TrimRight(c.Program, "\n"), m.state.Task.Language, m.colour), w)...)
	if len(s.Candidates) > 1 {
		detail = append(detail, "", dimStyle.Render("How the top two differ:"))
		detail = append(detail, split(renderDiff(s.Candidates, m.colour), w)...)
	}
	room := h - len(head) - len(foot) - 1 // a blank line before the keys
	listRoom := min(len(list), 8, max(1, room/3))
	detailRoom := room - listRoom - 1
	scroll := detailRoom < len(detail)
	keys := keyLines(finalKeys(scroll), w)
	detailRoom -= len(keys)
	m.maxScroll = max(0, len(detail)-max(1, detailRoom-1))
	m.scroll = min(m.scroll, m.maxScroll)
	first, last := listWindow(len(list), m.cursor, listRoom)
	out := append(head, list[first:last]...)
	if last < len(list) && last-first < listRoom {
		out = append(out, dimStyle.Render(fmt.Sprintf("  … %s", plural(len(list)-last, "more candidate"))))
	}
	if detailRoom > 0 {
		out = append(out, "")
		out = append(out, clip(detail, m.scroll, detailRoom, "line", ": pgdn to scroll")...)
	}
	out = append(out, "")
	out = append(out, keys...)
	return append(out, foot...)
}

// listWindow chooses the rows [first, last) of an n-row list to show in
// room lines, the cursor's row among them, scrolled as little as possible.
// While rows follow the window, the room's last line is kept to say how
// many (so the window holds room-1 rows); a room of one line holds the
// cursor's row alone.
func listWindow(n, cursor, room int) (first, last int) {
	room = max(1, room)
	cursor = min(max(0, cursor), n-1)
	switch {
	case n <= room:
		return 0, n
	case room == 1:
		return cursor, cursor + 1
	}
	// With rows following: the first row that shows the cursor.
	if first = max(0, cursor-room+2); n-first > room {
		return first, first + room - 1
	}
	return n - room, n // the end of the list fills the room
}
