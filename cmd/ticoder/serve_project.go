package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/project"
	"github.com/ticoder/ticoder/internal/server"
)

// maxListBatch bounds the sources sent to the sandbox in one call when
// the project's functions are listed.
const maxListBatch = 4 << 20

// serveProject is the project of `ticoder serve --project DIR`: it lists
// the project's functions with the project's interpreter and opens
// sessions on them as `run --spec FILE::NAME --project DIR` does. It
// implements server.Projects and is safe for concurrent use.
type serveProject struct {
	g     *globalOptions
	root  string
	mask  []string
	base  *interact.Builder
	list  *execute.Pool // the project's interpreter, no module
	pools *mcpProjects
}

// openServeProject resolves DIR, inspects its interpreter and starts the
// pool that lists its functions; the caller closes it.
func openServeProject(ctx context.Context, g *globalOptions, f projectFlags, base *interact.Builder, eng *engine) (*serveProject, error) {
	if g.natsURL() != "" {
		return nil, usagef("serve --project runs candidates in the project on this machine; it does not go with --nats")
	}
	root, err := project.RealDir(f.project)
	if err != nil {
		return nil, err
	}
	mask, err := project.Masks(root, f.mask)
	if err != nil {
		return nil, err
	}
	in, err := project.Inspect(ctx, project.FindPython(f.python, root))
	if err != nil {
		return nil, err
	}
	cfg := (&project.Project{Root: root, Mask: mask}).Sandbox(in)
	cfg.Unsafe = g.unsafe
	list, err := execute.NewPool(ctx, execute.Options{Workers: 1, Sandbox: cfg, NoSafePath: in.Version[1] < 11})
	if err != nil {
		return nil, err
	}
	f.project = root
	return &serveProject{g: g, root: root, mask: mask, base: base, list: list, pools: &mcpProjects{g: g, flags: f, db: eng.DB}}, nil
}

// close stops the pools.
func (p *serveProject) close() {
	p.list.Close()
	p.pools.close()
}

// Root returns the project's directory.
func (p *serveProject) Root() string { return p.root }

// Functions lists the project's functions, reading its modules now.
func (p *serveProject) Functions(ctx context.Context) (api.Project, error) {
	out := api.Project{Root: p.root, Functions: []api.ProjectFunction{}}
	mods, truncated, err := project.Modules(p.root, p.mask)
	if err != nil {
		return out, fmt.Errorf("list the modules of %s: %w", p.root, err)
	}
	if truncated {
		out.Problems = append(out.Problems, fmt.Sprintf("more than %d modules: only the first are listed", project.MaxModules))
	}
	batch, size := map[string]string{}, 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		funcs, problems, err := interact.Functions(ctx, p.list, batch)
		if err != nil {
			return err
		}
		for _, rel := range sortedKeys(batch) {
			for _, name := range funcs[rel] {
				out.Functions = append(out.Functions, api.ProjectFunction{File: rel, Name: name})
			}
			if msg, ok := problems[rel]; ok {
				out.Problems = append(out.Problems, rel+": "+msg)
			}
		}
		batch, size = map[string]string{}, 0
		return nil
	}
	for _, rel := range mods {
		data, err := os.ReadFile(project.JoinRel(p.root, rel))
		if err != nil {
			out.Problems = append(out.Problems, fmt.Sprintf("%s: %v", rel, err))
			continue
		}
		if size+len(data) > maxListBatch {
			if err := flush(); err != nil {
				return out, err
			}
		}
		batch[rel], size = string(data), size+len(data)
	}
	return out, flush()
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Open prepares a session on function in file, both exactly as Functions
// lists them now.
func (p *serveProject) Open(ctx context.Context, file, function string) (interact.Source, *interact.Builder, execute.Runner, error) {
	listed, err := p.Functions(ctx)
	if err != nil {
		return interact.Source{}, nil, nil, err
	}
	if !slices.Contains(listed.Functions, api.ProjectFunction{File: file, Name: function}) {
		return interact.Source{}, nil, nil, fmt.Errorf("%w: %s::%s is not one of the project's functions that this server lists", interact.ErrBadSource, file, function)
	}
	b, r, t, err := p.open(ctx, file, function)
	if err != nil {
		return interact.Source{}, nil, nil, err
	}
	return interact.Source{Module: t}, b, r, nil
}

// open resolves rel (a listed module) and returns the builder and runner
// of a session on function in it.
func (p *serveProject) open(ctx context.Context, rel, function string) (*interact.Builder, execute.Runner, *interact.ModuleTarget, error) {
	abs, err := project.ModuleFile(p.root, rel)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %w", interact.ErrBadSource, err)
	}
	t, r, err := p.pools.open(ctx, abs, function, p.root)
	if err != nil {
		return nil, nil, nil, err
	}
	bb := *p.base
	bb.Runner, bb.Runners = r, nil // every program runs as the module
	return &bb, r, t, nil
}

// Reopen returns the builder and runner of a stored session on one of the
// project's functions.
func (p *serveProject) Reopen(ctx context.Context, t *interact.ModuleTarget) (*interact.Builder, execute.Runner, error) {
	if t.Root != p.root {
		return nil, nil, fmt.Errorf("%w: the session works on %s in %s, not in this server's project %s", interact.ErrBadSource, t.Rel, t.Root, p.root)
	}
	b, r, _, err := p.open(ctx, t.Rel, t.Name)
	return b, r, err
}

// Write writes conv's candidate into the project as run --write does.
func (p *serveProject) Write(ctx context.Context, conv *interact.Conversation, candidate int) (string, error) {
	t := conv.Module()
	if t.Root != p.root {
		return "", fmt.Errorf("%w: the session works on a file of another project", interact.ErrBadSource)
	}
	if _, err := project.ModuleFile(p.root, t.Rel); err != nil {
		return "", fmt.Errorf("%w: %w", interact.ErrBadSource, err)
	}
	f := p.pools.flags
	run, err := f.openProject(ctx, p.g, project.Target{File: t.File, Name: t.Name}, io.Discard)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	err = writeInPlace(ctx, run, conv, candidate, &out)
	if errors.Is(err, errFileChanged) {
		err = fmt.Errorf("%w: %w", server.ErrFileChanged, err)
	}
	return out.String(), err
}
