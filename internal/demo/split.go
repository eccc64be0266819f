package demo

import (
	"strings"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// SplitAssert splits a one-line `assert CALL == EXPECTED` into CALL and
// EXPECTED, at the last `==` outside brackets, string literals and a
// trailing comment (srcscan reads the Python). It reports false when line
// has another form or its brackets or literals are not closed.
func SplitAssert(line string) (call, expected string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(line), "assert ")
	if !found {
		return "", "", false
	}
	at, end := -1, len(rest)
	for s := range srcscan.Python.Pieces(rest) {
		if s.Kind == srcscan.Comment && s.Depth == 0 {
			end = s.Start
			break
		}
		if s.Depth < 0 || !s.Closed {
			return "", "", false
		}
		if s.Kind == srcscan.Code && s.Depth == 0 && strings.HasPrefix(rest[s.Start:], "==") &&
			(s.Start == 0 || strings.IndexByte("!<>=", rest[s.Start-1]) < 0) && s.Start != at+1 {
			at = s.Start
		}
	}
	rest = rest[:end]
	if at < 0 || !srcscan.Python.Balanced(rest) {
		return "", "", false
	}
	call = strings.TrimSpace(rest[:at])
	expected = strings.TrimSpace(rest[at+2:])
	if call == "" || expected == "" {
		return "", "", false
	}
	return call, expected, true
}
