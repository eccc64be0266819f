package qe

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// TokenizerOptions choose what the code-aware tokenizer emits.
type TokenizerOptions struct {
	// Operators adds operator and punctuation tokens ("==", "+=", "**", "[").
	Operators bool
	// WholeIdentifiers adds each multi-part identifier lower-cased whole
	// ("has_close_elements") besides its parts ("has", "close", "elements").
	WholeIdentifiers bool
	// Syntax says which comments and literals the source has: Python's (the
	// zero value) or Java's (// and /* */ comments, char literals, text
	// blocks, no string prefixes).
	Syntax srcscan.Syntax
}

// maxLiteralRunes bounds a string-literal token.
const maxLiteralRunes = 40

// Tokenize splits source code or prose into lexical tokens for similarity:
// identifiers are split at underscores and case changes and lower-cased
// (keywords are identifiers too), numbers are kept as written (lower-cased:
// "0X1F" → "0x1f"), short string (and Java char) literals become one token
// in single quotes, triple-quoted strings, Java text blocks and comments are
// tokenized as text, and operators are emitted only when opts.Operators is
// set. opts.Syntax says which language's comments and literals to read. It
// never fails.
func Tokenize(src string, opts TokenizerOptions) []string {
	var out []string
	emitIdent := func(id string) {
		parts := SplitIdentifier(id)
		out = append(out, parts...)
		if opts.WholeIdentifiers && len(parts) > 1 {
			out = append(out, strings.ToLower(id))
		}
	}
	sx := opts.Syntax
	i := 0
	for i < len(src) {
		if c, ok := sx.CommentAt(src, i); ok {
			out = append(out, Tokenize(c.Body(src), opts)...)
			i = c.End
			continue
		}
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
			if lit, ok := sx.LiteralAt(src, i); ok {
				out = append(out, literalTokens(lit.Body(src), lit.Long, opts)...)
				i = lit.End
				continue
			}
			emitIdent(src[i:j])
			i = j
		case r >= '0' && r <= '9' || r == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := scanNumber(src, i)
			out = append(out, strings.ToLower(src[i:j]))
			i = j
		case r == '"' || r == '\'':
			lit, _ := sx.LiteralAt(src, i)
			out = append(out, literalTokens(lit.Body(src), lit.Long, opts)...)
			i = lit.End
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

// literalTokens returns the tokens of a string literal's body: one token in
// single quotes for a short one-line literal, else the body tokenized as
// text.
func literalTokens(body string, long bool, opts TokenizerOptions) []string {
	if long || utf8.RuneCountInString(body) > maxLiteralRunes {
		return Tokenize(body, opts)
	}
	return []string{"'" + body + "'"}
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
