package pyfunc

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Caller runs function(arg) from a Python source in a sandboxed child and
// decodes its JSON-serialisable return value into result. execute.Runner
// (*execute.Pool, *execute.Remote) implements it.
type Caller interface {
	Call(ctx context.Context, source, function string, arg, result any) error
}

// Module is one embedded Python file.
type Module struct {
	// Name is the file's name, e.g. "inputs.py"; errors name programs by
	// their modules' names.
	Name string
	// Text is the file's content.
	Text string
}

// separator joins the modules of a program.
const separator = "\n\n"

// Program is a Python source made of modules, run as one: their texts in
// order, separated by a blank line. Programs are values, safe for
// concurrent use; the zero value has no module and an empty source.
type Program struct {
	names  []string
	source string
}

// NewProgram returns the program of modules, in order.
func NewProgram(modules ...Module) Program {
	return Program{}.With(modules...)
}

// With returns p followed by modules, which may use the names p defines;
// p itself is unchanged.
func (p Program) With(modules ...Module) Program {
	var b strings.Builder
	b.WriteString(p.source)
	names := slices.Clone(p.names)
	for _, m := range modules {
		if len(names) > 0 {
			b.WriteString(separator)
		}
		b.WriteString(m.Text)
		names = append(names, m.Name)
	}
	return Program{names: names, source: b.String()}
}

// Source returns the program's source, as the sandbox runs it.
func (p Program) Source() string { return p.source }

// String names the program by its modules, e.g. "inputs.py+agree.py".
func (p Program) String() string { return strings.Join(p.names, "+") }

// Func is the function Name of Program, called with a Req and returning a
// Resp, both encoded as JSON: their struct tags are the wire. A Func is a
// value, safe for concurrent use if the Caller it is called with is.
type Func[Req, Resp any] struct {
	// Program holds the function.
	Program Program
	// Name is the function's name in the program.
	Name string
}

// Call runs the function on req through c and returns what it returned.
// An error names the function and its program and wraps c's error.
func (f Func[Req, Resp]) Call(ctx context.Context, c Caller, req Req) (Resp, error) {
	var resp Resp
	if err := c.Call(ctx, f.Program.Source(), f.Name, req, &resp); err != nil {
		var zero Resp
		return zero, fmt.Errorf("%s: %w", f, err)
	}
	return resp, nil
}

// String names the function and its program, e.g. "collect of inputs.py".
func (f Func[Req, Resp]) String() string {
	return f.Name + " of " + f.Program.String()
}
