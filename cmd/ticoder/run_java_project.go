package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/lang/java"
	"github.com/ticoder/ticoder/internal/project"
	"github.com/ticoder/ticoder/internal/sandbox"
)

// javaProject is what a session on a Java project's method runs with:
// the project's class path and what the Java pool needs of it.
type javaProject struct {
	classpath project.JavaClasspath
	opts      *jvm.Project
	cfg       sandbox.Config
}

// isJavaTarget reports whether t names a method of a Java file.
func isJavaTarget(t project.Target) bool { return strings.EqualFold(filepath.Ext(t.File), ".java") }

// openJavaProject resolves t (FILE.java::Class.method) in its Maven or
// Gradle project, finds its class path and reads the class; it says on
// errw what the candidates run with.
func (f *projectFlags) openJavaProject(g *globalOptions, t project.Target, errw io.Writer) (*projectRun, error) {
	if g.natsURL() != "" {
		return nil, usagef("--spec FILE::NAME runs candidates in the project on this machine; it does not go with --nats")
	}
	if f.python != "" {
		return nil, usagef("--python is for a Python project; a Java project's candidates run on ticoder's JDK (TICODER_JAVA_HOME picks another)")
	}
	proj, err := project.Resolve(t, f.project, f.mask)
	if err != nil {
		return nil, err
	}
	var extra []string
	for _, c := range f.classpath {
		extra = append(extra, filepath.SplitList(c)...)
	}
	cp, err := proj.Classpath(extra)
	if err != nil {
		return nil, err
	}
	home, err := sandbox.JavaHome()
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(proj.File)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", proj.File, err)
	}
	cls, fn, _ := strings.Cut(proj.Name, ".")
	m, err := java.LocateMethod(string(src), cls, fn)
	if err != nil {
		return nil, fmt.Errorf("%w: %s::%s: %v", interact.ErrBadSource, proj.Rel, proj.Name, err)
	}
	qualified := cls
	if m.Package != "" {
		qualified = m.Package + "." + cls
	}
	jp := &jvm.Project{Classpath: cp.Entries, Outside: cp.Outside, Fingerprint: proj.JavaFingerprint(home, cp)}
	if m.Package != "" {
		jp.Imports = []string{qualified}
	}
	shown := "no compiled classes (build the project first to use its other classes)"
	if len(cp.Entries) > 0 {
		shown = "class path " + strings.Join(cp.Entries, ":")
	}
	fmt.Fprintf(errw, "ticoder: candidates run as %s (%s) with the JDK %s, %s, project %s read-only\n",
		qualified, proj.Rel, home, shown, proj.Root)
	slog.Debug("java project sandbox", "classpath", cp.Entries, "outside", cp.Outside, "mask", proj.Mask)
	return &projectRun{proj: proj, java: &javaProject{classpath: cp, opts: jp, cfg: proj.JavaSandbox()},
		target: &interact.ModuleTarget{Root: proj.Root, File: proj.File, Rel: proj.Rel, Module: qualified, Name: proj.Name,
			Source: string(src), Java: true, Package: m.Package}}, nil
}

// javaPool starts a pool of JVM workers that run programs in p's project.
func (p *projectRun) javaPool(ctx context.Context, workers int, cache *execute.Cache) (*jvm.Pool, error) {
	pool, err := jvm.NewProjectPool(ctx, execute.Options{Workers: workers, Sandbox: p.java.cfg, Cache: cache}, p.java.opts)
	if err != nil {
		return nil, fmt.Errorf("java: %w", err)
	}
	return pool, nil
}

// openJavaProjectEngine opens the cache, a Python pool for ticoder's own
// helpers and the project's Java pool.
func openJavaProjectEngine(ctx context.Context, g *globalOptions, p *projectRun) (*engine, error) {
	eng, err := openEngine(ctx, g, 1)
	if err != nil {
		return nil, err
	}
	cache, err := execute.NewCache(ctx, eng.DB)
	var pool *jvm.Pool
	if err == nil {
		pool, err = p.javaPool(ctx, 0, cache)
	}
	if err != nil {
		eng.Close()
		return nil, err
	}
	eng.use(java.Java{}.Name(), pool)
	return eng, nil
}

// javaTestsFile returns where --write puts the approved tests of p's
// class: src/test/java/PACKAGE/CLASSGeneratedTest.java, or, when that
// exists, the first free CLASSGeneratedNTest.java (N = 2, 3, …): a file
// ticoder makes whole, never one it would have to edit inside.
func (p *projectRun) javaTestsFile(pkg string) (string, string, error) {
	cls, _, _ := strings.Cut(p.proj.Name, ".")
	dir := filepath.Join(p.proj.Root, "src", "test", "java", filepath.FromSlash(strings.ReplaceAll(pkg, ".", "/")))
	for n := 1; n < 100; n++ {
		name := cls + "GeneratedTest"
		if n > 1 {
			name = fmt.Sprintf("%sGenerated%dTest", cls, n)
		}
		path := filepath.Join(dir, name+".java")
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			rel, _ := filepath.Rel(p.proj.Root, path)
			if sandbox.Masked(p.proj.Mask, rel) {
				return "", "", fmt.Errorf("%w: the tests would go to %s, which is masked", project.ErrBadProject, rel)
			}
			return path, name, nil
		}
	}
	return "", "", fmt.Errorf("%w: %s holds 99 generated test classes of %s already", project.ErrBadProject, dir, cls)
}

// writeJavaInPlace puts the chosen method into the class's file in place
// (every other byte unchanged but new imports), writes the approved tests
// as a new JUnit class under src/test/java, then compiles and runs them
// once with JUnit against the patched class in the sandbox and shows the
// result. If the file changed since the session began, nothing is written.
func writeJavaInPlace(ctx context.Context, p *projectRun, conv *interact.Conversation, candidate int, out io.Writer) error {
	ex, t, err := exportUnchanged(ctx, conv, candidate, false)
	if err != nil {
		return err
	}
	testsPath, testClass, err := p.javaTestsFile(t.Package)
	if err != nil {
		return err
	}
	tests, n, err := conv.JavaTests(testClass, nil)
	if err != nil {
		return err
	}
	if err := writeKeepingMode(t.File, []byte(ex.Patched)); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(testsPath), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(testsPath), err)
	}
	if err := writeKeepingMode(testsPath, []byte(tests)); err != nil {
		return err
	}
	relTests, _ := filepath.Rel(p.proj.Root, testsPath)
	fmt.Fprintf(out, "\nWrote %s::%s in place and %s to %s.\n", t.Rel, t.Name, plural(n, "approved test"), relTests)
	if n == 0 {
		return nil
	}
	fails, err := interact.CheckJavaTests(ctx, conv.Runner(), t, ex.Patched, testClass+".java", tests, n)
	if errors.Is(err, jvm.ErrNoJUnit) {
		fmt.Fprintf(out, "Not run: %v.\n", err)
		return nil
	}
	if err != nil {
		return err
	}
	if len(fails) == 0 {
		fmt.Fprintf(out, "Ran the %s with JUnit against the patched class in the sandbox: all pass.\n", plural(n, "added test"))
		return nil
	}
	fmt.Fprintf(out, "Ran the %s with JUnit against the patched class in the sandbox: %d failed:\n  %s\n",
		plural(n, "added test"), len(fails), strings.Join(fails, "\n  "))
	if conv.Session().Conflict() == 0 {
		return fmt.Errorf("%d of the added tests fail against the patched project", len(fails))
	}
	return nil
}
