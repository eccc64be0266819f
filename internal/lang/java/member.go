package java

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// ErrNoMethod matches (with errors.Is) every error of LocateMethod about a
// method that is not there or cannot be written as asked.
var ErrNoMethod = errors.New("no such method")

// Member is a method declared by a top-level class of a Java source file,
// as LocateMethod finds it. Offsets are byte offsets into the source.
type Member struct {
	// Package is the file's package ("" for the unnamed package); Class the
	// class that declares the method; Name the method's name.
	Package, Class, Name string
	// Imports are the file's import declarations, as written.
	Imports []string
	// ImportsEnd is where a new import line goes: the start of the line
	// after the last import, else after the package declaration's line,
	// else 0.
	ImportsEnd int
	// Start is the start of the line where the declaration begins with its
	// Javadoc; Decl where its annotations begin (after the Javadoc); Sig
	// its first token after the annotations (modifiers or type); Open its
	// body's '{'; Close just past its '}'; End past the line end after
	// Close when only blanks follow it.
	Start, Decl, Sig, Open, Close, End int
	// Indent is the indentation of the declaration's line.
	Indent string
	// Static reports a static method; Stub a body that is a stub (see
	// IsStubBody).
	Static, Stub bool
	// Javadoc is the Javadoc comment's text without its markers and
	// leading stars; Signature the declaration from Sig to the body.
	Javadoc, Signature string
}

// token is a piece of code with the bracket depth before it.
type token struct {
	start, end, depth int
	text              string
}

// codeTokens returns the code pieces of source (no blanks, literals as one
// token each) and the comments.
func codeTokens(source string) ([]token, []srcscan.Span) {
	var toks []token
	var comments []srcscan.Span
	prev := 0
	for s := range srcscan.Java.Pieces(source) {
		before := prev
		prev = s.Depth
		if s.Kind == srcscan.Comment {
			comments = append(comments, s)
			continue
		}
		text := source[s.Start:s.End]
		if strings.TrimSpace(text) == "" {
			continue
		}
		toks = append(toks, token{start: s.Start, end: s.End, depth: before, text: text})
	}
	return toks, comments
}

// tokensOf returns the code tokens of source.
func tokensOf(source string) []token {
	toks, _ := codeTokens(source)
	return toks
}

// LocateMethod finds the method name of the top-level class class (any
// top-level class that declares it when class is "") in source. It fails,
// matching ErrNoMethod, when there is no such method, when it is
// overloaded, or when it has no body.
func LocateMethod(source, class, name string) (Member, error) {
	toks, comments := codeTokens(source)
	m := Member{Name: name}
	m.Package, m.Imports, m.ImportsEnd = header(source, toks)
	open, close, cls := -1, -1, ""
	for i := 0; i+2 < len(toks); i++ {
		t := toks[i]
		if t.depth != 0 || t.text != "class" || class != "" && toks[i+1].text != class {
			continue
		}
		k := i + 2
		for k < len(toks) && toks[k].text != "{" {
			k++
		}
		if k == len(toks) {
			break
		}
		end := findClose(toks, k)
		if class != "" || declaredAt(toks, k, end, name) >= 0 {
			open, close, cls = k, end, toks[i+1].text
			break
		}
	}
	if open < 0 {
		if class == "" {
			return m, fmt.Errorf("%w: no class declares a method %s", ErrNoMethod, name)
		}
		return m, fmt.Errorf("%w: no top-level class %s", ErrNoMethod, class)
	}
	m.Class = cls
	at := declaredAt(toks, open, close, name)
	if at < 0 {
		return m, fmt.Errorf("%w: class %s declares no method %s", ErrNoMethod, cls, name)
	}
	if declaredFrom(toks, at+1, close, toks[at].depth, name) >= 0 {
		return m, fmt.Errorf("%w: %s.%s is overloaded; ticoder writes one method, so give it a name of its own", ErrNoMethod, cls, name)
	}
	if err := m.declaration(source, toks, comments, open, at); err != nil {
		return m, err
	}
	return m, nil
}

// header reads the package and import declarations at the top of a file.
func header(source string, toks []token) (pkg string, imports []string, end int) {
	for i := 0; i < len(toks); i++ {
		kw := toks[i].text
		if toks[i].depth != 0 || kw != "package" && kw != "import" {
			if kw != "@" && kw != ";" {
				break
			}
			continue
		}
		k := i
		for k < len(toks) && toks[k].text != ";" {
			k++
		}
		if k == len(toks) {
			break
		}
		text := source[toks[i].start:toks[k].end]
		if kw == "package" {
			pkg = strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimPrefix(text, "package"), ";")), "")
		} else {
			imports = append(imports, text)
		}
		end = lineEnd(source, toks[k].end)
		i = k
	}
	return pkg, imports, end
}

