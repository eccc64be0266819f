package interact

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/lang/java"
	"github.com/ticoder/ticoder/internal/lang/python"
	"github.com/ticoder/ticoder/internal/session"
	"github.com/ticoder/ticoder/internal/srcscan"
)

// languages are the languages a session may be in, by api.Task.Language
// ("" is Python). Everything that differs between them goes through
// lang.Interactive.
var languages = map[string]lang.Interactive{"": pythonLang{}, "python": pythonLang{}, "java": java.Java{}}

// Languages lists the languages a spec may be written in.
func Languages() []string { return []string{"python", "java"} }

// languageOf returns the language called name.
func languageOf(name string) (lang.Interactive, error) {
	l, ok := languages[strings.ToLower(name)]
	if !ok {
		return nil, badSource("unknown language %q: use python or java", name)
	}
	return l, nil
}

// pythonLang is Python as the question loop needs it: its stub parser,
// literal check and pytest export run Python's own tools (tools.py) in the
// sandbox.
type pythonLang struct{ python.Python }

// ParseStub implements lang.Interactive with ParseStub.
func (pythonLang) ParseStub(ctx context.Context, r execute.Runner, what, source string) (lang.Stub, error) {
	st, err := ParseStub(ctx, r, what, source)
	if err != nil {
		return lang.Stub{}, err
	}
	return lang.Stub{Context: st.Context, Signature: st.Signature, Docstring: st.Docstring, EntryPoint: st.EntryPoint}, nil
}

// Question implements lang.Interactive, with strings quoted as repr
// quotes them (see reprQuotes).
func (pythonLang) Question(call, expected string) string {
	return reprQuotes(call) + " == " + reprQuotes(expected) + " ?"
}

// ShowTest implements lang.Interactive: the test's code, with strings
// quoted as repr quotes them.
func (pythonLang) ShowTest(_, _ string, t execute.Test) string { return reprQuotes(t.String()) }

// ShowValue implements lang.Interactive: the worker's values are Python
// reprs already; a test's own expected value gets repr's quotes.
func (pythonLang) ShowValue(_, _, value string) string { return reprQuotes(value) }

// reprQuotes rewrites the double-quoted one-line string literals of
// Python code with single quotes, as repr writes strings, so that the
// values a model wrote in its tests and those the sandbox reports look
// alike in one session. Only literals whose body holds no quote of either
// kind are rewritten, which changes nothing but the quotes; f-strings and
// t-strings are left alone. It is for display: what runs is unchanged.
func reprQuotes(src string) string {
	if !strings.Contains(src, `"`) {
		return src
	}
	var b strings.Builder
	last := 0
	for s := range srcscan.Python.Pieces(src) {
		if s.Kind != srcscan.String || s.Long || !s.Closed || s.BodyStart == 0 || src[s.BodyStart-1] != '"' {
			continue
		}
		prefix, body := src[s.Start:s.BodyStart-1], s.Body(src)
		if strings.ContainsAny(body, `'"`) || strings.ContainsAny(prefix, "fFtT") {
			continue
		}
		b.WriteString(src[last:s.Start])
		b.WriteString(prefix + "'" + body + "'")
		last = s.End
	}
	b.WriteString(src[last:])
	return b.String()
}

// ReadValue implements lang.Interactive with CheckValue.
func (pythonLang) ReadValue(ctx context.Context, r execute.Runner, _, _, value string) (string, error) {
	value = strings.TrimSpace(value)
	if err := CheckValue(ctx, r, value); err != nil {
		return "", err
	}
	return value, nil
}

// Export implements lang.Interactive: NAME.py and the pytest file
// test_NAME.py, which also runs on its own with python3 (Debian has no
// "python", and pytest may not be installed). The code keeps the stub's
// docstring (see withDocstring).
func (pythonLang) Export(stub, entry, program string, approved, rejected []execute.Test) (lang.Files, error) {
	name := moduleName(entry)
	f := lang.Files{CodeFile: name + ".py", Code: withDocstring(stub, entry, program), TestFile: "test_" + name + ".py", Command: "python3 test_" + name + ".py"}
	f.Tests, f.TestCount = PytestFile(name, entry, approved, rejected)
	return f, nil
}

// CheckExport implements lang.Interactive with CheckExport.
func (pythonLang) CheckExport(ctx context.Context, r execute.Runner, f lang.Files) ([]string, error) {
	ex := exportOf(f)
	if err := CheckExport(ctx, r, &ex); err != nil {
		return nil, err
	}
	return ex.Failures, nil
}

// valueComparer decides `output` answers of languages other than Python:
// each program runs the value test CALL against the answer's value (an
// expression ReadValue returned), compared by the runner as plain data.
type valueComparer struct {
	l lang.Language
	r execute.Runner
}

// Equal implements session.Comparer.
func (vc valueComparer) Equal(ctx context.Context, programs []string, test execute.Test, value string) ([]bool, error) {
	if len(programs) == 0 {
		return nil, nil
	}
	vt := vc.l.ValueTest(test.Input, value)
	vt.Setup = test.Setup
	m, err := vc.r.Run(ctx, execute.Job{Programs: programs, Tests: []execute.Test{vt}, TimePolicy: execute.Within(5 * time.Second)}, nil)
	if err != nil {
		return nil, fmt.Errorf("compare outputs with %s: %w", value, err)
	}
	out := make([]bool, len(programs))
	for i, row := range m.Results {
		out[i] = row[0].Outcome == execute.Pass
	}
	return out, nil
}

// comparer returns the session.Comparer of a language.
func comparer(l lang.Interactive, r execute.Runner) session.Comparer {
	if _, ok := l.(pythonLang); ok {
		return session.RunnerComparer{Runner: r}
	}
	return valueComparer{l: l, r: r}
}
