package interact

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/ticoder/ticoder/internal/execute"
)

//go:embed tools.py
var toolsSource string

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

type pySyntax struct {
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"msg"`
	Text string `json:"text"`
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
	var out struct {
		Error      *pySyntax `json:"error"`
		EntryPoint string    `json:"entry_point"`
		Context    string    `json:"context"`
		Signature  string    `json:"signature"`
		Docstring  string    `json:"docstring"`
	}
	if strings.TrimSpace(source) == "" {
		return Stub{}, badSource("%s is empty: give a Python stub with a def line and a docstring", what)
	}
	if err := r.Call(ctx, toolsSource, "parse_stub", map[string]string{"source": source}, &out); err != nil {
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

// ErrEmptyValue is returned by CheckExpr for a value that is empty or only
// white space.
var ErrEmptyValue = errors.New("the value is empty")

// CheckExpr reports, as a *SyntaxError, whether value is not a Python
// expression, using Python's compiler in the sandbox; an empty value is
// ErrEmptyValue.
func CheckExpr(ctx context.Context, r execute.Runner, value string) error {
	if strings.TrimSpace(value) == "" {
		return fmt.Errorf("%w: type the value the call should return, as Python (e.g. 3, 'abc', [1, 2], None)", ErrEmptyValue)
	}
	var out struct {
		Error *pySyntax `json:"error"`
	}
	if err := r.Call(ctx, toolsSource, "check_expr", map[string]string{"source": value}, &out); err != nil {
		return fmt.Errorf("check value %s: %w", value, err)
	}
	if out.Error != nil {
		return out.Error.err(fmt.Sprintf("the value %q", value))
	}
	return nil
}
