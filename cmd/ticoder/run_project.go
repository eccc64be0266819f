package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/project"
	"github.com/ticoder/ticoder/internal/sandbox"
)

// projectFlags are the flags of a session on a function inside a project
// (--spec FILE::NAME), shared by run and serve.
type projectFlags struct {
	project   string
	python    string
	mask      []string
	classpath []string
}

func (f *projectFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.project, "project", "", "with --spec FILE::NAME: the project's directory, shown read-only to candidates (default: the nearest directory above FILE with pyproject.toml, setup.cfg, setup.py or .git)")
	fs.StringVar(&f.python, "python", "", "with --spec FILE::NAME: the interpreter that runs candidates (default: $VIRTUAL_ENV/bin/python, then PROJECT/.venv/bin/python, PROJECT/venv/bin/python, /usr/bin/python3)")
	fs.StringArrayVar(&f.classpath, "classpath", nil, "with --spec FILE.java::Class.method: more class directories and jars the candidates compile and run against, shown read-only (repeatable, or joined with ':'; the project's target/classes or build/classes/java/main is on it already)")
	fs.StringArrayVar(&f.mask, "mask", nil, "with --spec FILE::NAME: a glob of project entries no candidate may see, besides .git, .env*, keys and credentials (repeatable; a pattern with a slash matches paths from the project's root)")
}

// set reports whether any of the flags was given.
func (f *projectFlags) set() bool {
	return f.project != "" || f.python != "" || len(f.mask) > 0 || len(f.classpath) > 0
}

// runProject runs a session on the function t inside its project.
func runProject(ctx context.Context, g *globalOptions, o *runOptions, opts interact.Options, t project.Target, in io.Reader, out, errw io.Writer) error {
	if o.flags.model == "" {
		return fmt.Errorf("%w: --spec FILE::NAME needs --model, which writes the candidates and tests", interact.ErrNoModel)
	}
	var p *projectRun
	var eng *engine
	var err error
	if isJavaTarget(t) {
		if p, err = o.proj.openJavaProject(g, t, errw); err == nil {
			eng, err = openJavaProjectEngine(ctx, g, p)
		}
	} else if p, err = o.proj.openProject(ctx, g, t, errw); err == nil {
		eng, err = openProjectEngine(ctx, g, p)
	}
	if err != nil {
		return err
	}
	defer eng.Close()
	b, err := o.flags.builder(g, eng)
	if err != nil {
		return err
	}
	o.project = p
	return buildAndAsk(ctx, o, b, interact.Source{Module: p.target}, opts, in, out, errw)
}

// projectRun is a session's project: the function, its project and the
// interpreter and sandbox that run its candidates.
type projectRun struct {
	proj   *project.Project
	interp project.Interpreter
	cfg    sandbox.Config
	module *execute.Module
	target *interact.ModuleTarget
	// java, when not nil, is a Java project's (interp and module are then
	// unset).
	java *javaProject
}

// openProject resolves spec (FILE::NAME) in its project, inspects the
// interpreter and reads the module; it says on errw which interpreter runs
// the candidates.
func (f *projectFlags) openProject(ctx context.Context, g *globalOptions, t project.Target, errw io.Writer) (*projectRun, error) {
	if g.natsURL() != "" {
		return nil, usagef("--spec FILE::NAME runs candidates in the project on this machine; it does not go with --nats")
	}
	if len(f.classpath) > 0 {
		return nil, usagef("--classpath is for a Java project (--spec FILE.java::Class.method)")
	}
	proj, err := project.Resolve(t, f.project, f.mask)
	if err != nil {
		return nil, err
	}
	python := project.FindPython(f.python, proj.Root)
	in, err := project.Inspect(ctx, python)
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(proj.File)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", proj.File, err)
	}
	cfg := proj.Sandbox(in)
	cfg.Unsafe = g.unsafe
	mod := &execute.Module{Name: proj.Module, File: proj.File, Path: proj.Paths, Fingerprint: proj.Fingerprint(in)}
	fmt.Fprintf(errw, "ticoder: candidates run as %s (%s) with %s (Python %s), project %s read-only\n",
		proj.Module, proj.Rel, python, in.VersionString(), proj.Root)
	slog.Debug("project sandbox", "paths", cfg.PythonPath, "mask", proj.Mask, "sys.path", proj.Paths)
	return &projectRun{proj: proj, interp: in, cfg: cfg, module: mod, target: &interact.ModuleTarget{
		Root: proj.Root, File: proj.File, Rel: proj.Rel, Module: proj.Module, Name: proj.Name, Source: string(src),
		Python: python, Mask: proj.Mask,
	}}, nil
}

// noSafePath reports whether the interpreter lacks -P (before 3.11).
func (p *projectRun) noSafePath() bool { return p.interp.Version[1] < 11 }

// pool starts a pool of workers that run programs as the project's module.
func (p *projectRun) pool(ctx context.Context, workers int, cache *execute.Cache) (*execute.Pool, error) {
	return execute.NewPool(ctx, execute.Options{Workers: workers, Sandbox: p.cfg, Cache: cache, Module: p.module, NoSafePath: p.noSafePath()})
}

