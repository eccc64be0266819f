package project

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ticoder/ticoder/internal/sandbox"
)

// Limits of Modules.
const (
	// MaxModules bounds the modules Modules returns.
	MaxModules = 2000
	// MaxModuleBytes is the size above which a module is left out.
	MaxModuleBytes = 512 << 10
)

// skipDirs are directories whose modules are not the project's own code.
var skipDirs = map[string]bool{"tests": true, "test": true, "__pycache__": true, "node_modules": true, "site-packages": true}

// Modules returns the project's own Python modules under root (absolute
// and free of symlinks), relative to it with slashes, sorted: every
// regular .py file but those masked, those in hidden directories, in tests/
// or test/, in a virtual environment (a directory with pyvenv.cfg) or in
// site-packages, test files (test_*.py, *_test.py, conftest.py), and those
// over MaxModuleBytes. Symlinks are never followed nor listed. truncated
// reports that there were more than MaxModules.
func Modules(root string, mask []string) (mods []string, truncated bool, err error) {
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if path == root {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 || sandbox.Masked(mask, rel) {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if strings.HasPrefix(name, ".") || skipDirs[name] || isFile(filepath.Join(path, "pyvenv.cfg")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(name, ".py") || strings.HasPrefix(name, "test_") ||
			strings.HasSuffix(name, "_test.py") || name == "conftest.py" {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > MaxModuleBytes {
			return nil
		}
		if len(mods) == MaxModules {
			truncated = true
			return filepath.SkipAll
		}
		mods = append(mods, rel)
		return nil
	})
	sort.Strings(mods)
	return mods, truncated, err
}

// ModuleFile returns the absolute path of rel, one of the modules Modules
// listed under root, checked again: a regular file inside root reached
// through no symlink. A path from elsewhere (a browser) is only ever used
// after it matched a listed module exactly.
func ModuleFile(root, rel string) (string, error) {
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if filepath.IsAbs(rel) || !under(abs, root) {
		return "", badProject("%s is not a module of the project %s", rel, root)
	}
	for p := abs; p != root; p = filepath.Dir(p) {
		st, err := os.Lstat(p)
		if err != nil {
			return "", badProject("%s: %v", rel, err)
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			return "", badProject("%s: %s is a symlink, which ticoder does not follow in a project", rel, p)
		}
	}
	if st, err := os.Lstat(abs); err != nil || !st.Mode().IsRegular() {
		return "", badProject("%s is not a regular file", rel)
	}
	return abs, nil
}

// JoinRel returns rel, a path with slashes relative to root, joined to it.
func JoinRel(root, rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
