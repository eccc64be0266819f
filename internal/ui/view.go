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

// split splits rendered text into lines, wrapping each to width.
func split(s string, width int) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(ansi.Wrap(s, width, ""), "\n")
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

// askKeys is the key help of the question screen.
func (m *model) askKeys() []string {
	keys := []string{"y yes", "n no", "d don't know / invalid input"}
	if m.state.Question != nil && m.state.Question.CanOutput {
		keys = append(keys, "o right output")
	}
	return append(keys, "u undo", "q stop asking", "ctrl+c quit")
}

func (m *model) askLines(w, h int) []string {
	q := m.state.Question
	var tail []string
	tail = append(tail, "", m.statusLine(w), "")
	if msg := m.state.ConflictMessage; msg != "" {
		tail = append(tail, split(warnStyle.Render(ansi.Wrap(msg, w, "")), w)...)
		tail = append(tail, "")
	}
	if q != nil {
		tail = append(tail, dimStyle.Render(fmt.Sprintf("Question %d — is this what your function should do?", q.Number)))
		tail = append(tail, split(boxStyle.Render(ansi.Wrap(highlight(q.Prompt, m.state.Task.Language, m.colour), w-4, "")), w)...)
	}
	tail = append(tail, keyLines(m.askKeys(), w)...)
	if m.phase == typing && q != nil {
		tail = append(tail, "", q.Input+" ==", m.input.View(), dimStyle.Render("enter to answer · esc to cancel"))
	}
	if m.busy {
		tail = append(tail, "", dimStyle.Render("working…"))
	} else if m.note != "" {
		tail = append(tail, "", okStyle.Render(m.note))
	}
	if m.err != "" {
		tail = append(tail, "")
		tail = append(tail, split(errStyle.Render("! "+m.err), w)...)
	}
	head := []string{m.titleLine(), ""}
	room := h - len(head) - len(tail)
	stub := split(highlight(strings.TrimRight(m.state.Task.Stub, "\n"), m.state.Task.Language, m.colour), w)
	hist := m.historyLines()
	histRoom := 0
	if len(hist) > 0 && room-len(stub) >= 3 {
		histRoom = min(len(hist)+2, room-len(stub))
	}
	out := append(head, clip(stub, 0, room-histRoom, "line", "")...)
	out = append(out, tail...)
	if histRoom > 0 {
		out = append(out, "", dimStyle.Render("Your answers:"))
		out = append(out, hist[max(0, len(hist)-(histRoom-2)):]...)
	}
	return out
}

// historyLines lists the answers given, in the words of the keys.
func (m *model) historyLines() []string {
	var out []string
	for _, a := range m.state.History {
		out = append(out, fmt.Sprintf("  %d. %-10s %s  → %s left", a.Number, verdictWord(a.Verdict, a.Value), a.Code, plural(a.Remaining, "sample")))
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
	first := min(max(0, m.cursor-listRoom+1), len(list)-listRoom)
	out := append(head, clip(list[first:], 0, listRoom, "candidate", "")...)
	if detailRoom > 0 {
		out = append(out, "")
		out = append(out, clip(detail, m.scroll, detailRoom, "line", ": pgdn to scroll")...)
	}
	out = append(out, "")
	out = append(out, keys...)
	return append(out, foot...)
}
