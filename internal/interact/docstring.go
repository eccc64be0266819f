package interact

import (
	"strings"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// withDocstring returns program with the docstring of entry in stub put
// at the top of entry's top-level definition, when that definition has
// none (a model that wrote the whole function often leaves it out).
// Continuation lines are re-indented to the program's body. program is
// returned unchanged when stub has no docstring, or when the definition
// cannot take one: not found, not at the top level, a body on the def
// line, or already starting with a string.
func withDocstring(stub, entry, program string) string {
	doc, docIndent, ok := docstringOf(stub, entry)
	if !ok {
		return program
	}
	toks := srcscan.Tokens(program)
	d, ok := srcscan.FindDef(program, toks, entry)
	if !ok || !d.TopLevel || d.Colon < 0 || d.Body+1 >= len(toks) || toks[d.Body].Kind != srcscan.Newline {
		return program
	}
	first := toks[d.Body+1]
	if first.Kind == srcscan.Str {
		return program
	}
	at := srcscan.LineStart(program, first.Start)
	indent := program[at:first.Start]
	if strings.TrimLeft(indent, " \t") != "" || indent == "" {
		return program
	}
	if indent != docIndent {
		doc = strings.ReplaceAll(doc, "\n"+docIndent, "\n"+indent)
	}
	return program[:at] + indent + doc + "\n" + program[at:]
}

// docstringOf returns the literal text of the docstring of entry's
// definition in stub (the string that is its body's first statement) and
// the indentation of its first line.
func docstringOf(stub, entry string) (doc, indent string, ok bool) {
	toks := srcscan.Tokens(stub)
	d, found := srcscan.FindDef(stub, toks, entry)
	if !found || d.Colon < 0 || d.Body+1 >= len(toks) || toks[d.Body].Kind != srcscan.Newline {
		return "", "", false
	}
	t := toks[d.Body+1]
	if t.Kind != srcscan.Str || d.Body+2 < len(toks) && toks[d.Body+2].Kind != srcscan.Newline {
		return "", "", false // no string, or a string that starts an expression
	}
	return t.Text(stub), stub[srcscan.LineStart(stub, t.Start):t.Start], true
}
