package demo

import "strings"

// SplitAssert splits a one-line `assert CALL == EXPECTED` into CALL and
// EXPECTED, at the last `==` outside brackets and string literals. It
// reports false when line has another form. It understands enough Python for
// the demo's own tests (quotes with backslash escapes, brackets), not all of
// Python's grammar.
func SplitAssert(line string) (call, expected string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(line), "assert ")
	if !found {
		return "", "", false
	}
	depth, at := 0, -1
	var quote byte
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth < 0 {
				return "", "", false
			}
		case c == '#':
			if depth == 0 {
				rest = rest[:i]
			}
		case depth == 0 && c == '=' && i+1 < len(rest) && rest[i+1] == '=':
			if i > 0 && strings.ContainsRune("!<>=", rune(rest[i-1])) {
				continue
			}
			at = i
			i++
		}
	}
	if quote != 0 || depth != 0 || at < 0 {
		return "", "", false
	}
	call = strings.TrimSpace(rest[:at])
	expected = strings.TrimSpace(rest[at+2:])
	if call == "" || expected == "" {
		return "", "", false
	}
	return call, expected, true
}
