package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
)

// errOutsideRoot: a file argument resolves outside the workspace root.
var errOutsideRoot = errors.New("is outside the workspace root")

// moduleSource returns the source and runner of a session on in.Function
// in in.File, a path relative to the workspace root (Options.Root, else the
// client's first file:// root). A path that resolves outside the root
// (through .. or a symlink) is refused.
func (s *Server) moduleSource(ctx context.Context, req *mcp.CallToolRequest, in SourceInput) (interact.Source, execute.Runner, error) {
	if in.File == "" || in.Function == "" {
		return interact.Source{}, nil, fmt.Errorf("give both file (a module, relative to the workspace root) and function (its name)")
	}
	if s.opts.OpenProject == nil {
		return interact.Source{}, nil, fmt.Errorf("this server does not work on project files")
	}
	root := s.opts.Root
	if root == "" {
		root = s.workspaceRoot(ctx, req.Session)
	}
	if root == "" {
		return interact.Source{}, nil, fmt.Errorf("no workspace root to find %s in: start ticoder mcp with --root DIR, or use a client that grants file:// roots", in.File)
	}
	file, rootReal, err := confine(root, in.File)
	if err != nil {
		return interact.Source{}, nil, err
	}
	mt, r, err := s.opts.OpenProject(ctx, file, in.Function, rootReal)
	if err != nil {
		return interact.Source{}, nil, err
	}
	return interact.Source{Module: mt}, r, nil
}

// confine resolves rel, a path relative to root, and returns it and root
// free of symlinks; it refuses an absolute rel and anything that resolves
// outside root.
func confine(root, rel string) (string, string, error) {
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", "", fmt.Errorf("workspace root %s: %w", root, err)
	}
	if filepath.IsAbs(rel) {
		return "", "", fmt.Errorf("file %q: give a path relative to the workspace root", rel)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(rootReal, rel))
	if err != nil {
		return "", "", fmt.Errorf("file %q: %w", rel, err)
	}
	back, err := filepath.Rel(rootReal, real)
	if err != nil || back == ".." || strings.HasPrefix(back, "../") {
		return "", "", fmt.Errorf("file %q %w", rel, errOutsideRoot)
	}
	return real, rootReal, nil
}
