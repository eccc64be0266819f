package mcpserver

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/api"
)

// OutDir is the directory, inside the client's workspace root, that
// receives results.
const OutDir = "ticoder-out"

// writeFiles writes ex's code and tests into a new directory under the
// client's first file:// workspace root, ROOT/ticoder-out/NAME-TIME, and
// returns the files' paths; none when the client grants no such root.
// Failures are logged, not returned: the result holds the files' contents.
func (s *Server) writeFiles(ctx context.Context, ss *mcp.ServerSession, ex api.Export) []string {
	root := s.workspaceRoot(ctx, ss)
	if root == "" {
		return nil
	}
	name := strings.TrimSuffix(filepath.Base(ex.CodeFile), ".py")
	dir := filepath.Join(root, OutDir, name+"-"+time.Now().Format("20060102-150405.000"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.log.Warn("cannot write the result into the workspace", "dir", dir, "err", err)
		return nil
	}
	var out []string
	files := []struct{ name, text string }{{ex.CodeFile, ex.Code}, {ex.TestFile, ex.Tests}}
	if ex.PatchFile != "" {
		files = append(files, struct{ name, text string }{ex.PatchFile, ex.Patch})
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.Base(f.name))
		if err := writeNew(p, f.text); err != nil {
			s.log.Warn("cannot write the result into the workspace", "file", p, "err", err)
			continue
		}
		out = append(out, p)
	}
	return out
}

// writeNew writes a file that must not exist yet.
func writeNew(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

// workspaceRoot returns the local directory of the client's first file://
// root, or "" when it grants none.
func (s *Server) workspaceRoot(ctx context.Context, ss *mcp.ServerSession) string {
	ip := ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.RootsV2 == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		s.log.Debug("the client lists no roots", "err", err)
		return ""
	}
	for _, r := range res.Roots {
		if dir := localDir(r.URI); dir != "" {
			return dir
		}
	}
	return ""
}

// localDir returns the existing local directory a file:// URI names, or "".
func localDir(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
		return ""
	}
	dir := filepath.Clean(filepath.FromSlash(u.Path))
	if !filepath.IsAbs(dir) {
		return ""
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return ""
	}
	return dir
}
