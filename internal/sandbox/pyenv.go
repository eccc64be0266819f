package sandbox

import (
	"debug/elf"
	"os"
	"path/filepath"
	"strings"
)

// envLayout is the layout of an interpreter whose sys.path is known
// (Config.PythonPath): a project's virtual environment or any other Python.
// It shows the interpreter as python names it (a venv's bin/python and the
// links to its base interpreter), the venv's pyvenv.cfg, the dynamic loader
// and system libraries, and exactly the paths given, but no dist-packages
// or standard library of its own guessing: a package outside the
// interpreter's sys.path cannot be imported inside. Paths inside project
// are left to the project's view, which applies its masks.
func envLayout(python string, paths []string, project *ProjectView) (layout, error) {
	l := layout{etc: etcFiles}
	real, interp, needed, err := interpreterBinary(python)
	if err != nil {
		return l, err
	}
	libs := existing(libraryDirs())
	// An interpreter built with --enable-shared (pyenv, python.org builds)
	// finds libpythonX.Y.so through its RUNPATH, its own prefix's lib
	// directory: that file alone is shown, not the directory (which holds
	// the base interpreter's site-packages).
	var system []string
	for _, lib := range needed {
		if p := inRunpath(real, lib); p != "" && !underAny(filepath.Dir(p), libs) {
			l.files = append(l.files, p)
			continue
		}
		system = append(system, lib)
	}
	if err := checkLibraries(python, interp, system, libs); err != nil {
		return l, err
	}
	l.dirs = libs
	var inProject []string
	if project != nil {
		inProject = []string{filepath.Clean(project.Dir)}
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			continue
		}
		p = filepath.Clean(p)
		if under(p, inProject) && !underAny(p, project.Whole) {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			l.dirs = append(l.dirs, p)
		}
	}
	l.dirs = append(l.dirs, existing([]string{
		"/usr/share/zoneinfo", "/usr/lib/locale/C.utf8", "/usr/lib/locale/C.UTF-8",
	})...)
	l.files = append(l.files, python)
	if interp != "" {
		l.files = append(l.files, interp)
	}
	// A venv is recognised by the pyvenv.cfg beside its bin directory.
	if cfg := filepath.Join(filepath.Dir(filepath.Dir(python)), "pyvenv.cfg"); fileExists(cfg) {
		l.files = append(l.files, cfg)
	}
	l.files = append(l.files, existing([]string{
		"/bin/sh", "/etc/ld.so.cache", "/etc/localtime", "/etc/protocols", "/etc/services",
	})...)
	l.files = append(l.files, alternatives(libs)...)
	return l, nil
}

// inRunpath returns the path of library lib in a directory of binary's
// DT_RUNPATH or DT_RPATH ($ORIGIN expanded), "" if none has it.
func inRunpath(binary, lib string) string {
	f, err := elf.Open(binary)
	if err != nil {
		return ""
	}
	defer f.Close()
	var dirs []string
	for _, tag := range []elf.DynTag{elf.DT_RUNPATH, elf.DT_RPATH} {
		vals, _ := f.DynString(tag)
		for _, v := range vals {
			for _, d := range strings.Split(v, ":") {
				d = strings.ReplaceAll(strings.ReplaceAll(d, "${ORIGIN}", "$ORIGIN"), "$ORIGIN", filepath.Dir(binary))
				if filepath.IsAbs(d) {
					dirs = append(dirs, d)
				}
			}
		}
	}
	for _, d := range dirs {
		if p := filepath.Join(d, lib); fileExists(p) {
			return p
		}
	}
	return ""
}

// CheckPython returns an error naming what is missing when the sandbox
// could not run python with the given paths (Config.PythonPath): the
// binary, its dynamic loader or a library it links against.
func CheckPython(python string, paths []string) error {
	_, err := envLayout(python, paths, nil)
	return err
}

// underAny reports whether p is one of dirs or inside one of them, dirs
// cleaned first.
func underAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if under(p, []string{filepath.Clean(d)}) {
			return true
		}
	}
	return false
}

// fileExists reports whether p is a regular file (following symlinks).
func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
