package project

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ticoder/ticoder/internal/sandbox"
)

// ErrBadProject matches (with errors.Is) every error about a target, a
// project or an interpreter that cannot be used as given.
var ErrBadProject = errors.New("unusable project")

// badProject returns an error with a formatted message that matches
// ErrBadProject.
func badProject(format string, args ...any) error {
	return fmt.Errorf("%w", &projectError{msg: fmt.Sprintf(format, args...)})
}

// projectError is a user's mistake about a project; it matches ErrBadProject.
type projectError struct{ msg string }

// Error returns the message.
func (e *projectError) Error() string { return e.msg }

// Is reports whether target is ErrBadProject.
func (e *projectError) Is(target error) bool { return target == ErrBadProject }

// Target names a function in a file: FILE::NAME or FILE::Class.method.
type Target struct {
	// File is the path of the module as given.
	File string
	// Name is the function's qualified name: NAME or Class.method.
	Name string
}

// identifier matches a Python identifier of ASCII letters.
var qualName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$`)

// ParseTarget parses FILE::NAME; ok is false when spec has no "::" (a plain
// stub file).
func ParseTarget(spec string) (Target, bool, error) {
	i := strings.LastIndex(spec, "::")
	if i < 0 {
		return Target{}, false, nil
	}
	t := Target{File: spec[:i], Name: spec[i+2:]}
	if t.File == "" {
		return t, true, badProject("%q: give the file before ::, e.g. src/shop/pricing.py::apply_discount", spec)
	}
	if !qualName.MatchString(t.Name) {
		return t, true, badProject("%q: after :: give a function's name or Class.method, e.g. %s::apply_discount", spec, t.File)
	}
	return t, true, nil
}

// Project is a target resolved in its project.
type Project struct {
	// Root is the project's directory, absolute and free of symlinks.
	Root string
	// File is the module's absolute path, free of symlinks; Rel is the
	// same relative to Root, with slashes.
	File, Rel string
	// Name is the function's qualified name (NAME or Class.method).
	Name string
	// Module is the module's dotted name, e.g. shop.pricing.
	Module string
	// Paths are the directories that go first on sys.path: the first
	// directory above the module that is not a package, and Root.
	Paths []string
	// Mask are the patterns of entries no candidate sees (see
	// sandbox.ProjectView.Mask).
	Mask []string
	// Java reports a Java source file (FILE.java::Class.method): Module
	// and Paths are then empty (see JavaClasspath).
	Java bool
}

// markers are the files or directories that make a directory a Python
// project's root; javaMarkers a Java project's (Maven, Gradle).
var (
	markers     = []string{"pyproject.toml", "setup.cfg", "setup.py", ".git"}
	javaMarkers = []string{"pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", ".git"}
)

// Resolve finds t's project: root, when not empty, is the project's
// directory; else the nearest ancestor of the file with a marker. mask adds
// patterns to the default ones and the project's own.
func Resolve(t Target, root string, mask []string) (*Project, error) {
	file, err := filepath.Abs(t.File)
	if err == nil {
		file, err = filepath.EvalSymlinks(file)
	}
	if err != nil {
		return nil, badProject("%s: %v", t.File, err)
	}
	java := filepath.Ext(file) == ".java"
	if st, err := os.Stat(file); err != nil || !st.Mode().IsRegular() || filepath.Ext(file) != ".py" && !java {
		return nil, badProject("%s: not a Python or Java file (want FILE.py::NAME or FILE.java::Class.method)", t.File)
	}
	if java && !strings.Contains(t.Name, ".") {
		return nil, badProject("%s::%s: name the class too, e.g. %s::%s.%s", t.File, t.Name,
			t.File, strings.TrimSuffix(filepath.Base(t.File), ".java"), t.Name)
	}
	if root == "" {
		if root, err = discover(file, java); err != nil {
			return nil, err
		}
	} else if root, err = realDir(root); err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(root, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil, badProject("%s is not inside the project %s", t.File, root)
	}
	if err := sandbox.CheckShowable(root); err != nil {
		return nil, badProject("project %v", err)
	}
	p := &Project{Root: root, File: file, Rel: filepath.ToSlash(rel), Name: t.Name, Java: java}
	if p.Mask, err = Masks(root, mask); err != nil {
		return nil, err
	}
	if sandbox.Masked(p.Mask, p.Rel) {
		return nil, badProject("%s is masked (a secret no candidate may see), so ticoder cannot work on it", p.Rel)
	}
	if !java {
		p.Module, p.Paths = moduleName(root, file)
	}
	return p, nil
}

// Masks returns the patterns of the entries of the project at root that
// no candidate sees: sandbox.DefaultMask, the project's own [tool.ticoder]
// mask list in pyproject.toml, and extra.
func Masks(root string, extra []string) ([]string, error) {
	own, err := pyprojectStrings(root, "tool.ticoder", "mask")
	if err != nil {
		return nil, err
	}
	mask := append(append(append([]string(nil), sandbox.DefaultMask...), own...), extra...)
	if err := sandbox.CheckMask(mask); err != nil {
		return nil, badProject("%v", err)
	}
	return mask, nil
}

// RealDir returns dir made absolute and free of symlinks, checked to be a
// directory the sandbox can show.
func RealDir(dir string) (string, error) {
	abs, err := realDir(dir)
	if err != nil {
		return "", err
	}
	if err := sandbox.CheckShowable(abs); err != nil {
		return "", badProject("project %v", err)
	}
	return abs, nil
}

// realDir returns dir made absolute and free of symlinks, checked to be a
// directory.
func realDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return "", badProject("project %s: %v", dir, err)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", badProject("project %s: not a directory", dir)
	}
	return abs, nil
}

// discover returns the nearest ancestor of file with a marker (of a Java
// project's, with java).
func discover(file string, java bool) (string, error) {
	ms := markers
	if java {
		ms = javaMarkers
	}
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		for _, m := range ms {
			if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
				return dir, nil
			}
		}
		if dir == filepath.Dir(dir) {
			return "", badProject("%s is in no project (no directory above it has %s): give --project DIR",
				file, strings.Join(ms, ", "))
		}
	}
}

// moduleName returns the dotted name of the module file and the
// directories that go first on sys.path, as pytest's rootdir rules put
// them: the module's packages are the directories above it with an
// __init__.py, and the first one without goes on sys.path. In a src layout
// without __init__.py files (namespace packages), ROOT/src is that
// directory. The root itself comes next.
func moduleName(root, file string) (string, []string) {
	name := strings.TrimSuffix(filepath.Base(file), ".py")
	var parts []string
	if name != "__init__" {
		parts = []string{name}
	}
	dir := filepath.Dir(file)
	for dir != root && isFile(filepath.Join(dir, "__init__.py")) {
		parts = append([]string{filepath.Base(dir)}, parts...)
		dir = filepath.Dir(dir)
	}
	if src := filepath.Join(root, "src"); dir != src && strings.HasPrefix(dir, src+"/") && !isFile(filepath.Join(dir, "__init__.py")) {
		rel, _ := filepath.Rel(src, filepath.Dir(file))
		parts = append(strings.Split(rel, string(filepath.Separator)), name)
		dir = src
	}
	paths := []string{dir}
	if dir != root {
		paths = append(paths, root)
	}
	return strings.Join(parts, "."), paths
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