// lineEnd returns the offset after the newline at or after off (or the
// end of source).
func lineEnd(source string, off int) int {
	if i := strings.IndexByte(source[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(source)
}

// findClose returns the index of the token that closes the bracket
// token k, or len(toks).
func findClose(toks []token, k int) int {
	for j := k + 1; j < len(toks); j++ {
		if toks[j].depth == toks[k].depth+1 && (toks[j].text == "}" || toks[j].text == ")" || toks[j].text == "]") {
			return j
		}
	}
	return len(toks)
}

// notBeforeName are the words after which a name followed by '(' is a
// call, not a declaration.
var notBeforeName = map[string]bool{"new": true, "return": true, "throw": true, "else": true, "case": true, "yield": true}

// declaredAt returns the index of the name token of method name declared
// directly in the class body between tokens open and close, or -1.
func declaredAt(toks []token, open, close int, name string) int {
	return declaredFrom(toks, open+1, close, toks[open].depth+1, name)
}

// declaredFrom returns the index of the first name token of method name
// declared at depth between tokens from and to, or -1.
func declaredFrom(toks []token, from, to, depth int, name string) int {
	for i := from; i < to && i+1 < len(toks); i++ {
		t := toks[i]
		if t.depth != depth || t.text != name || toks[i+1].text != "(" {
			continue
		}
		p := toks[i-1].text
		if p == ">" || p == "]" || srcscan.Java.IsNameByte(p[0]) && !notBeforeName[p] {
			return i
		}
	}
	return -1
}

// declaration fills in m for the method whose name is token at, in the
// class body that opens at token open.
func (m *Member) declaration(source string, toks []token, comments []srcscan.Span, open, at int) error {
	depth := toks[open].depth + 1
	first := at
	for first-1 > open {
		p := toks[first-1]
		if p.depth == depth && p.text == ";" || p.depth == depth+1 && p.text == "}" {
			break
		}
		first--
	}
	boundary := toks[first-1].end
	m.Decl = srcscan.LineStart(source, toks[first].start)
	m.Start = m.Decl
	for _, c := range comments {
		if c.Start >= boundary && c.End <= toks[first].start && strings.HasPrefix(source[c.Start:], "/**") {
			m.Start = srcscan.LineStart(source, c.Start)
			m.Javadoc = javadocText(source[c.Start:c.End])
		}
	}
	sig := skipAnnotations(toks, first, at)
	m.Sig = toks[sig].start
	line := source[m.Decl:]
	m.Indent = line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	for _, t := range toks[first:at] {
		m.Static = m.Static || t.text == "static"
	}
	k := findClose(toks, at+1) + 1
	for k < len(toks) && toks[k].text != "{" && toks[k].text != ";" {
		k++
	}
	if k == len(toks) || toks[k].text == ";" {
		return fmt.Errorf("%w: %s.%s has no body", ErrNoMethod, m.Class, m.Name)
	}
	end := findClose(toks, k)
	if end == len(toks) {
		return fmt.Errorf("%w: the body of %s.%s does not end", ErrNoMethod, m.Class, m.Name)
	}
	m.Open, m.Close = toks[k].start, toks[end].end
	m.End = m.Close
	if e := lineEnd(source, m.Close); strings.TrimSpace(source[m.Close:e]) == "" {
		m.End = e
	}
	m.Signature = strings.TrimSpace(source[m.Sig:m.Open])
	m.Stub = IsStubBody(source[m.Open+1 : m.Close-1])
	return nil
}

// skipAnnotations returns the index of the first token from first (up to
// at) that is not part of an annotation.
func skipAnnotations(toks []token, first, at int) int {
	i := first
	for i < at && toks[i].text == "@" && toks[i+1].text != "interface" {
		i += 2
		for i+1 < at && toks[i].text == "." {
			i += 2
		}
		if i < at && toks[i].text == "(" {
			i = findClose(toks, i) + 1
		}
	}
	return min(i, at)
}

// javadocText returns a Javadoc comment's text without /**, */ and the
// stars that start its lines.
func javadocText(c string) string {
	c = strings.TrimSuffix(strings.TrimPrefix(c, "/**"), "*/")
	var lines []string
	for _, l := range strings.Split(c, "\n") {
		lines = append(lines, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "*")))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// stubBody matches, without comments and blanks, the bodies IsStubBody
// reports: nothing, throwing UnsupportedOperationException, or returning
// a default value.
var stubBody = regexp.MustCompile(`^(|thrownew(java\.lang\.)?UnsupportedOperationException\(.*\);|` +
	`return(null|false|0|0[lLdDfF]|0\.0|0\.0[dDfF]|""|'\\0');)$`)

// IsStubBody reports whether a method's body (the text between its
// braces) is a stub: empty, only `throw new
// UnsupportedOperationException(...)`, or only a return of a default value
// (null, false, 0 in any numeric form, "" or '\0'); comments do not count.
// Any other body is an implementation.
func IsStubBody(body string) bool {
	var b strings.Builder
	for s := range srcscan.Java.Pieces(body) {
		if s.Kind != srcscan.Comment {
			b.WriteString(strings.Join(strings.Fields(body[s.Start:s.End]), ""))
		}
	}
	return stubBody.MatchString(b.String())
}
