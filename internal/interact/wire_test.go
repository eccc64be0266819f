package interact

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/execute"
)

// recordingRunner records the Python calls it gets, with their argument as
// the sandbox receives it (JSON), and fails each of them.
type recordingRunner struct {
	execute.Runner
	source, function, arg string
}

func (r *recordingRunner) Call(_ context.Context, source, function string, arg, result any) error {
	b, err := json.Marshal(arg)
	if err != nil {
		return err
	}
	r.source, r.function, r.arg = source, function, string(b)
	return errors.New("recorded")
}

// TestToolArguments pins the JSON each tool function of tools.py and
// module.py receives: the fields tools.py and module.py read, in the order
// they have always been sent (remote workers key a call on its argument's
// bytes).
func TestToolArguments(t *testing.T) {
	ctx := context.Background()
	target := &ModuleTarget{File: "/p/m.py", Rel: "m.py", Module: "pkg.m", Name: "C.f", Source: "class C: ..."}
	patched := "patched"
	tests := []struct {
		name     string
		call     func(r execute.Runner)
		program  string
		function string
		arg      string
	}{
		{"parse_stub", func(r execute.Runner) { ParseStub(ctx, r, "spec", "def f(): ...") },
			toolsPy, "parse_stub", `{"source":"def f(): ..."}`},
		{"check_value", func(r execute.Runner) { CheckValue(ctx, r, "[1]") },
			toolsPy, "check_value", `{"source":"[1]"}`},
		{"run_tests", func(r execute.Runner) {
			CheckExport(ctx, r, &api.Export{CodeFile: "f.py", TestFile: "test_f.py", Code: "C", Tests: "T"})
		}, toolsPy, "run_tests", `{"code":"C","code_file":"f.py","test_file":"test_f.py","tests":"T"}`},
		{"locate", func(r execute.Runner) { (&Builder{Runner: r}).moduleProblem(ctx, target) },
			modulePy, "locate", `{"name":"C.f","source":"class C: ..."}`},
		{"splice", func(r execute.Runner) { spliceAll(ctx, r, target, []string{"P"}) },
			modulePy, "splice", `{"name":"C.f","programs":["P"],"source":"class C: ..."}`},
		{"functions", func(r execute.Runner) { Functions(ctx, r, map[string]string{"b.py": "B", "a.py": "A"}) },
			modulePy, "functions", `{"sources":{"a.py":"A","b.py":"B"}}`},
		{"check_tests patched", func(r execute.Runner) { CheckModuleTests(ctx, r, target, &patched, "t.py", "T", []string{"test_a"}) },
			modulePy, "check_tests", `{"file":"/p/m.py","module":"pkg.m","names":["test_a"],"patched":"patched","test_file":"t.py","tests":"T"}`},
		{"check_tests on disk", func(r execute.Runner) { CheckModuleTests(ctx, r, target, nil, "t.py", "T", nil) },
			modulePy, "check_tests", `{"file":"/p/m.py","module":"pkg.m","names":null,"test_file":"t.py","tests":"T"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recordingRunner{}
			tt.call(r)
			if r.source != tt.program {
				t.Errorf("%s ran a source of %d bytes, not its file's %d", tt.function, len(r.source), len(tt.program))
			}
			if r.function != tt.function {
				t.Errorf("called %q, want %q", r.function, tt.function)
			}
			if r.arg != tt.arg {
				t.Errorf("argument\n%s\nwant\n%s", r.arg, tt.arg)
			}
		})
	}
}
