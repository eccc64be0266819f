package ui

import (
	"fmt"
	"strings"

	"github.com/alecthomas/chroma/v2/quick"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/interact"
)

// highlight returns source in language ("" is Python, "java") with terminal
// colours, or the source unchanged when colour is false or highlighting
// fails.
func highlight(src, language string, colour bool) string {
	if !colour {
		return src
	}
	if language == "" {
		language = "python"
	}
	var b strings.Builder
	if err := quick.Highlight(&b, src, language, "terminal256", "monokai"); err != nil {
		return src
	}
	return strings.TrimRight(b.String(), "\n") + "\x1b[0m"
}

// highlightPrompt is highlight for a question's prompt: its code is
// highlighted, the note in words after it (see interact.SplitPrompt) is
// not.
func highlightPrompt(prompt, language string, colour bool) string {
	code, note := interact.SplitPrompt(prompt)
	out := highlight(code, language, colour)
	if note != "" {
		out += "\n" + note
	}
	return out
}

// plural returns "1 sample" or "n samples".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// countsLine says how many candidates remain.
func countsLine(s api.Session) string {
	return fmt.Sprintf("%d of %d samples left (%s, %s)", s.Remaining.Samples, s.Total.Samples,
		plural(s.Remaining.Programs, "program"), plural(s.Remaining.Classes, "behaviour"))
}

// rankLabel names the rank of candidate i: "#2", or "=2" when another
// candidate has the same rank (a tie: the ranking cannot tell them apart).
func rankLabel(cands []api.Candidate, i int) string {
	if tied(cands, i) {
		return fmt.Sprintf("=%d", cands[i].Rank)
	}
	return fmt.Sprintf("#%d", cands[i].Rank)
}

// tied reports whether another candidate has candidate i's rank.
func tied(cands []api.Candidate, i int) bool {
	for j, c := range cands {
		if j != i && c.Rank == cands[i].Rank {
			return true
		}
	}
	return false
}

// candidateHead describes candidate i, a ranked behaviour class.
func candidateHead(cands []api.Candidate, i int) string {
	c := cands[i]
	h := fmt.Sprintf("%s  %s", rankLabel(cands, i), plural(c.Samples, "sample"))
	if c.Programs > 1 {
		h += fmt.Sprintf(" in %d variants", c.Programs)
	}
	if tied(cands, i) {
		h += " (tied)"
	}
	if c.Yours {
		h += " — yours (the code in your file now)"
	}
	if c.Crashes > 0 {
		h += " — fallback, crashes on " + plural(c.Crashes, "answered input")
	}
	return h
}

// verdictWord says an answer in the words of the keys: yes, no, don't know,
// or "= VALUE" for a right output given.
func verdictWord(verdict, value string) string {
	switch verdict {
	case "pass":
		return "yes"
	case "fail":
		return "no"
	case "undefined":
		return "don't know"
	case "output":
		return "= " + value
	}
	return verdict
}

// diffOp is one line of a line diff.
type diffOp struct {
	op   byte // ' ', '-' or '+'
	line string
}

// diffLines returns a line diff of a and b (longest common subsequence).
func diffLines(a, b string) []diffOp {
	x := strings.Split(strings.TrimRight(a, "\n"), "\n")
	y := strings.Split(strings.TrimRight(b, "\n"), "\n")
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			out = append(out, diffOp{' ', x[i]})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, diffOp{'-', x[i]})
			i++
		default:
			out = append(out, diffOp{'+', y[j]})
			j++
		}
	}
	return out
}

// renderDiff renders a diff of the top two candidates, coloured if colour.
// A tie between them is said in the header.
func renderDiff(cands []api.Candidate, colour bool) string {
	var s strings.Builder
	a, b := cands[0], cands[1]
	note := ""
	if a.Rank == b.Rank {
		note = "  (tied)"
	}
	fmt.Fprintf(&s, "--- %s%s\n+++ %s%s\n", rankLabel(cands, 0), note, rankLabel(cands, 1), note)
	for _, d := range diffLines(a.Program, b.Program) {
		line := string(d.op) + " " + d.line
		switch {
		case colour && d.op == '-':
			line = "\x1b[31m" + line + "\x1b[0m"
		case colour && d.op == '+':
			line = "\x1b[32m" + line + "\x1b[0m"
		}
		s.WriteString(line + "\n")
	}
	return s.String()
}
