package qe

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TokenizerOptions choose what the code-aware tokenizer emits.
type TokenizerOptions struct {
	// Operators adds operator and punctuation tokens ("==", "+=", "**", "[").
	Operators bool
	// WholeIdentifiers adds each multi-part identifier lower-cased whole
	// ("has_close_elements") besides its parts ("has", "close", "elements").
	WholeIdentifiers bool
}

// maxLiteralRunes bounds a string-literal token.
const maxLiteralRunes = 40

// Tokenize splits source code or prose into lexical tokens for similarity:
// identifiers are split at underscores and case changes and lower-cased
// (keywords are identifiers too), numbers are kept as written (lower-cased:
// "0X1F" → "0x1f"), short string literals become one token in single quotes,
// triple-quoted strings and comments are tokenized as text, and operators
// are emitted only when opts.Operators is set. It never fails.
func Tokenize(src string, opts TokenizerOptions) []string {
	var out []string
	emitIdent := func(id string) {
		parts := SplitIdentifier(id)
		out = append(out, parts...)
		if opts.WholeIdentifiers && len(parts) > 1 {
			out = append(out, strings.ToLower(id))
		}
	}
	i := 0
	for i < len(src) {
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case r == '_' || unicode.IsLetter(r):
			j := i + size
			for j < len(src) {
				r2, s2 := utf8.DecodeRuneInString(src[j:])
				if r2 != '_' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) {
					break
				}
				j += s2
			}
			// A string prefix such as r"..", b'..', f"..".
			if j < len(src) && (src[j] == '"' || src[j] == '\'') && j-i <= 2 && isStringPrefix(src[i:j]) {
				i = j
				continue
			}
			emitIdent(src[i:j])
			i = j
		case r >= '0' && r <= '9' || r == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := scanNumber(src, i)
			out = append(out, strings.ToLower(src[i:j]))
			i = j
		case r == '"' || r == '\'':
			j, body, triple := scanString(src, i)
			if triple || utf8.RuneCountInString(body) > maxLiteralRunes {
				out = append(out, Tokenize(body, opts)...)
			} else {
				out = append(out, "'"+body+"'")
			}
			i = j
		case r == '#':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			out = append(out, Tokenize(src[i+1:i+j], opts)...)
			i += j
		case unicode.IsSpace(r):
			i += size
		default:
			j := scanOperator(src, i)
			if opts.Operators {
				out = append(out, src[i:j])
			}
			i = j
		}
	}
	return out
}

// SplitIdentifier splits an identifier at underscores, letter/digit
// boundaries and case changes ("getHTTPResponse2" → get, http, response, 2)
// and lower-cases the parts.
func SplitIdentifier(id string) []string {
	var parts []string
	runes := []rune(id)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			parts = append(parts, strings.ToLower(string(runes[start:end])))
		}
		start = -1
	}
	for i, r := range runes {
		if r == '_' {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := runes[i-1]
		switch {
		case unicode.IsDigit(r) != unicode.IsDigit(prev):
			flush(i)
			start = i
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush(i)
			start = i
		case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
			// "HTTPResponse": the R starts a new word.
			flush(i)
			start = i
		}
	}
	flush(len(runes))
	return parts
}

func isStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "b", "f", "u", "rb", "br", "fr", "rf":
		return true
	}
	return false
}

// scanNumber returns the end of the numeric literal starting at i.
func scanNumber(src string, i int) int {
	j := i
	for j < len(src) {
		c := src[j]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '.':
			j++
		case (c == '+' || c == '-') && j > i && (src[j-1] == 'e' || src[j-1] == 'E') && !strings.ContainsAny(src[i:j], "xX"):
			j++
		default:
			return j
		}
	}
	return j
}

// scanString returns the end of the string literal starting at i (a quote),
// its body and whether it was triple-quoted. An unterminated string runs to
// the end of the line (single) or of the input (triple).
func scanString(src string, i int) (end int, body string, triple bool) {
	q := src[i]
	if strings.HasPrefix(src[i:], strings.Repeat(string(q), 3)) {
		delim := src[i : i+3]
		k := strings.Index(src[i+3:], delim)
		if k < 0 {
			return len(src), src[i+3:], true
		}
		return i + 3 + k + 3, src[i+3 : i+3+k], true
	}
	j := i + 1
	for j < len(src) {
		switch src[j] {
		case '\\':
			j += 2
			continue
		case q:
			return j + 1, src[i+1 : j], false
		case '\n':
			return j, src[i+1 : j], false
		}
		j++
	}
	if j > len(src) {
		j = len(src)
	}
	return j, src[i+1 : j], false
}

// operators lists multi-character operators, longest first.
var operators = []string{"**=", "//=", ">>=", "<<=", "...", "==", "!=", "<=", ">=", "**", "//", "->", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ">>", "<<", ":="}

// scanOperator returns the end of the operator or punctuation at i.
func scanOperator(src string, i int) int {
	for _, op := range operators {
		if strings.HasPrefix(src[i:], op) {
			return i + len(op)
		}
	}
	_, size := utf8.DecodeRuneInString(src[i:])
	return i + size
}
