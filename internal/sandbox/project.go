package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ProjectView shows a project's directory read-only inside the sandbox, at
// its own path, without its masked entries: a directory that holds a masked
// entry anywhere below it is rebuilt from its other entries, so a masked
// entry does not exist inside, not even as a name in a listing. Directories
// with nothing masked below them are bound whole. Symlinks are recreated as
// they are and never followed: one that points at a masked entry, or outside
// what the sandbox shows, dangles inside.
type ProjectView struct {
	// Dir is the project's directory, an absolute path free of symlinks.
	Dir string `json:"dir"`
	// Mask lists glob patterns (path.Match syntax). A pattern without a
	// slash masks every entry whose name it matches, anywhere in the tree;
	// one with a slash matches an entry's path relative to Dir.
	Mask []string `json:"mask,omitempty"`
	// Whole lists directories under Dir shown whole, masks not applied
	// (the project's virtual environment, whose packages may hold files such
	// as certifi's cacert.pem).
	Whole []string `json:"whole,omitempty"`
}

// ErrPrivateTmp is returned for a host path under /tmp, which the sandbox
// cannot show: its /tmp is a private tmpfs of its own.
var ErrPrivateTmp = errors.New("the sandbox's /tmp is its own, so nothing under the host's /tmp can be shown inside: " +
	"move it elsewhere (e.g. under your home directory, or /var/tmp)")

// CheckShowable returns an error wrapping ErrPrivateTmp when the host path
// p is under /tmp.
func CheckShowable(p string) error {
	if under(filepath.Clean(p), []string{newRoot}) {
		return fmt.Errorf("%s: %w", p, ErrPrivateTmp)
	}
	return nil
}

// maxProjectEntries bounds the entries looked at to build a project's view.
const maxProjectEntries = 200_000

// DefaultMask is what a project never shows a candidate: version control,
// environment files, keys and the credentials of common tools.
var DefaultMask = []string{
	".git", ".env", ".env.*", ".envrc", "*.pem", "*.key", "id_rsa*", "id_ed25519*", "id_ecdsa*",
	".netrc", ".ssh", ".aws", ".pypirc", ".npmrc", ".gnupg", ".docker",
}

// Masked reports whether the entry at rel, a slash-separated path relative
// to the project's directory, is masked by patterns (see ProjectView.Mask).
// An entry inside a masked directory is masked too.
func Masked(patterns []string, rel string) bool {
	rel = strings.Trim(filepath.ToSlash(rel), "/")
	parts := strings.Split(rel, "/")
	for i := range parts {
		sub := strings.Join(parts[:i+1], "/")
		for _, p := range patterns {
			p = strings.Trim(p, "/")
			target := parts[i]
			if strings.Contains(p, "/") {
				target = sub
			}
			if ok, err := path.Match(p, target); err == nil && ok {
				return true
			}
		}
	}
	return false
}

// CheckMask returns an error naming the first pattern that is not a valid
// glob.
func CheckMask(patterns []string) error {
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("mask pattern %q: %w", p, err)
		}
	}
	return nil
}

// showProject builds v inside newRoot and returns the paths bound.
func (m *mirror) showProject(v ProjectView) error {
	if !filepath.IsAbs(v.Dir) {
		return fmt.Errorf("project %q: not an absolute path", v.Dir)
	}
	dir := filepath.Clean(v.Dir)
	if err := CheckShowable(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(newRoot+dir, 0o755); err != nil {
		return fmt.Errorf("project %s: %w", dir, err)
	}
	p := &projectPlan{v: v, dir: dir, clean: map[string]bool{}}
	if _, err := p.scan(dir); err != nil {
		return fmt.Errorf("project %s: %w (when ticoder runs as root, the sandbox reads only what every user may read)", dir, err)
	}
	return m.build(p, dir)
}

// projectPlan records which directories of a project hold nothing masked.
type projectPlan struct {
	v       ProjectView
	dir     string
	clean   map[string]bool
	entries int
}

// whole reports whether p is one of the view's Whole directories.
func (p *projectPlan) whole(dir string) bool {
	for _, w := range p.v.Whole {
		if filepath.Clean(w) == dir {
			return true
		}
	}
	return false
}

// scan reports whether nothing below dir is masked, recording it for every
// directory below.
func (p *projectPlan) scan(dir string) (bool, error) {
	if p.whole(dir) {
		p.clean[dir] = true
		return true, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	clean := true
	for _, e := range entries {
		if p.entries++; p.entries > maxProjectEntries {
			return false, fmt.Errorf("more than %d entries", maxProjectEntries)
		}
		full := filepath.Join(dir, e.Name())
		rel, _ := filepath.Rel(p.dir, full)
		if Masked(p.v.Mask, rel) {
			clean = false
			continue
		}
		if e.IsDir() {
			sub, err := p.scan(full)
			if err != nil {
				return false, err
			}
			clean = clean && sub
		}
	}
	p.clean[dir] = clean
	return clean, nil
}

// build shows dir inside newRoot: whole when nothing below it is masked,
// else as a directory of its unmasked entries.
func (m *mirror) build(p *projectPlan, dir string) error {
	if p.clean[dir] {
		if err := bindReadOnly(dir, newRoot+dir, true); err != nil {
			return err
		}
		m.bound = append(m.bound, dir)
		return nil
	}
	if err := os.Mkdir(newRoot+dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("mkdir %s: %w", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		full := filepath.Join(dir, e.Name())
		rel, _ := filepath.Rel(p.dir, full)
		if Masked(p.v.Mask, rel) {
			continue
		}
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(full)
			if err != nil {
				return fmt.Errorf("read link %s: %w", full, err)
			}
			if err := os.Symlink(target, newRoot+full); err != nil {
				return fmt.Errorf("link %s: %w", full, err)
			}
		case t.IsDir():
			if _, seen := p.clean[full]; !seen {
				continue // appeared after the scan
			}
			if err := m.build(p, full); err != nil {
				return err
			}
		case t.IsRegular():
			if err := bindReadOnly(full, newRoot+full, false); err != nil {
				return err
			}
			m.bound = append(m.bound, full)
		}
	}
	return nil
}
