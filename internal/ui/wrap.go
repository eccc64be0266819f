package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// wrap wraps text, which may hold ANSI styles, to lines of at most width
// cells. It breaks a line only at spaces, and inside a word only when the
// word is wider than a whole line. Unlike ansi.Wrap it never breaks after a
// hyphen, so a negative number stays whole, and no line it returns is wider
// than width. A line keeps its indentation on its first row; the spaces at
// a break are dropped. Tabs become four spaces.
func wrap(text string, width int) []string {
	width = max(1, width)
	var out []string
	for _, line := range strings.Split(strings.ReplaceAll(text, "\t", "    "), "\n") {
		out = append(out, wrapLine(line, width)...)
	}
	return out
}

// cell is one grapheme of a line: where it starts, in cells, and how wide
// it is.
type cell struct {
	at, width int
	space     bool
}

// cells lists the graphemes of the visible text of a line.
func cells(line string) []cell {
	plain := ansi.Strip(line)
	var out []cell
	at := 0
	for plain != "" {
		g, w := ansi.FirstGraphemeCluster(plain, ansi.GraphemeWidth)
		plain = plain[len(g):]
		out = append(out, cell{at: at, width: w, space: g == " "})
		at += w
	}
	return out
}

// wrapLine wraps one line (no newline in it) to width cells.
func wrapLine(line string, width int) []string {
	cs := cells(line)
	if len(cs) == 0 {
		return []string{line}
	}
	var out []string
	emit := func(from, to int) { out = append(out, ansi.Cut(line, from, to)) }
	start, end := 0, 0 // the row being filled: cells [start, end)
	for i := 0; i < len(cs); {
		if cs[i].space {
			i++
			continue
		}
		// The word is cells[i:j].
		j := i
		for j < len(cs) && !cs[j].space {
			j++
		}
		wordStart, wordEnd := cs[i].at, cs[j-1].at+cs[j-1].width
		if wordEnd-start > width && end > start {
			// The word does not fit after what the row holds: a new row.
			emit(start, end)
			start = wordStart
		}
		if wordEnd-start > width && start < wordStart && wordEnd-wordStart <= width {
			// Indentation and word do not fit together; the word alone does.
			start = wordStart
		}
		// A word wider than a row is cut at the last grapheme that fits.
		for k := i; wordEnd-start > width; {
			if start < wordStart {
				start = wordStart
				continue
			}
			for k < j && cs[k].at+cs[k].width-start <= width {
				k++
			}
			if cs[k].at == start { // one grapheme wider than a row
				k++
			}
			cut := wordEnd
			if k < j {
				cut = cs[k].at
			}
			emit(start, cut)
			start = cut
		}
		end = wordEnd
		i = j
	}
	if end > start {
		emit(start, end)
	} else if len(out) == 0 {
		out = append(out, "")
	}
	return out
}
