// Package srcscan is ticoder's one reader of Python (and Java) source text
// outside the sandbox: it knows where string literals and comments begin and
// end, so that brackets, separators and definitions are found only in code.
//
// What it offers:
//
//   - Syntax.LiteralAt and Syntax.CommentAt: the literal or comment that
//     starts at an offset. Python literals take every prefix (r, b, u, f, t
//     and their combinations), triple quotes, backslash escapes (also in
//     triple-quoted and raw literals, where an escaped quote does not end the
//     literal either) and f- and t-string replacement fields, whose
//     expressions may hold literals with the same quote (Python 3.12's PEP
//     701: f"{d["k"]}"). Java literals are strings, char literals and text
//     blocks; Java comments are // and /* */.
//   - Syntax.Pieces: the source as code, literals and comments, with the
//     bracket depth after each piece; MatchBracket, SplitTop and Balanced
//     are built on it. The Java syntax can count <> as brackets, for lists
//     of generic types.
//   - Tokens and FindDef: coarse Python tokens (names, literals, operators,
//     logical-line ends) and the span of a function's def line.
//
// Every function takes any text (prompts, model output, what a person
// typed) and never fails or panics: an unterminated literal runs to the end
// of its line (single-quoted) or of the text (triple-quoted, text blocks),
// unbalanced brackets show as a depth below zero or a bracket that never
// closes, and nesting of f-string fields is bounded (maxFieldNesting).
//
// Why a scanner in Go and not Python's own ast: these callers run outside
// the sandbox, on every prompt, candidate and answer, often thousands of
// times per problem (lexical similarity, splitting asserts, parenthesising
// an answer), and on text that is often not a whole Python program (one
// line of a docstring, a fragment of an assert, a Java method). Asking the
// sandboxed interpreter would cost a process round trip per call and fail on
// fragments. Where exact Python semantics matter (which completion is a
// program, what a test asserts, whether a value is a literal), ticoder does
// use ast, in the sandbox: extract.py, inputs.py and tools.py.
//
// srcscan must not run code: it only finds where code, strings and comments
// are.
package srcscan
