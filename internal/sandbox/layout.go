package sandbox

import (
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// hostname is the sandbox's host name; /etc/hosts resolves it to loopback.
const hostname = "sandbox"

// layout is what of the host a sandbox shows: a few directories and files,
// each at its host path, read-only, plus a handful of generated /etc files.
// Everything else, the rest of /usr and /etc included, does not exist inside.
type layout struct {
	// dirs are host directories shown whole (libraries, the standard
	// library, time zones), files are host files or symlink chains shown
	// one by one (the interpreter, the dynamic loader, /etc/ld.so.cache).
	dirs, files []string
	// etc are generated files, by name under /etc.
	etc map[string]string
}

// multiarchTriplets names Debian's library directory (/usr/lib/<triplet>)
// for each GOARCH the sandbox has been run on.
var multiarchTriplets = map[string]string{
	"amd64": "x86_64-linux-gnu", "arm64": "aarch64-linux-gnu", "386": "i386-linux-gnu",
	"arm": "arm-linux-gnueabihf", "riscv64": "riscv64-linux-gnu", "ppc64le": "powerpc64le-linux-gnu",
	"s390x": "s390x-linux-gnu", "loong64": "loongarch64-linux-gnu",
}

// versionedPython matches an interpreter's real file name: python3.11.
var versionedPython = regexp.MustCompile(`^python\d+\.\d+$`)

// etcFiles are the sandbox's /etc: users and hosts that say nothing about the
// host, and name service lookups that stay in these files.
var etcFiles = map[string]string{
	"passwd": "root:x:0:0:root:/tmp:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
	"group":  "root:x:0:\nnogroup:x:65534:\n",
	"hosts": "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n" +
		"127.0.1.1\t" + hostname + "\n",
	"nsswitch.conf": "passwd: files\ngroup: files\nshadow: files\nhosts: files\n" +
		"networks: files\nprotocols: files\nservices: files\n",
}

// pythonLayout finds what the interpreter python needs: its binary and the
// symlinks to it, its dynamic loader and the directories its shared libraries
// live in, its standard library and Debian's dist-packages, time zones, the
// C.UTF-8 locale and /bin/sh (subprocess's shell=True, os.system). It fails
// with an error naming what is missing when the interpreter, its standard
// library, its loader or one of the libraries it links against cannot be
// found in those places.
func pythonLayout(python string) (layout, error) {
	l := layout{etc: etcFiles}
	real, interp, needed, err := interpreterBinary(python)
	if err != nil {
		return l, err
	}
	prefix := filepath.Dir(filepath.Dir(real))
	stdlib, err := stdlibDirs(prefix, filepath.Base(real))
	if err != nil {
		return l, fmt.Errorf("interpreter %s: %w", python, err)
	}
	libs := existing(libraryDirs())
	if err := checkLibraries(python, interp, needed, libs); err != nil {
		return l, err
	}
	l.dirs = append(libs, stdlib...)
	l.dirs = append(l.dirs, existing([]string{
		filepath.Join(prefix, "lib/python3/dist-packages"),
		"/usr/share/zoneinfo", "/usr/lib/locale/C.utf8", "/usr/lib/locale/C.UTF-8",
	})...)
	l.files = []string{python}
	if interp != "" {
		l.files = append(l.files, interp)
	}
	l.files = append(l.files, existing([]string{
		"/bin/sh", "/etc/ld.so.cache", "/etc/localtime", "/etc/protocols", "/etc/services",
	})...)
	l.files = append(l.files, alternatives(libs)...)
	return l, nil
}

// interpreterBinary resolves python (an absolute path) to its binary and
// returns that, its dynamic loader and the libraries it links against.
func interpreterBinary(python string) (real, interp string, needed []string, err error) {
	if !filepath.IsAbs(python) {
		return "", "", nil, fmt.Errorf("interpreter %q: not an absolute path", python)
	}
	if real, err = filepath.EvalSymlinks(python); err != nil {
		return "", "", nil, fmt.Errorf("interpreter %s: %w", python, err)
	}
	interp, needed, err = elfDeps(real)
	return real, interp, needed, err
}

// elfDeps returns the dynamic loader (PT_INTERP) of the ELF file path and the
// libraries it links against (DT_NEEDED). A static binary has neither.
func elfDeps(path string) (string, []string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return "", nil, fmt.Errorf("interpreter %s: %w", path, err)
	}
	defer f.Close()
	var interp string
	for _, p := range f.Progs {
		if p.Type != elf.PT_INTERP {
			continue
		}
		b := make([]byte, p.Filesz)
		if _, err := p.ReadAt(b, 0); err != nil {
			return "", nil, fmt.Errorf("interpreter %s: read PT_INTERP: %w", path, err)
		}
		interp = strings.TrimRight(string(b), "\x00")
	}
	needed, err := f.ImportedLibraries()
	if err != nil {
		return "", nil, fmt.Errorf("interpreter %s: read DT_NEEDED: %w", path, err)
	}
	return interp, needed, nil
}

