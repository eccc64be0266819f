package execute

import (
	"context"
	"embed"
	"encoding/binary"
	"fmt"
	"sync"
	"time"
)

// pyworkerFiles holds the Python worker, the package pyworker/ (its unit
// tests too: only pyworkerModules are sent).
//
//go:embed pyworker/*.py
var pyworkerFiles embed.FS

// pyworkerModules lists the Python worker's modules in the order the
// bootstrap installs them, "__init__" being the package itself: each
// imports only modules before it (TestPyworkerModules checks the order and
// that every module of the directory is listed). Its docstring says which
// process each module's code runs in.
var pyworkerModules = []string{
	"__init__",
	// Shared by every process of the sandbox.
	"wire", "baseline", "values", "limits",
	// The worker and the zygote.
	"cleanup", "zygote", "suite",
	// Processes forked from the zygote, which run untrusted code.
	"program", "testenv", "child",
	// The worker.
	"session", "task", "suiterun", "prepare", "judge", "worker",
}

// pyworkerSource returns the source of module name of the Python worker
// (see pyworkerModules).
func pyworkerSource(name string) ([]byte, error) {
	b, err := pyworkerFiles.ReadFile("pyworker/" + name + ".py")
	if err != nil {
		return nil, fmt.Errorf("python worker module %s: %w", name, err)
	}
	return b, nil
}

// workerPayload is what a worker is sent before any request: one frame per
// module of pyworkerModules, in order, each "NAME\n" and the module's
// source (NAME is "pyworker" or "pyworker.MODULE"), then an empty frame.
// The bootstrap reads it.
var workerPayload = sync.OnceValues(func() ([]byte, error) {
	var out []byte
	for _, m := range pyworkerModules {
		src, err := pyworkerSource(m)
		if err != nil {
			return nil, err
		}
		name := "pyworker"
		if m != "__init__" {
			name += "." + m
		}
		out = binary.BigEndian.AppendUint32(out, uint32(len(name)+1+len(src)))
		out = append(append(append(out, name...), '\n'), src...)
	}
	return binary.BigEndian.AppendUint32(out, 0), nil
})

// bootstrap is the worker's -c program: it reads the Python worker's
// modules from fd 3 (see workerPayload), installs each as a module of
// sys.modules (the package's __path__ is empty: nothing is imported from
// disk), and runs pyworker.worker.main. Given as -c itself, the sources
// would stay in the process twice over (Python keeps its argv and the
// command), and compiling them at start-up leaves heap that cannot be
// given back; read and compiled here, they are freed before the worker
// trims its heap and forks the zygote, whose every page each program's
// fork copies. main runs from exec'd code, as when the worker was one
// module run by exec: a program's code runs as deep in the stack as it
// did then (Python counts each frame and each entry into the interpreter
// towards the recursion limit), so it may recurse exactly as deep.
const bootstrap = `import os, sys
def _read(n):
    b = b""
    while len(b) < n:
        c = os.read(3, n - len(b))
        if not c:
            raise SystemExit("ticoder: no worker modules on fd 3")
        b += c
    return b
def _install():
    while True:
        name, _, src = _read(int.from_bytes(_read(4), "big")).partition(b"\n")
        if not name:
            return
        name = name.decode()
        pkg, _, leaf = name.rpartition(".")
        m = sys.modules[name] = type(sys)(name)
        m.__package__ = pkg or name
        if not pkg:
            m.__path__ = []
        exec(compile(src, "<%s>" % name, "exec"), m.__dict__)
        if pkg:
            setattr(sys.modules[pkg], leaf, m)
_install()
exec("main()", {"main": sys.modules["pyworker.worker"].main})
`

// boot sends a freshly started worker its Python modules and waits for
// its ready message; stderr is the process's captured standard error.
func (w *worker) boot(stderr *capWriter) error {
	payload, err := workerPayload()
	if err != nil {
		return fmt.Errorf("start worker: %w", err)
	}
	// (The sources are larger than a pipe's buffer: a Python that hangs
	// before reading them must not hang the caller.)
	_ = w.req.SetWriteDeadline(time.Now().Add(30 * time.Second))
	_, err = w.req.Write(payload)
	_ = w.req.SetWriteDeadline(time.Time{})
	if err != nil {
		return fmt.Errorf("start worker: python did not take the worker's modules (%v: %v): %s", errWorkerDead, err, stderr.String())
	}
	var hello struct {
		Type string `json:"type"`
	}
	if err := w.recv(context.Background(), time.Now().Add(30*time.Second), &hello); err != nil || hello.Type != "ready" {
		return fmt.Errorf("start worker: python did not start (%v): %s", err, stderr.String())
	}
	return nil
}
