package interact

import (
	"context"
	"fmt"
	"strings"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
)

// ModuleTarget is a function inside a project's module that a session
// writes (run --spec FILE::NAME). Candidates are the module's whole source
// with the function replaced (see execute.Module), so they run with the
// rest of the module, the project and its interpreter; what a person sees
// of each is the function.
type ModuleTarget struct {
	// Root is the project's directory; File the module's absolute path,
	// Rel the same relative to Root.
	Root string `json:"root"`
	File string `json:"file"`
	Rel  string `json:"rel"`
	// Module is the module's dotted name.
	Module string `json:"module"`
	// Name is the function: NAME or Class.method.
	Name string `json:"name"`
	// Source is the module as it was when the session began.
	Source string `json:"source"`
	// Def and End are the 1-based lines of the function's def line and its
	// last line in Source; Indent is the def line's indentation.
	Def    int    `json:"def"`
	End    int    `json:"end"`
	Indent string `json:"indent"`
	// Names are the module's top-level names.
	Names []string `json:"names,omitempty"`
	// Stub reports that the function has no body yet (..., pass, raise
	// NotImplementedError).
	Stub bool `json:"stub"`
	// Yours is the index of the candidate that is the existing
	// implementation; -1 when there is none.
	Yours int `json:"yours"`
	// Java reports a static method of a Java class (FILE.java::Class.method,
	// see javaProblem); Package is then the class's package.
	Java    bool   `json:"java,omitempty"`
	Package string `json:"package,omitempty"`
	// Call and Alias are set for a method (Class.method): how tests call
	// it, Class().method or Class.method, and the module-level function
	// that makes that call in the sandbox, Class_method (see
	// llm.ParseMethod). Both are empty for a function.
	Call  string `json:"call,omitempty"`
	Alias string `json:"alias,omitempty"`
	// Python and Mask are the interpreter that runs the candidates, as it
	// was found or given, and the masks' patterns: what run --resume needs
	// to take the session up in the same sandbox.
	Python string   `json:"python,omitempty"`
	Mask   []string `json:"mask,omitempty"`
}

// Function returns the short name of the function (the method's name for
// Class.method).
func (t *ModuleTarget) Function() string {
	_, fn, ok := strings.Cut(t.Name, ".")
	if !ok {
		return t.Name
	}
	return fn
}

// moduleProblem finds the function in t.Source (in the sandbox, with the
// project's interpreter), fills in t, and returns the problem a model
// sees: the module up to the function, then the function's decorators,
// def line and docstring; never its existing body.
func (b *Builder) moduleProblem(ctx context.Context, t *ModuleTarget) (dataset.Problem, error) {
	if t.Java {
		return javaProblem(t)
	}
	loc, err := locateFunc.Call(ctx, b.Runner, locateArg{Name: t.Name, Source: t.Source})
	if err != nil {
		return dataset.Problem{}, fmt.Errorf("read %s: %w", t.Rel, err)
	}
	if loc.Error != "" {
		return dataset.Problem{}, badSource("%s::%s: %s", t.Rel, t.Name, loc.Error)
	}
	t.Def, t.End, t.Indent, t.Names, t.Stub, t.Yours = loc.Def, loc.End, loc.Indent, loc.Names, loc.Stub, -1
	t.Call, t.Alias = "", ""
	entry := t.Function()
	if loc.Cls != "" {
		if err := t.setMethod(loc); err != nil {
			return dataset.Problem{}, err
		}
		entry = t.Call
	}
	lines := strings.SplitAfter(t.Source, "\n")
	before := strings.Join(lines[:loc.Start-1], "")
	prompt := before + indentLines(loc.Spec, loc.Indent)
	return dataset.Problem{
		ID: t.Module + "." + t.Name, Dataset: "module", Prompt: prompt, Description: loc.Docstring,
		Context: before, Signature: loc.Signature, EntryPoint: entry,
	}, nil
}

// indentLines indents every non-blank line of text by indent.
func indentLines(text, indent string) string {
	if indent == "" {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = indent + l
		}
	}
	return strings.Join(lines, "")
}

// spliceAll returns the module's source with each program's definition of
// the function in place (see module.py's splice), as r runs it.
func spliceAll(ctx context.Context, r execute.Runner, t *ModuleTarget, programs []string) ([]spliced, error) {
	out, err := spliceFunc.Call(ctx, r, spliceArg{Name: t.Name, Programs: programs, Source: t.Source})
	if err != nil {
		return nil, fmt.Errorf("put the candidates in %s: %w", t.Rel, err)
	}
	if out.Error != "" {
		return nil, badSource("%s::%s: %s", t.Rel, t.Name, out.Error)
	}
	if len(out.Results) != len(programs) {
		return nil, fmt.Errorf("put the candidates in %s: %d results for %d programs", t.Rel, len(out.Results), len(programs))
	}
	return out.Results, nil
}

// moduleCandidates turns the model's candidates into whole modules with
// the function replaced, merging those that give the same module and
// dropping those without a definition of the function.
func moduleCandidates(ctx context.Context, r execute.Runner, t *ModuleTarget, cands []extract.Candidate) ([]extract.Candidate, error) {
	if t.Java {
		return javaCandidates(t, cands)
	}
	programs := make([]string, len(cands))
	for i, c := range cands {
		programs[i] = c.Program
	}
	res, err := spliceAll(ctx, r, t, programs)
	if err != nil {
		return nil, err
	}
	var out []extract.Candidate
	at := map[string]int{}
	for i, s := range res {
		if s.Error != "" {
			continue
		}
		if j, ok := at[s.Patched]; ok {
			out[j].Count += max(cands[i].Count, 1)
			continue
		}
		at[s.Patched] = len(out)
		c := cands[i]
		c.Program = t.Runnable(s.Patched)
		out = append(out, c)
	}
	return out, nil
}

// withYours adds the function's existing implementation as a candidate
// (unless it is a stub) and records its index in t.Yours.
func withYours(t *ModuleTarget, cands []extract.Candidate) []extract.Candidate {
	t.Yours = -1
	if t.Stub {
		return cands
	}
	yours := t.Runnable(t.Source)
	for i, c := range cands {
		if c.Program == yours {
			t.Yours = i
			return cands
		}
	}
	samples := 0
	for _, c := range cands {
		samples += max(c.Count, 1)
	}
	t.Yours = len(cands)
	return append(cands, extract.Candidate{Program: yours, Count: 1, First: samples})
}

// FunctionText returns the function as program (a whole module of t, with
// the function replaced) defines it, without its indentation: the lines
// from its def line to where the module's rest after the function begins.
func (t *ModuleTarget) FunctionText(program string) string {
	if t.Java {
		return t.javaMethodText(program)
	}
	program = t.ModuleSource(program)
	orig := strings.SplitAfter(t.Source, "\n")
	lines := strings.SplitAfter(program, "\n")
	end := len(lines) - (len(orig) - t.End)
	if end <= 0 || end > len(lines) {
		return program
	}
	fn := t.Function()
	for i := end - 1; i >= 0; i-- {
		l := lines[i]
		if !strings.HasPrefix(l, t.Indent) {
			continue
		}
		rest := strings.TrimPrefix(l, t.Indent)
		if strings.HasPrefix(rest, "def "+fn+"(") || strings.HasPrefix(rest, "async def "+fn+"(") ||
			strings.HasPrefix(rest, "def "+fn+" (") {
			var b strings.Builder
			for _, x := range lines[i:end] {
				b.WriteString(strings.TrimPrefix(x, t.Indent))
			}
			return strings.TrimRight(b.String(), "\n") + "\n"
		}
	}
	return program
}