// stdlibDirs returns the standard library directories of the interpreter
// named name installed under prefix: prefix/lib/pythonX.Y, and on
// distributions that split it, prefix/lib64/pythonX.Y.
func stdlibDirs(prefix, name string) ([]string, error) {
	if !versionedPython.MatchString(name) {
		matches, _ := filepath.Glob(filepath.Join(prefix, "lib", "python3.*", "os.py"))
		if len(matches) != 1 {
			return nil, fmt.Errorf("cannot tell the Python version from the file name %s; "+
				"configure a versioned interpreter such as /usr/bin/python3.11", name)
		}
		name = filepath.Base(filepath.Dir(matches[0]))
	}
	var dirs []string
	found := false
	for _, lib := range []string{"lib", "lib64"} {
		dir := filepath.Join(prefix, lib, name)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		dirs = append(dirs, dir)
		if _, err := os.Stat(filepath.Join(dir, "os.py")); err == nil {
			found = true
		}
	}
	if !found {
		return nil, fmt.Errorf("standard library (os.py) not found in %s/lib/%s or %s/lib64/%s",
			prefix, name, prefix, name)
	}
	return dirs, nil
}

// libraryDirs are the directories the dynamic loader searches on Debian and
// Ubuntu (/usr/lib/<triplet>, reached also through /lib/<triplet>) and on
// distributions with a lib64 directory. /usr/lib itself is never shown.
func libraryDirs() []string {
	var dirs []string
	if t, ok := multiarchTriplets[runtime.GOARCH]; ok {
		dirs = append(dirs, "/lib/"+t, "/usr/lib/"+t)
	}
	return append(dirs, "/lib64", "/usr/lib64")
}

// checkLibraries makes sure the dynamic loader and every library python
// links against will be found in the library directories.
func checkLibraries(python, interp string, needed, libs []string) error {
	if interp != "" {
		if _, err := os.Stat(interp); err != nil {
			return fmt.Errorf("dynamic loader of %s: %w", python, err)
		}
		if !under(realPath(interp), realPaths(libs)) {
			return fmt.Errorf("dynamic loader %s of %s is outside the library directories %s",
				interp, python, strings.Join(libs, ", "))
		}
	}
	for _, lib := range needed {
		found := false
		for _, dir := range libs {
			if _, err := os.Stat(filepath.Join(dir, lib)); err == nil {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("%s links against %s, which is in none of the library directories %s",
				python, lib, strings.Join(libs, ", "))
		}
	}
	return nil
}

// alternatives returns the library symlinks that point into
// /etc/alternatives (Debian's libblas.so.3, which numpy loads): the
// sandbox's /etc has only these links of that directory.
func alternatives(libs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, dir := range libs {
		if seen[realPath(dir)] {
			continue
		}
		seen[realPath(dir)] = true
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.Type()&os.ModeSymlink == 0 {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if t, err := os.Readlink(p); err == nil && strings.HasPrefix(t, "/etc/alternatives/") {
				out = append(out, p)
			}
		}
	}
	return out
}

// existing returns the paths that exist, following symlinks. Two of them may
// name the same place (/lib/x86_64-linux-gnu and /usr/lib/x86_64-linux-gnu
// on merged /usr): both are kept, so that both spellings work inside.
func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// realPath resolves every symlink in p; p itself if it cannot.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func realPaths(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = realPath(p)
	}
	return out
}

// under reports whether p is one of dirs or inside one of them.
func under(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}
