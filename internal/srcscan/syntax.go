package srcscan

// Syntax chooses the lexical rules of a language. The zero value is Python.
// Syntax values are small and immutable; they are safe for concurrent use.
type Syntax struct {
	java bool
	// angles counts < and > as brackets (Java type lists).
	angles bool
}

// Python is the syntax of Python 3 source (up to 3.14's t-strings).
var Python = Syntax{}

// Java is the syntax of Java source.
var Java = Syntax{java: true}

// WithAngles returns sx with < and > counted as brackets, for lists of
// generic types such as "Map<String, Integer> m, int n". Do not use it on
// expressions, where < and > compare.
func (sx Syntax) WithAngles() Syntax {
	sx.angles = true
	return sx
}

// Name returns "python" or "java".
func (sx Syntax) Name() string {
	if sx.java {
		return "java"
	}
	return "python"
}

// Kind says what a Span holds.
type Kind uint8

// The kinds of span.
const (
	// Code is anything outside literals and comments.
	Code Kind = iota
	// String is a string (or Java char) literal, with its prefix.
	String
	// Comment is a comment, with its markers; a line comment ends before
	// its newline.
	Comment
)

// Span is one piece of source: offsets into the scanned text.
type Span struct {
	Kind Kind
	// Start and End delimit the whole piece, prefix and quotes included.
	Start, End int
	// BodyStart and BodyEnd delimit a literal's contents between its
	// quotes, or a comment's text after its opening marker (and before */).
	// For Code they equal Start and End.
	BodyStart, BodyEnd int
	// Long is set for triple-quoted Python literals, Java text blocks and
	// Java block comments.
	Long bool
	// Closed is false for a literal or block comment that the text ends
	// (or, for a one-line literal, the line ends) before it is closed.
	Closed bool
	// Depth is the bracket depth after this piece (Pieces only): an opening
	// bracket's piece has the depth inside it, a closing one the depth
	// outside. It goes below zero after unbalanced closing brackets.
	Depth int
}

// Text returns the span's text in src.
func (s Span) Text(src string) string { return src[s.Start:s.End] }

// Body returns the span's body in src (see BodyStart).
func (s Span) Body(src string) string { return src[s.BodyStart:s.BodyEnd] }

// isOpen and isClose report brackets of the syntax.
func (sx Syntax) isOpen(c byte) bool {
	return c == '(' || c == '[' || c == '{' || sx.angles && c == '<'
}

func (sx Syntax) isClose(c byte) bool {
	return c == ')' || c == ']' || c == '}' || sx.angles && c == '>'
}

// IsNameByte reports whether c can be part of an identifier or a number in
// the syntax. Bytes of multi-byte UTF-8 sequences count, so non-ASCII
// identifiers stay whole.
func (sx Syntax) IsNameByte(c byte) bool {
	return c == '_' || c >= 0x80 || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') ||
		sx.java && c == '$'
}
