package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// DefaultPython is the interpreter candidates run under. Debian's python3 is
// used on purpose: a pyenv shim costs ~100 ms per start and lives in a
// directory the sandbox cannot see.
const DefaultPython = "/usr/bin/python3"

// initArg0 is argv[0] of a re-executed binary that must become a sandbox init.
const initArg0 = "ticoder-sandbox-init"

// configEnv carries the init's Config (JSON) across the re-exec; the init
// clears the environment before it starts Python.
const configEnv = "TICODER_SANDBOX_CONFIG"

// ErrUnavailable is returned when the kernel refuses the namespaces the
// sandbox needs.
var ErrUnavailable = errors.New("sandbox unavailable")

// Config describes one sandboxed process.
type Config struct {
	// Python is the interpreter; DefaultPython if empty.
	Python string `json:"python"`
	// Args are the interpreter's arguments (e.g. "-c", source).
	Args []string `json:"args"`
	// TmpBytes is the size of the private tmpfs mounted on /tmp
	// (default 256 MiB): filling it cannot fill the host's disk.
	TmpBytes int64 `json:"tmp_bytes"`
	// OpenFiles is the process's RLIMIT_NOFILE (default 256).
	OpenFiles uint64 `json:"open_files"`
	// Unsafe runs the interpreter without namespaces, Landlock or seccomp,
	// only with a scrubbed environment (children still get rlimits). Only
	// for machines without user namespaces, and only by explicit request.
	Unsafe bool `json:"unsafe"`
	// CPUs, when not empty, are the only CPUs the sandbox's processes run
	// on; they cannot change that themselves (sched_setaffinity is
	// refused). Ignored with Unsafe.
	CPUs []int `json:"cpus,omitempty"`
	// JVM fields (see jvm.go); zero for Python.
	JVM JVMConfig `json:"jvm"`
	// PythonPath, when not empty, lists what the interpreter reads besides
	// its binary: its prefixes and the entries of its sys.path (a virtual
	// environment's site-packages, the base interpreter's standard library),
	// each shown read-only at its own path instead of the standard library
	// and dist-packages guessed from the binary's location. Entries that do
	// not exist are skipped; those inside Project are shown by the project's
	// view, masks applied.
	PythonPath []string `json:"python_path,omitempty"`
	// Project, when not nil, shows a project's directory read-only (see
	// ProjectView).
	Project *ProjectView `json:"project,omitempty"`
}

func (c Config) withDefaults() Config {
	if c.Python == "" {
		c.Python = DefaultPython
	}
	if c.TmpBytes == 0 {
		c.TmpBytes = 256 << 20
	}
	if c.OpenFiles == 0 {
		c.OpenFiles = 256
	}
	return c
}

// scrubbedEnv is the whole environment a sandboxed process gets: no API keys,
// no proxies, no PYTHON* variables from the host.
var scrubbedEnv = []string{
	"PATH=/usr/local/bin:/usr/bin:/bin",
	"HOME=/tmp",
	"TMPDIR=/tmp",
	"LANG=C.UTF-8",
	"PYTHONDONTWRITEBYTECODE=1",
	"PYTHONHASHSEED=0",
	"PYTHONIOENCODING=utf-8",
}

// Command returns a not yet started command that runs the configured
// interpreter in the sandbox. The caller may set Stdin, Stdout, Stderr and
// ExtraFiles (they appear as fds 3, 4, … inside) and must Start and Wait it.
// Killing the command's process kills everything inside the sandbox.
func Command(cfg Config) (*exec.Cmd, error) {
	cfg = cfg.withDefaults()
	if cfg.Unsafe {
		cmd := exec.Command(cfg.Python, cfg.Args...)
		cmd.Env = scrubbedEnv
		cmd.Dir = os.TempDir()
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		return cmd, nil
	}
	if err := Available(); err != nil {
		return nil, err
	}
	return commandNoProbe(cfg)
}

func commandNoProbe(cfg Config) (*exec.Cmd, error) {
	js, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("sandbox: encode config: %w", err)
	}
	// /proc/self/exe is a magic link: it reaches this binary even when the
	// sandbox's unprivileged uid cannot walk the directories above it.
	cmd := exec.Command("/proc/self/exe")
	cmd.Args = []string{initArg0}
	cmd.Env = []string{configEnv + "=" + string(js)}
	cmd.Dir = "/"
	cmd.SysProcAttr = namespaceAttrs()
	return cmd, nil
}

var probe struct {
	once sync.Once
	err  error
}

// Available reports whether this machine lets ticoder create the namespaces
// the sandbox needs, with an error that says what to do if it does not. The
// probe runs once per process.
func Available() error {
	probe.once.Do(func() { probe.err = probeNamespaces() })
	return probe.err
}
