package srcscan

import "iter"

// Pieces returns the text as consecutive spans that tile it: literals and
// comments whole, names (and numbers) whole, and every other byte of code as
// a span of its own, each with the bracket depth after it.
func (sx Syntax) Pieces(src string) iter.Seq[Span] {
	return func(yield func(Span) bool) {
		depth := 0
		for i := 0; i < len(src); {
			s, ok := sx.pieceAt(src, i)
			if !ok {
				c := src[i]
				s = Span{Kind: Code, Start: i, End: i + 1}
				switch {
				case sx.IsNameByte(c):
					for s.End < len(src) && sx.IsNameByte(src[s.End]) {
						s.End++
					}
				case sx.isOpen(c):
					depth++
				case sx.isClose(c):
					depth--
				}
				s.BodyStart, s.BodyEnd, s.Closed = s.Start, s.End, true
			}
			s.Depth = depth
			if !yield(s) {
				return
			}
			i = s.End
		}
	}
}

// pieceAt returns the literal or comment at i, where i starts a token.
func (sx Syntax) pieceAt(src string, i int) (Span, bool) {
	if s, ok := sx.CommentAt(src, i); ok {
		return s, true
	}
	return sx.LiteralAt(src, i)
}

// MatchBracket returns the offset just past the bracket that closes the
// one at src[open], skipping literals and comments, or -1 when src[open] is
// not an opening bracket or the text ends first. Bracket types are not
// matched against each other: "(]" counts as closed.
func (sx Syntax) MatchBracket(src string, open int) int {
	if open < 0 || open >= len(src) || !sx.isOpen(src[open]) {
		return -1
	}
	for s := range sx.Pieces(src[open:]) {
		if s.Depth <= 0 {
			return open + s.End
		}
	}
	return -1
}

// SplitTop splits src at each sep byte outside brackets, literals and
// comments. The parts keep their white space; joined with sep they give
// src back.
func (sx Syntax) SplitTop(src string, sep byte) []string {
	var out []string
	start := 0
	for s := range sx.Pieces(src) {
		if s.Kind == Code && s.Depth == 0 && src[s.Start] == sep {
			out = append(out, src[start:s.Start])
			start = s.End
		}
	}
	return append(out, src[start:])
}

// Balanced reports whether every bracket of src is closed, none closes
// below depth zero, and every literal and block comment is closed.
func (sx Syntax) Balanced(src string) bool {
	depth := 0
	for s := range sx.Pieces(src) {
		if !s.Closed || s.Depth < 0 {
			return false
		}
		depth = s.Depth
	}
	return depth == 0
}
