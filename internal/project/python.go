package project

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/ticoder/ticoder/internal/sandbox"
)

// Interpreter is a project's Python as it describes itself.
type Interpreter struct {
	// Path is the interpreter as the sandbox runs it (a venv's bin/python).
	Path string `json:"-"`
	// Version is sys.version_info's major, minor and micro.
	Version [3]int `json:"version"`
	// Prefix and BasePrefix are sys.prefix and sys.base_prefix: they differ
	// in a virtual environment.
	Prefix     string `json:"prefix"`
	BasePrefix string `json:"base_prefix"`
	// Stdlib is the standard library's directory (sysconfig's stdlib);
	// PlatStdlib its extension modules' (platstdlib).
	Stdlib     string `json:"stdlib"`
	PlatStdlib string `json:"platstdlib"`
	// SysPath is sys.path, without the script directory.
	SysPath []string `json:"path"`
}

// VersionString returns the version as X.Y.Z.
func (in Interpreter) VersionString() string {
	return fmt.Sprintf("%d.%d.%d", in.Version[0], in.Version[1], in.Version[2])
}

// FindPython returns the interpreter to use: flag if set, else
// $VIRTUAL_ENV/bin/python, ROOT/.venv/bin/python, ROOT/venv/bin/python,
// then /usr/bin/python3, the first that exists.
func FindPython(flag, root string) string {
	if flag != "" {
		if abs, err := filepath.Abs(flag); err == nil {
			return abs
		}
		return flag
	}
	var cands []string
	if v := os.Getenv("VIRTUAL_ENV"); v != "" {
		cands = append(cands, filepath.Join(v, "bin", "python"))
	}
	cands = append(cands, filepath.Join(root, ".venv", "bin", "python"), filepath.Join(root, "venv", "bin", "python"))
	for _, c := range cands {
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	return sandbox.DefaultPython
}

// elfMachines is the ELF machine a binary for each GOARCH has.
var elfMachines = map[string]elf.Machine{
	"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64, "386": elf.EM_386, "arm": elf.EM_ARM,
	"riscv64": elf.EM_RISCV, "ppc64le": elf.EM_PPC64, "s390x": elf.EM_S390, "loong64": elf.EM_LOONGARCH,
}

// CheckRunnable returns an error that names python when the sandbox cannot
// run it: missing, a script (a pyenv shim), not an ELF binary of this
// machine's architecture, under /tmp, or (as root) not readable by every
// user.
func CheckRunnable(python string) error {
	real, err := filepath.EvalSymlinks(python)
	if err != nil {
		return badProject("interpreter %s: %v (give --python with a Python binary)", python, err)
	}
	head := make([]byte, 2)
	if f, err := os.Open(real); err == nil {
		_, _ = f.Read(head)
		f.Close()
	}
	if string(head) == "#!" {
		return badProject("interpreter %s is a script (%s; a pyenv shim?), not a Python binary the sandbox can run: "+
			"give --python with the interpreter itself, e.g. --python \"$(pyenv which python)\" or a venv's bin/python", python, real)
	}
	f, err := elf.Open(real)
	if err != nil {
		return badProject("interpreter %s (%s) is not a binary the sandbox can run: %v", python, real, err)
	}
	defer f.Close()
	if want, ok := elfMachines[runtime.GOARCH]; ok && f.Machine != want {
		return badProject("interpreter %s is built for %s, not for this machine (%s)", python, f.Machine, want)
	}
	for _, p := range []string{python, real} {
		if err := sandbox.CheckShowable(p); err != nil {
			return badProject("interpreter %v", err)
		}
	}
	if os.Getuid() == 0 {
		if dir := notWorldReadable(real); dir != "" {
			return badProject("interpreter %s: %s is not readable by every user, and as root ticoder's sandbox runs "+
				"as an unprivileged user: use an interpreter installed elsewhere, or run ticoder as yourself", python, dir)
		}
	}
	return nil
}

// notWorldReadable returns the first directory above p that other users
// cannot enter, or p itself when they cannot read it; "" when they can.
func notWorldReadable(p string) string {
	for d := filepath.Dir(p); d != filepath.Dir(d); d = filepath.Dir(d) {
		if st, err := os.Stat(d); err != nil || st.Mode().Perm()&0o001 == 0 {
			return d
		}
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm()&0o004 == 0 {
		return p
	}
	return ""
}

// inspectScript prints what Inspect needs, as JSON.
const inspectScript = `import json, sys, sysconfig
print(json.dumps({"version": list(sys.version_info[:3]), "prefix": sys.prefix, "base_prefix": sys.base_prefix,
    "stdlib": sysconfig.get_path("stdlib"), "platstdlib": sysconfig.get_path("platstdlib"),
    "path": [p for p in sys.path if p]}))
`

// Inspect checks that python can run in the sandbox (CheckRunnable) and
// asks it, with an empty environment, no user site directory and / as its
// working directory, for its version, prefixes and sys.path. It is the
// user's own interpreter, run as they would run it; what runs in it later
// (candidates) runs in the sandbox. Python 3.9 or later is required.
func Inspect(ctx context.Context, python string) (Interpreter, error) {
	in := Interpreter{Path: python}
	if err := CheckRunnable(python); err != nil {
		return in, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-E", "-s", "-c", inspectScript)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8"}
	cmd.Dir = "/"
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return in, badProject("interpreter %s did not say what it is (%v): %s", python, err, strings.TrimSpace(clipText(errb.String(), 400)))
	}
	if err := json.Unmarshal(out.Bytes(), &in); err != nil {
		return in, badProject("interpreter %s: unexpected answer %q: %v", python, clipText(out.String(), 200), err)
	}
	in.Path = python
	if in.Version[0] != 3 || in.Version[1] < 9 {
		return in, badProject("interpreter %s is Python %s: ticoder needs Python 3.9 or later", python, in.VersionString())
	}
	for _, p := range in.Paths() {
		if err := sandbox.CheckShowable(p); err != nil {
			return in, badProject("interpreter %s: %v", python, err)
		}
	}
	if err := sandbox.CheckPython(python, in.Paths()); err != nil {
		return in, badProject("the sandbox cannot run %s: %v (give --python with another interpreter)", python, err)
	}
	return in, nil
}

// Paths returns what the sandbox shows of the interpreter besides its
// binary: sys.prefix (a venv: its pyvenv.cfg, site-packages, scripts), the
// standard library and every sys.path entry. sys.base_prefix is not shown
// whole: of a system Python that would be /usr.
func (in Interpreter) Paths() []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if p != "" && filepath.IsAbs(p) && !seen[filepath.Clean(p)] {
			seen[filepath.Clean(p)] = true
			out = append(out, filepath.Clean(p))
		}
	}
	if in.Prefix != in.BasePrefix {
		add(in.Prefix)
	}
	add(in.Stdlib)
	add(in.PlatStdlib)
	for _, p := range in.SysPath {
		add(p)
	}
	return out
}

// clipText cuts s to n bytes.
func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
