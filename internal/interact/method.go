package interact

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/llm"
)

// setMethod fills in how tests call the method t names, from what
// module.py's locate found: Class.method for a static or class method,
// Class().method for an instance method whose class can be made without
// arguments. Tests get plain data only, never the project's objects, so
// they cannot build an instance themselves: a class whose constructor
// requires arguments is refused, as is a stand-in's name that the module
// already binds.
func (t *ModuleTarget) setMethod(loc located) error {
	cls, fn, _ := strings.Cut(t.Name, ".")
	switch {
	case loc.Kind == "static" || loc.Kind == "class":
		t.Call = cls + "." + fn
	case len(loc.InitArgs) > 0:
		return badSource("%s::%s: ticoder's tests call the method on %s(), but making a %s requires %s; tests pass "+
			"only plain values to your code, so they cannot build one: give those parameters defaults, make the method "+
			"a staticmethod or classmethod, or give ticoder a module-level function that does the work",
			t.Rel, t.Name, cls, cls, strings.Join(loc.InitArgs, ", "))
	default:
		t.Call = cls + "()." + fn
	}
	m, _ := llm.ParseMethod(t.Call)
	if slices.Contains(loc.Names, m.Alias) {
		return badSource("%s::%s: the module already defines %s, the name ticoder's tests call the method by; rename one of them",
			t.Rel, t.Name, m.Alias)
	}
	t.Alias = m.Alias
	return nil
}

// standIn returns the function that program gets appended in the sandbox
// so that tests can call a method: Alias(...) returns Call(...). It is ""
// for a function.
func (t *ModuleTarget) standIn() string {
	if t.Alias == "" {
		return ""
	}
	return "\n\n# Added by ticoder in its sandbox only: tests call " + t.Alias + "(...) for " + t.Call + "(...).\n" +
		"def " + t.Alias + "(*args, **kwargs):\n    return " + t.Call + "(*args, **kwargs)\n"
}

// Runnable returns module, a whole source of t's module, as the sandbox
// runs it: with a method's stand-in appended.
func (t *ModuleTarget) Runnable(module string) string { return module + t.standIn() }

// ModuleSource returns program, a candidate as the sandbox runs it, as the
// module's source: without a method's stand-in.
func (t *ModuleTarget) ModuleSource(program string) string {
	if s := t.standIn(); s != "" {
		return strings.TrimSuffix(program, s)
	}
	return program
}

// sessionProblem returns p as the session sees it: for a method, the entry
// point is the stand-in the tests call, and the signature names it.
func (t *ModuleTarget) sessionProblem(p dataset.Problem) dataset.Problem {
	if t.Alias == "" {
		return p
	}
	p.EntryPoint = t.Alias
	p.Signature = defName.ReplaceAllString(p.Signature, "${1}"+t.Alias+"(")
	return p
}

// defName matches the name in a def line.
var defName = regexp.MustCompile(`^(\s*(?:async\s+)?def\s+)[A-Za-z_][A-Za-z0-9_]*\s*\(`)

// naturalCalls returns test code with a method's stand-in calls written as
// the calls they stand for (Cart_total(x) as Cart().total(x)), so that
// exported tests run against the real module.
func (t *ModuleTarget) naturalCalls(code string) string {
	if t.Alias == "" {
		return code
	}
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_.])` + regexp.QuoteMeta(t.Alias) + `\(`)
	for { // twice for a call right after another: Cart_total(Cart_total(1))
		next := re.ReplaceAllString(code, "${1}"+t.Call+"(")
		if next == code {
			return code
		}
		code = next
	}
}

// Functions returns the functions a session can work on in each module of
// sources (a module's path to its source): its top-level functions and the
// methods of its top-level classes (Class.method), but dunder methods and
// properties. Python's own ast reads them, in the sandbox r runs programs
// in (the project's interpreter). problems names the modules that do not
// parse.
func Functions(ctx context.Context, r execute.Runner, sources map[string]string) (funcs map[string][]string, problems map[string]string, err error) {
	out, err := functionsFunc.Call(ctx, r, functionsArg{Sources: sources})
	if err != nil {
		return nil, nil, fmt.Errorf("list the project's functions: %w", err)
	}
	return out.Functions, out.Errors, nil
}
