package dataset

import (
	"strings"
)

// tokKind classifies the coarse Python tokens that pyTokens produces.
type tokKind int

const (
	tokName    tokKind = iota // identifier, keyword or number
	tokString                 // string literal, prefix and quotes included
	tokOp                     // one punctuation character, or "->"
	tokNewline                // end of a logical line (outside brackets)
)

// token is one coarse Python token: enough to find def lines, the colon that
// ends a signature, docstrings and top-level statements without running
// Python. Offsets are byte offsets into the scanned source.
type token struct {
	kind       tokKind
	start, end int
	// depth is the bracket nesting depth before the token.
	depth int
	// first reports whether the token starts a logical line.
	first bool
}

// text returns the token's source text.
func (t token) text(src string) string { return src[t.start:t.end] }

// pyTokens splits Python source into coarse tokens. It never fails: an
// unterminated string runs to the end of the source, unbalanced brackets
// leave the depth where it is (never below zero). Comments are skipped.
func pyTokens(src string) []token {
	var toks []token
	depth := 0
	lineStart := true // the next token starts a logical line
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			if depth == 0 && !lineStart {
				toks = append(toks, token{kind: tokNewline, start: i, end: i + 1})
				lineStart = true
			}
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2 // explicit line joining
		case c == '\\' && i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n':
			i += 3
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			end := scanString(src, i)
			toks = append(toks, token{kind: tokString, start: i, end: end, depth: depth, first: lineStart})
			lineStart = false
			i = end
		case isNameByte(c):
			j := i
			for j < len(src) && isNameByte(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '"' || src[j] == '\'') && isStringPrefix(src[i:j]) {
				end := scanString(src, j)
				toks = append(toks, token{kind: tokString, start: i, end: end, depth: depth, first: lineStart})
				lineStart = false
				i = end
				continue
			}
			toks = append(toks, token{kind: tokName, start: i, end: j, depth: depth, first: lineStart})
			lineStart = false
			i = j
		default:
			end := i + 1
			if c == '-' && i+1 < len(src) && src[i+1] == '>' {
				end = i + 2
			}
			toks = append(toks, token{kind: tokOp, start: i, end: end, depth: depth, first: lineStart})
			lineStart = false
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
			}
			i = end
		}
	}
	return toks
}

// isNameByte reports whether c can be part of an identifier or number. Bytes
// of multi-byte UTF-8 sequences count, so non-ASCII identifiers stay whole.
func isNameByte(c byte) bool {
	return c == '_' || c >= 0x80 || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// isStringPrefix reports whether p is a Python string prefix (r, b, u, f and
// their combinations, any case).
func isStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf", "t", "tr", "rt":
		return true
	}
	return false
}

// scanString returns the offset just past the string literal that opens
// with the quote at q (any prefix precedes q). An unterminated literal
// ends at the end of the line (single-quoted) or of the source (triple).
func scanString(src string, q int) int {
	quote := src[q]
	triple := q+2 < len(src) && src[q+1] == quote && src[q+2] == quote
	i := q + 1
	if triple {
		i = q + 3
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\':
			i += 2 // in raw strings too, an escaped quote does not end the literal
			continue
		case c == quote && triple:
			if i+2 < len(src) && src[i+1] == quote && src[i+2] == quote {
				return i + 3
			}
		case c == quote:
			return i + 1
		case c == '\n' && !triple:
			return i
		}
		i++
	}
	return len(src)
}

// lineStartOf returns the offset of the first byte of the line holding off.
func lineStartOf(src string, off int) int {
	return strings.LastIndexByte(src[:off], '\n') + 1
}

// column returns how many bytes precede off on its line.
func column(src string, off int) int { return off - lineStartOf(src, off) }

// defSpan locates the definition of function name in src: start is the
// offset of the line holding "def" (decorators excluded), colon the offset just
// past the colon that ends the signature, and body the index of the first
// token after that colon. A top-level definition is preferred; failing that,
// the first one at any indentation.
func defSpan(src string, toks []token, name string) (start, colon, body int, ok bool) {
	best := -1
	for i := 0; i+2 < len(toks); i++ {
		t := toks[i]
		if t.kind != tokName || t.text(src) != "def" || t.depth != 0 {
			continue
		}
		if !t.first && !(i > 0 && toks[i-1].first && toks[i-1].text(src) == "async") {
			continue
		}
		if toks[i+1].text(src) != name || toks[i+2].text(src) != "(" {
			continue
		}
		if best < 0 || column(src, t.start) == 0 && column(src, toks[best].start) != 0 {
			best = i
		}
		if column(src, t.start) == 0 {
			break
		}
	}
	if best < 0 {
		return 0, 0, 0, false
	}
	// The def line may start with "async".
	first := best
	if !toks[best].first {
		first = best - 1
	}
	for j := best + 3; j < len(toks); j++ {
		t := toks[j]
		if t.kind == tokNewline {
			return 0, 0, 0, false // a def line without its colon
		}
		if t.kind == tokOp && t.depth == 0 && t.text(src) == ":" {
			return lineStartOf(src, toks[first].start), t.end, j + 1, true
		}
	}
	return 0, 0, 0, false
}

// docstringAfter returns the text of the first string literal among the
// statements of the body that starts at token index body, for prompts such as
// HumanEval/115 where an import precedes the docstring. The literal's raw
// text is returned (escape sequences are not interpreted) and cleaned like
// Python's inspect.cleandoc.
func docstringAfter(src string, toks []token, body int) (string, bool) {
	for j := body; j < len(toks); j++ {
		t := toks[j]
		if t.kind == tokString {
			return cleandoc(stringContent(t.text(src))), true
		}
	}
	return "", false
}

// stringContent strips a literal's prefix and quotes.
func stringContent(lit string) string {
	i := strings.IndexAny(lit, `"'`)
	if i < 0 {
		return lit
	}
	lit = lit[i:]
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(lit, q) {
			lit = lit[len(q):]
			return strings.TrimSuffix(lit, q)
		}
	}
	return lit
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
func topLevelSegments(src string, toks []token) []segment {
	var segs []segment
	prev, prevKw := 0, ""
	for _, t := range toks {
		if !t.first || column(src, t.start) != 0 {
			continue
		}
		if t.start > prev || prevKw != "" {
			segs = append(segs, segment{text: src[prev:t.start], keyword: prevKw})
		}
		prev, prevKw = t.start, t.text(src)
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
	segs := topLevelSegments(src, pyTokens(src))
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
