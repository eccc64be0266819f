package interact

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/lang/java"
	"github.com/ticoder/ticoder/internal/project"
)

// javaMethod locates t's method in source.
func (t *ModuleTarget) javaMethod(source string) (java.Member, error) {
	cls, fn, _ := strings.Cut(t.Name, ".")
	return java.LocateMethod(source, cls, fn)
}

// javaProblem reads t, a static method of a Java class, and returns the
// problem a model sees: the whole file with the method's body left empty
// (package, imports, fields and the other methods are its context; the
// method's signature and Javadoc its spec). A body that java.IsStubBody
// reports is a stub; any other is an implementation, which joins the
// candidates as yours.
func javaProblem(t *ModuleTarget) (dataset.Problem, error) {
	m, err := t.javaMethod(t.Source)
	if err != nil {
		return dataset.Problem{}, badSource("%s::%s: %v", t.Rel, t.Name, err)
	}
	if !m.Static {
		return dataset.Problem{}, badSource("%s::%s is not static: ticoder writes a project's static methods (its questions call %s(...))", t.Rel, t.Name, t.Name)
	}
	if java.ReservedName(m.Class) {
		return dataset.Problem{}, badSource("%s::%s: the class is named like a type or package that tests use, so tests could not call it", t.Rel, t.Name)
	}
	t.Package, t.Stub, t.Yours, t.Indent = m.Package, m.Stub, -1, m.Indent
	prompt := t.Source[:m.Open] + "{\n" + m.Indent + "}" + t.Source[m.Close:]
	id := m.Class + "." + m.Name
	if m.Package != "" {
		id = m.Package + "." + id
	}
	return dataset.Problem{
		ID: id, Dataset: "module", Prompt: prompt, Description: m.Javadoc, Context: t.Source[:m.Start],
		Signature: m.Signature, EntryPoint: m.Name, Language: "java",
	}, nil
}

// javaCandidates turns the model's classes into t's file with the method
// replaced (java.SpliceMethod), merging those that give the same file and
// dropping those without the method.
func javaCandidates(t *ModuleTarget, cands []extract.Candidate) ([]extract.Candidate, error) {
	m, err := t.javaMethod(t.Source)
	if err != nil {
		return nil, badSource("%s::%s: %v", t.Rel, t.Name, err)
	}
	var out []extract.Candidate
	at := map[string]int{}
	for _, c := range cands {
		patched, err := java.SpliceMethod(t.Source, m, c.Program)
		if err != nil {
			continue
		}
		if j, ok := at[patched]; ok {
			out[j].Count += max(c.Count, 1)
			continue
		}
		at[patched] = len(out)
		c.Program = patched
		out = append(out, c)
	}
	return out, nil
}

// javaMethodText returns the method as program (t's file with the method
// replaced) declares it, or program when it declares none.
func (t *ModuleTarget) javaMethodText(program string) string {
	m, err := t.javaMethod(program)
	if err != nil {
		return program
	}
	return java.MethodText(program, m)
}

// qualifiedClass returns the class's name with its package.
func (t *ModuleTarget) qualifiedClass() string {
	cls, _, _ := strings.Cut(t.Name, ".")
	if t.Package == "" {
		return cls
	}
	return t.Package + "." + cls
}

// JavaTests returns the approved tests of a Java session as a JUnit 5
// class testClass in the class's package, and the number of its @Test
// methods.
func (c *Conversation) JavaTests(testClass string, rejected []execute.Test) (string, int, error) {
	return java.Java{}.JUnitClass(c.sess.Spec().Task.Prompt, c.sess.Spec().Task.EntryPoint, c.module.Package, testClass, c.sess.Approved(), rejected)
}

// CheckJavaTests compiles code (the class's file) and tests (a JUnit
// class testFile) together against the project's class path and runs the
// tests with JUnit in the sandbox of r (the project's Java pool). It
// returns the failures; Unchecked in the export says when JUnit is not
// installed.
func CheckJavaTests(ctx context.Context, r execute.Runner, t *ModuleTarget, code, testFile, tests string, count int) ([]string, error) {
	cls, _, _ := strings.Cut(t.Name, ".")
	f := lang.Files{CodeFile: cls + ".java", Code: code, TestFile: testFile, Tests: tests, TestCount: count}
	return java.Java{}.CheckExport(ctx, r, f)
}

// exportJava exports the chosen candidate of a session on a Java method:
// CLASS.java (the patched file), CLASS.patch (its diff, relative to the
// project's root) and CLASSGeneratedTest.java (the approved tests, a JUnit
// 5 class in the class's package); with check, the tests run with JUnit in
// the sandbox against the patched class and the project's class path.
func (c *Conversation) exportJava(ctx context.Context, candidate int, program string, check bool, rejected []execute.Test) (api.Export, error) {
	t := c.module
	cls, _, _ := strings.Cut(t.Name, ".")
	testClass := cls + "GeneratedTest"
	tests, n, err := c.JavaTests(testClass, rejected)
	if err != nil {
		return api.Export{}, err
	}
	ex := api.Export{
		CodeFile: cls + ".java", Code: program, TestFile: testClass + ".java", Tests: tests, TestCount: n,
		Command:   "mvn test -Dtest=" + testClass + " (or gradle test --tests " + t.qualifiedClass() + "GeneratedTest)",
		PatchFile: cls + ".patch", Patch: project.UnifiedDiff(t.Rel, t.Source, program),
		Module: t.qualifiedClass(), Patched: program, Candidate: candidate,
	}
	if !check {
		return ex, nil
	}
	fails, err := CheckJavaTests(ctx, c.runner, t, program, ex.TestFile, tests, n)
	if errors.Is(err, jvm.ErrNoJUnit) {
		ex.Unchecked = err.Error()
		return ex, nil
	}
	if err != nil {
		return ex, fmt.Errorf("check %s: %w", ex.TestFile, err)
	}
	ex.Checked, ex.Failures, ex.Passed = true, fails, len(fails) == 0
	return ex, nil
}
