package srcscan

import "strings"

// maxFieldNesting bounds how deeply f-string replacement fields nest
// (f"{f"{...}"}"): deeper fields are read as plain text, so that hostile
// text cannot drive the scanner's recursion.
const maxFieldNesting = 32

// IsStringPrefix reports whether p is a Python string prefix: r, u, b, f,
// t and the combinations Python accepts (br, rb, fr, rf, tr, rt), in any
// case.
func IsStringPrefix(p string) bool {
	if len(p) > 2 {
		return false
	}
	switch strings.ToLower(p) {
	case "r", "u", "b", "f", "t", "br", "rb", "fr", "rf", "tr", "rt":
		return true
	}
	return false
}

// LiteralAt returns the literal that starts at src[i]: a quote, or for
// Python a string prefix directly followed by a quote. The caller should
// ask only at the start of a token (a prefix glued to the end of a name,
// as in xr"..", is not a prefix). ok is false when no literal starts at i.
func (sx Syntax) LiteralAt(src string, i int) (lit Span, ok bool) {
	if i < 0 || i >= len(src) {
		return Span{}, false
	}
	if sx.java {
		if src[i] != '"' && src[i] != '\'' {
			return Span{}, false
		}
		return javaLiteral(src, i), true
	}
	q := i
	for q < len(src) && q-i <= 2 && isLetter(src[q]) {
		q++
	}
	if q >= len(src) || src[q] != '"' && src[q] != '\'' || q > i && !IsStringPrefix(src[i:q]) {
		return Span{}, false
	}
	return pyLiteral(src, i, q, 0), true
}

// CommentAt returns the comment that starts at src[i]: # in Python, // or
// /* in Java. ok is false when none starts there.
func (sx Syntax) CommentAt(src string, i int) (c Span, ok bool) {
	if i < 0 || i >= len(src) {
		return Span{}, false
	}
	switch {
	case !sx.java && src[i] == '#', sx.java && strings.HasPrefix(src[i:], "//"):
		body := i + 1
		if sx.java {
			body = i + 2
		}
		end := strings.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		return Span{Kind: Comment, Start: i, End: end, BodyStart: body, BodyEnd: end, Closed: true}, true
	case sx.java && strings.HasPrefix(src[i:], "/*"):
		k := strings.Index(src[i+2:], "*/")
		if k < 0 {
			return Span{Kind: Comment, Start: i, End: len(src), BodyStart: i + 2, BodyEnd: len(src), Long: true}, true
		}
		end := i + 2 + k
		return Span{Kind: Comment, Start: i, End: end + 2, BodyStart: i + 2, BodyEnd: end, Long: true, Closed: true}, true
	}
	return Span{}, false
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// pyLiteral scans the Python literal whose prefix starts at start and whose
// opening quote is at q. nest is the depth of f-string fields around it.
func pyLiteral(src string, start, q, nest int) Span {
	p := strings.ToLower(src[start:q])
	return scanLiteral(src, start, q, isTriple(src, q), strings.ContainsAny(p, "ft") && nest < maxFieldNesting, nest)
}

// isTriple reports whether the quote at q opens a triple-quoted literal.
func isTriple(src string, q int) bool {
	return q+2 < len(src) && src[q+1] == src[q] && src[q+2] == src[q]
}

// scanLiteral scans the literal whose prefix starts at start and whose
// opening quote (three of them when long) is at q: a backslash escapes the
// next byte, a one-line literal ends unclosed at a newline, and with fields
// the f-string replacement fields are skipped (pyField), nest deep.
func scanLiteral(src string, start, q int, long, fields bool, nest int) Span {
	quote := src[q]
	open := 1
	if long {
		open = 3
	}
	lit := Span{Kind: String, Start: start, BodyStart: q + open, Long: long}
	for i := q + open; i < len(src); {
		c := src[i]
		switch {
		case c == '\\':
			// In raw literals too, an escaped quote does not end the literal.
			i += 2
			continue
		case c == quote && (!long || strings.HasPrefix(src[i:], src[q:q+3])):
			lit.BodyEnd, lit.End, lit.Closed = i, i+open, true
			return lit
		case c == '\n' && !long:
			lit.BodyEnd, lit.End = i, i
			return lit
		case fields && c == '{':
			if i+1 < len(src) && src[i+1] == '{' {
				i += 2
				continue
			}
			end, ok := pyField(src, i+1, nest+1, long)
			if !ok {
				lit.BodyEnd, lit.End = end, end
				return lit
			}
			i = end
			continue
		}
		i++
	}
	lit.BodyEnd, lit.End = len(src), len(src)
	if lit.BodyEnd < lit.BodyStart {
		lit.BodyEnd = lit.BodyStart
	}
	return lit
}

// pyField scans an f-string replacement field from just after its {: an
// expression (which may hold literals, with any quote), an optional !
// conversion and : format spec (which may hold nested fields), and the
// closing }. It returns the offset just past the }, or where the text (or,
// in a one-line literal, the line) ended first, with ok false.
func pyField(src string, i, nest int, triple bool) (end int, ok bool) {
	depth := 0
	spec := false
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n' && !triple:
			return i, false
		case spec && c == '{':
			e, ok := pyField(src, i+1, nest+1, triple)
			if !ok {
				return e, false
			}
			i = e
			continue
		case c == '}' && depth == 0:
			return i + 1, true
		case spec:
		case c == '"' || c == '\'':
			start := i
			for start > 0 && i-start < 2 && isLetter(src[start-1]) {
				start--
			}
			if !IsStringPrefix(src[start:i]) || start > 0 && Python.IsNameByte(src[start-1]) {
				start = i
			}
			lit := pyLiteral(src, start, i, nest)
			if !lit.Closed {
				return lit.End, false
			}
			i = lit.End
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ':' && depth == 0:
			spec = true
		}
		i++
	}
	return len(src), false
}

// javaLiteral scans the Java string, char literal or text block at q.
func javaLiteral(src string, q int) Span {
	return scanLiteral(src, q, q, src[q] == '"' && isTriple(src, q), false, 0)
}
