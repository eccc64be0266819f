package interact

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ticoder/ticoder/internal/clip"
	"github.com/ticoder/ticoder/internal/execute"
)

// SyntaxError is a Python syntax error in something the user typed: a spec
// file, a signature or an `output` value.
type SyntaxError struct {
	// What names the text, e.g. "spec file spec.py" or "value".
	What string
	// Line and Col locate the error (1-based; 0 when unknown).
	Line, Col int
	// Msg is Python's message.
	Msg string
	// Text is the offending line.
	Text string
}

// Error says where the error is and shows the line with a caret.
func (e *SyntaxError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is not valid Python", e.What)
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ", column %d", e.Col)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, ": %s", e.Msg)
	if e.Text != "" {
		fmt.Fprintf(&b, "\n    %s", e.Text)
		if e.Col > 0 && e.Col <= len(e.Text)+1 {
			fmt.Fprintf(&b, "\n    %s^", strings.Repeat(" ", e.Col-1))
		}
	}
	return b.String()
}

func (p *pySyntax) err(what string) error {
	return &SyntaxError{What: what, Line: p.Line, Col: p.Col, Msg: p.Msg, Text: p.Text}
}

// Stub is a parsed Python stub.
type Stub struct {
	// Source is the stub as given.
	Source string `json:"source"`
	// Context is the code before the function (imports, helpers).
	Context string `json:"context"`
	// Signature is the def line (or lines).
	Signature string `json:"signature"`
	// Docstring is the function's docstring, dedented.
	Docstring string `json:"docstring"`
	// EntryPoint is the function's name.
	EntryPoint string `json:"entry_point"`
}

// ParseStub parses source, a Python stub whose last top-level def is the
// function to write, with Python's parser in the sandbox. what names the
// text in error messages; a syntax error is a *SyntaxError.
func ParseStub(ctx context.Context, r execute.Runner, what, source string) (Stub, error) {
	if strings.TrimSpace(source) == "" {
		return Stub{}, badSource("%s is empty: give a Python stub with a def line and a docstring", what)
	}
	out, err := parseStubFunc.Call(ctx, r, sourceArg{Source: source})
	if err != nil {
		return Stub{}, fmt.Errorf("parse %s: %w", what, err)
	}
	if out.Error != nil {
		if out.Error.Line == 0 {
			return Stub{}, badSource("%s: %s", what, out.Error.Msg)
		}
		return Stub{}, out.Error.err(what)
	}
	return Stub{Source: source, Context: out.Context, Signature: out.Signature, Docstring: out.Docstring, EntryPoint: out.EntryPoint}, nil
}

// StubFromPrompt builds a stub from a signature such as "def f(x: int) ->
// int" (the colon is optional) and a description, which becomes the
// docstring.
func StubFromPrompt(prompt, signature string) string {
	sig := strings.TrimSpace(signature)
	if !strings.HasPrefix(sig, "def ") && !strings.HasPrefix(sig, "async def ") {
		sig = "def " + sig
	}
	if !strings.HasSuffix(sig, ":") {
		sig += ":"
	}
	doc := strings.TrimSpace(prompt)
	doc = strings.ReplaceAll(doc, `\`, `\\`)
	doc = strings.ReplaceAll(doc, `"""`, `\"\"\"`)
	lines := strings.Split(doc, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			lines[i] = "    " + lines[i]
		}
	}
	end := `"""`
	if len(lines) > 1 || strings.HasSuffix(doc, `"`) {
		end = "\n    " + end
	}
	return sig + "\n    \"\"\"" + strings.Join(lines, "\n") + end + "\n"
}

// ErrEmptyValue is returned by CheckValue for a value that is empty or only
// white space.
var ErrEmptyValue = errors.New("the value is empty")

// ErrNotLiteral is returned (wrapped) by CheckValue for a value that is
// Python but not a literal, such as a call or a name.
var ErrNotLiteral = errors.New("only literal values are accepted")

// literalHelp lists what a literal value is, for error messages.
const literalHelp = "numbers, strings, bytes, True, False, None, and tuples, lists, dicts and sets of them, e.g. 3, -1.5, 'abc', [1, 2], {'a': (1, None)}, set()"

// maxPart bounds how much of an offending value an error message quotes.
const maxPart = 80

// CheckValue reports whether value, the right output a user typed, is a
// Python literal: what Python's ast.literal_eval reads (numbers, including
// negative and complex ones, strings, bytes, True, False, None, Ellipsis,
// and tuples, lists, dicts and sets of them, and set()), without comments.
// The value is parsed and read in the sandbox, never evaluated, so a value
// such as open('/etc/passwd').read() is refused before any code runs. Text
// that is not Python is a *SyntaxError; Python that is not a literal wraps
// ErrNotLiteral; an empty value is ErrEmptyValue. It is safe for
// concurrent use if r is.
func CheckValue(ctx context.Context, r execute.Runner, value string) error {
	if strings.TrimSpace(value) == "" {
		return fmt.Errorf("%w: type the value the call should return, as a Python literal (%s)", ErrEmptyValue, literalHelp)
	}
	out, err := checkValueFunc.Call(ctx, r, sourceArg{Source: value})
	if err != nil {
		return fmt.Errorf("check value %s: %w", clip.Text(value, maxPart), err)
	}
	switch {
	case out.Error != nil:
		return out.Error.err(fmt.Sprintf("the value %q", clip.Text(value, maxPart)))
	case out.NotLiteral != nil && out.NotLiteral.Part != "":
		return fmt.Errorf("%w (%s); %q is code, not a value", ErrNotLiteral, literalHelp, clip.Text(out.NotLiteral.Part, maxPart))
	case out.NotLiteral != nil:
		return fmt.Errorf("%w (%s); %q is not one: %s", ErrNotLiteral, literalHelp, clip.Text(value, maxPart), clip.Text(out.NotLiteral.Msg, maxPart))
	}
	return nil
}
