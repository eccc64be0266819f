package srcscan

import "strings"

// TokKind classifies the coarse Python tokens of Tokens.
type TokKind uint8

// The token kinds.
const (
	// Name is an identifier, keyword or number.
	Name TokKind = iota
	// Str is a string literal, prefix and quotes included.
	Str
	// Op is one punctuation byte, or "->".
	Op
	// Newline ends a logical line (outside brackets).
	Newline
)

// Token is one coarse Python token: enough to find def lines, the colon
// that ends a signature, docstrings and top-level statements without
// running Python. Offsets are byte offsets into the scanned source.
type Token struct {
	Kind       TokKind
	Start, End int
	// Depth is the bracket nesting depth before the token (never below 0).
	Depth int
	// First reports whether the token starts a logical line.
	First bool
}

// Text returns the token's source text.
func (t Token) Text(src string) string { return src[t.Start:t.End] }

// Tokens splits Python source into coarse tokens. Comments and white space
// are skipped, and so are backslash-newline line joins; unbalanced closing
// brackets leave the depth at zero.
func Tokens(src string) []Token {
	var toks []Token
	depth := 0
	lineStart := true // the next token starts a logical line
	add := func(k TokKind, start, end int) {
		toks = append(toks, Token{Kind: k, Start: start, End: end, Depth: depth, First: lineStart})
		lineStart = false
	}
	skip := 0 // bytes of code already consumed (a line join, "->")
	for s := range Python.Pieces(src) {
		if s.Start < skip {
			continue
		}
		switch s.Kind {
		case Comment:
			continue
		case String:
			add(Str, s.Start, s.End)
			continue
		}
		c := src[s.Start]
		switch {
		case c == '\n':
			if depth == 0 && !lineStart {
				toks = append(toks, Token{Kind: Newline, Start: s.Start, End: s.End})
				lineStart = true
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
		case c == '\\' && strings.HasPrefix(src[s.End:], "\n"):
			skip = s.End + 1
		case c == '\\' && strings.HasPrefix(src[s.End:], "\r\n"):
			skip = s.End + 2
		case Python.IsNameByte(c):
			add(Name, s.Start, s.End)
		case c == '-' && strings.HasPrefix(src[s.End:], ">"):
			add(Op, s.Start, s.End+1)
			skip = s.End + 1
		default:
			add(Op, s.Start, s.End)
			if Python.isOpen(c) {
				depth++
			} else if Python.isClose(c) && depth > 0 {
				depth--
			}
		}
	}
	return toks
}

// LineStart returns the offset of the first byte of the line holding off.
func LineStart(src string, off int) int {
	return strings.LastIndexByte(src[:off], '\n') + 1
}

// Column returns how many bytes precede off on its line.
func Column(src string, off int) int { return off - LineStart(src, off) }

// Def is where a function's definition is in its source.
type Def struct {
	// Start is the offset of the line holding "def" (or "async def"),
	// decorators excluded.
	Start int
	// Open is the offset of the parenthesis that opens the parameters.
	Open int
	// Colon is the offset just past the colon that ends the signature, or
	// -1 when the def line has none (it is incomplete).
	Colon int
	// Body is the index in the tokens of the first token after that colon.
	Body int
	// TopLevel is set when the def is at column 0.
	TopLevel bool
}

// FindDef locates the definition of function name in src, whose tokens
// (Tokens(src)) are toks, ignoring literals and comments. A top-level
// definition is preferred; failing that, the first one at any indentation.
func FindDef(src string, toks []Token, name string) (Def, bool) {
	best := -1
	for i := 0; i+2 < len(toks); i++ {
		t := toks[i]
		if t.Kind != Name || t.Text(src) != "def" || t.Depth != 0 {
			continue
		}
		if !t.First && !(i > 0 && toks[i-1].First && toks[i-1].Text(src) == "async") {
			continue
		}
		if toks[i+1].Text(src) != name || toks[i+2].Text(src) != "(" {
			continue
		}
		if best < 0 || Column(src, t.Start) == 0 && Column(src, toks[best].Start) != 0 {
			best = i
		}
		if Column(src, t.Start) == 0 {
			break
		}
	}
	if best < 0 {
		return Def{}, false
	}
	first := best // the def line may start with "async"
	if !toks[best].First {
		first = best - 1
	}
	d := Def{Start: LineStart(src, toks[first].Start), Open: toks[best+2].Start, Colon: -1, Body: len(toks),
		TopLevel: Column(src, toks[first].Start) == 0}
	for j := best + 3; j < len(toks); j++ {
		t := toks[j]
		if t.Kind == Newline {
			break // a def line without its colon
		}
		if t.Kind == Op && t.Depth == 0 && t.Text(src) == ":" {
			d.Colon, d.Body = t.End, j+1
			break
		}
	}
	return d, true
}