// openProjectEngine opens the cache database and an execution pool that
// runs programs as the project's module.
func openProjectEngine(ctx context.Context, g *globalOptions, p *projectRun) (*engine, error) {
	db, cache, err := g.openCache(ctx)
	if err != nil {
		return nil, err
	}
	if g.unsafe {
		fmt.Fprintln(os.Stderr, "ticoder: WARNING: --unsafe-no-sandbox: generated code runs WITHOUT isolation, with your user's access to files and network")
	}
	pool, err := p.pool(ctx, 0, cache)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &engine{Pool: pool, DB: db}, nil
}

// testsFile returns where the approved tests of p's module go: the
// project's tests directory (the first of [tool.pytest.ini_options]
// testpaths in pyproject.toml, else tests/), test_MODULE.py.
func (p *projectRun) testsFile() (string, error) {
	dir := "tests"
	paths, err := project.PytestPaths(p.proj.Root)
	if err != nil {
		return "", err
	}
	if len(paths) > 0 {
		dir = paths[0]
	}
	name := p.proj.Module[strings.LastIndex(p.proj.Module, ".")+1:]
	f := filepath.Join(p.proj.Root, filepath.FromSlash(dir), "test_"+name+".py")
	rel, _ := filepath.Rel(p.proj.Root, f)
	if sandbox.Masked(p.proj.Mask, rel) {
		return "", fmt.Errorf("%w: the tests would go to %s, which is masked", project.ErrBadProject, rel)
	}
	return f, nil
}

// mcpProjects opens the projects of `ticoder mcp`'s file arguments: one
// pool per module, kept until the server ends.
type mcpProjects struct {
	g     *globalOptions
	flags projectFlags
	db    *sql.DB
	mu    sync.Mutex
	pools map[string]*execute.Pool
}

// open resolves function in file inside root (the project is the nearest
// directory with a marker, but never above root), and returns the target
// and a pool that runs programs as its module.
func (m *mcpProjects) open(ctx context.Context, file, function, root string) (*interact.ModuleTarget, execute.Runner, error) {
	t := project.Target{File: file, Name: function}
	if _, _, err := project.ParseTarget(file + "::" + function); err != nil {
		return nil, nil, err
	}
	if isJavaTarget(t) {
		return nil, nil, fmt.Errorf("%w: %s: the MCP server writes Python functions; for a Java method run ticoder run --spec %s::%s",
			project.ErrBadProject, file, file, function)
	}
	f := m.flags
	if proj, err := project.Resolve(t, "", f.mask); err != nil || !strings.HasPrefix(proj.Root+"/", root+"/") {
		f.project = root
	}
	p, err := f.openProject(ctx, m.g, t, io.Discard)
	if err != nil {
		return nil, nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	key := p.proj.File + "\x00" + p.interp.Path + "\x00" + p.module.Fingerprint
	if pool, ok := m.pools[key]; ok {
		return p.target, pool, nil
	}
	cache, err := execute.NewCache(ctx, m.db)
	if err != nil {
		return nil, nil, err
	}
	pool, err := p.pool(ctx, 0, cache)
	if err != nil {
		return nil, nil, err
	}
	if m.pools == nil {
		m.pools = map[string]*execute.Pool{}
	}
	m.pools[key] = pool
	return p.target, pool, nil
}

// close stops every pool.
func (m *mcpProjects) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.pools {
		p.Close()
	}
}

// resumeProject takes up the session file o.resume on t, a function in a
// project: in the project, with the interpreter and masks the session
// file records, checked again. A module that changed since the session
// began is refused.
func resumeProject(ctx context.Context, g *globalOptions, o *runOptions, data []byte, t *interact.ModuleTarget, in io.Reader, out, errw io.Writer) error {
	if o.proj.set() {
		return usagef("run: --resume takes up a session on %s::%s in the project, interpreter and masks it was kept with: drop --project, --python and --mask", t.Rel, t.Name)
	}
	if t.Java {
		return fmt.Errorf("%w: %s is a session on the Java method %s::%s, which --resume cannot take up yet: run --spec %s::%s again",
			interact.ErrBadSource, o.resume, t.Rel, t.Name, t.File, t.Name)
	}
	if t.Python == "" {
		return fmt.Errorf("%w: %s was kept by an older ticoder that did not record the interpreter: run --spec %s::%s again",
			interact.ErrBadSource, o.resume, t.File, t.Name)
	}
	f := projectFlags{project: t.Root, python: t.Python, mask: t.Mask}
	p, err := f.openProject(ctx, g, project.Target{File: t.File, Name: t.Name}, errw)
	if err != nil {
		return err
	}
	if p.target.Source != t.Source {
		return fmt.Errorf("%s %w: the session's answers are about the file as it was; run --spec %s::%s again", t.Rel, errFileChanged, t.File, t.Name)
	}
	eng, err := openProjectEngine(ctx, g, p)
	if err != nil {
		return err
	}
	defer eng.Close()
	conv, err := interact.Load(data, eng.Pool)
	if err != nil {
		return fmt.Errorf("%w: %s is not a session file that run kept: %w", interact.ErrBadSource, o.resume, err)
	}
	o.project = p
	fmt.Fprintf(errw, "ticoder: resuming %s with %s\n", o.resume, plural(len(conv.State("").History), "answer"))
	return askAndWrite(ctx, o, conv, o.resume, in, out, errw)
}
