package dataset

import (
	"strings"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// docstringAfter returns the text of the first string literal among the
// statements of the body that starts at token index body, for prompts such as
// HumanEval/115 where an import precedes the docstring. The literal's raw
// text is returned (escape sequences are not interpreted) and cleaned like
// Python's inspect.cleandoc.
func docstringAfter(src string, toks []srcscan.Token, body int) (string, bool) {
	for j := body; j < len(toks); j++ {
		if toks[j].Kind != srcscan.Str {
			continue
		}
		if lit, ok := srcscan.Python.LiteralAt(src, toks[j].Start); ok {
			return cleandoc(lit.Body(src)), true
		}
	}
	return "", false
}

// cleandoc normalises docstring text as Python's inspect.cleandoc does: tabs
// are expanded, the first line loses its leading white space, later lines
// their common indentation, and leading and trailing empty lines are dropped.
// Unlike Python 3.11, a line of only white space counts as empty, so the
// indentation before closing quotes never ends a description.
func cleandoc(doc string) string {
	lines := strings.Split(expandTabs(doc), "\n")
	const ws = " \t\n\r\f\v"
	margin := -1
	for _, l := range lines[1:] {
		if content := len(strings.TrimLeft(l, ws)); content > 0 {
			if indent := len(l) - content; margin < 0 || indent < margin {
				margin = indent
			}
		}
	}
	lines[0] = strings.TrimLeft(lines[0], ws)
	for i := 1; i < len(lines); i++ {
		if margin >= 0 {
			lines[i] = lines[i][min(margin, len(lines[i])):]
		}
		if strings.TrimLeft(lines[i], ws) == "" {
			lines[i] = ""
		}
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	return strings.Join(lines, "\n")
}

// expandTabs replaces tabs with spaces up to the next multiple of 8 columns,
// like Python's str.expandtabs; columns restart after "\n" and "\r".
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n', '\r':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// topLevelSegments splits src into its top-level statements: each segment
// runs from the start of a line whose first token is at column 0 to the start
// of the next such line, so it carries its trailing blank lines and comments.
// Text before the first statement forms a segment with keyword "". keyword is
// the statement's first token ("def", "class", "import", "@", ...).
func topLevelSegments(src string, toks []srcscan.Token) []segment {
	var segs []segment
	prev, prevKw := 0, ""
	for _, t := range toks {
		if !t.First || srcscan.Column(src, t.Start) != 0 {
			continue
		}
		if t.Start > prev || prevKw != "" {
			segs = append(segs, segment{text: src[prev:t.Start], keyword: prevKw})
		}
		prev, prevKw = t.Start, t.Text(src)
	}
	if len(src) > prev || prevKw != "" {
		segs = append(segs, segment{text: src[prev:], keyword: prevKw})
	}
	return segs
}

// segment is one top-level statement with its trailing blank lines and
// comments.
type segment struct {
	text    string
	keyword string
}

// dropFunctionDefs removes top-level function definitions (with their
// decorators) from src and keeps everything else: imports, assignments,
// classes, comments.
func dropFunctionDefs(src string) string {
	segs := topLevelSegments(src, srcscan.Tokens(src))
	var b strings.Builder
	for i := 0; i < len(segs); i++ {
		// A run of decorators belongs to the statement that follows it.
		j := i
		for j < len(segs) && segs[j].keyword == "@" {
			j++
		}
		isFunc := j < len(segs) && (segs[j].keyword == "def" || segs[j].keyword == "async")
		if j == len(segs) {
			j = len(segs) - 1
		}
		if !isFunc {
			for k := i; k <= j; k++ {
				b.WriteString(segs[k].text)
			}
		}
		i = j
	}
	return b.String()
}
