package clip

import (
	"strings"
	"unicode/utf8"
)

// Text returns s cut to at most n bytes on a UTF-8 boundary, with "…" after
// the cut; s itself when it fits. Invalid UTF-8 before the cut is dropped
// only when s is cut.
func Text(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := max(n, 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.ToValidUTF8(s[:cut], "") + "…"
}
