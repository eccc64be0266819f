package execute

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The attack tests run hostile programs in the real sandbox. Each runs next
// to a well-behaved program in the same job; every case asserts that the
// attack was contained, that the well-behaved program's results arrived, and
// that no process of the attacker outlived the job.

const goodProgram = "def f():\n    return 42\n"

// sandboxProcesses counts the host processes that run as the sandbox's uid
// (zombies aside) and descend from this test process (other packages' tests may run
// sandboxes of their own at the same time).
func sandboxProcesses(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	parent := map[int]int{}
	var sandboxed []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		zombie, uid := false, false
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) > 1 && f[0] == "State:":
				// Z: ended, not yet reaped by its parent; it runs nothing.
				zombie = f[1] == "Z"
			case len(f) > 1 && f[0] == "PPid:":
				parent[pid], _ = strconv.Atoi(f[1])
			case len(f) > 1 && f[0] == "Uid:":
				uid = f[1] == "1600000"
			}
		}
		if uid && !zombie {
			sandboxed = append(sandboxed, pid)
		}
	}
	self, n := os.Getpid(), 0
	for _, pid := range sandboxed {
		for p, hops := pid, 0; p > 1 && hops < 64; p, hops = parent[p], hops+1 {
			if p == self {
				n++
				break
			}
		}
	}
	return n
}

type attack struct {
	name    string
	program string
	// want lists the acceptable outcomes of `assert f() == 42` on the attacker.
	want []Outcome
	// wantValue, if set, must be the repr f() returned.
	wantValue string
	// check runs extra host-side assertions after the job.
	check func(t *testing.T, row []Result)
}

func runAttack(t *testing.T, p *Pool, a attack) {
	t.Helper()
	tests := []Test{
		{Code: "assert f() == 42", Input: "f()", Expected: "42"},
		{Code: "assert 1 + 1 == 2"},
	}
	m, err := p.Run(context.Background(), Job{Programs: []string{a.program, goodProgram}, Tests: tests, TimePolicy: Within(time.Second)}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	bad, good := m.Results[0], m.Results[1]
	if good[0].Outcome != Pass || good[1].Outcome != Pass {
		t.Errorf("well-behaved program: %v, want pass pass", outcomes(good))
	}
	ok := false
	for _, o := range a.want {
		ok = ok || bad[0].Outcome == o
	}
	if !ok {
		t.Errorf("attacker: %v (value %q), want one of %v", outcomes(bad), bad[0].Value, a.want)
	}
	if a.wantValue != "" && bad[0].Value != a.wantValue {
		t.Errorf("attacker returned %q, want %q", bad[0].Value, a.wantValue)
	}
	if bad[1].Outcome == Timeout {
		t.Errorf("the test after the attack timed out: the harness did not recover")
	}
	if n := sandboxProcesses(t); n > 2*p.Workers() {
		t.Errorf("%d sandbox processes alive after the job, want at most %d (a worker and its zygote per worker)", n, 2*p.Workers())
	}
	if a.check != nil {
		a.check(t, bad)
	}
}

func TestAttacksContained(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-ticoder-test-secret")
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	if err := os.WriteFile(marker, []byte("untouched"), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("s3cr3t"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	connected := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			connected <- struct{}{}
			c.Close()
		}
	}()
	failed := []Outcome{Fail, Error, Timeout, Crash}
	markerIntact := func(t *testing.T, _ []Result) {
		b, err := os.ReadFile(marker)
		if err != nil || string(b) != "untouched" {
			t.Errorf("host marker file changed: %q, %v", b, err)
		}
	}
	attacks := []attack{
		{name: "fork bomb", program: "import os\ndef f():\n    while True:\n        os.fork()\n", want: failed},
		{name: "thread bomb", program: "import threading, time\ndef f():\n    while True:\n        threading.Thread(target=time.sleep, args=(100,)).start()\n", want: failed},
		// Contained either way: the address-space limit stops it (Error),
		// or, on a machine so loaded that it cannot reach the limit within
		// its time, the time limit does. "huge allocation" checks the limit.
		{name: "memory bomb", program: "def f():\n    x = []\n    while True:\n        x.append(bytearray(10**7))\n", want: []Outcome{Error, Timeout}},
		{name: "huge allocation", program: "def f():\n    return len(bytearray(10**12))\n", want: []Outcome{Error}},
		{name: "infinite loop", program: "def f():\n    while True:\n        pass\n", want: []Outcome{Timeout}},
		{name: "long sleep", program: "import time\ndef f():\n    time.sleep(1000)\n", want: []Outcome{Timeout}},
		{name: "ignores SIGTERM and SIGALRM", program: "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\ndef f():\n    while True:\n        try:\n            pass\n        except BaseException:\n            pass\n", want: []Outcome{Timeout}},
		{name: "writes and deletes host files", program: fmt.Sprintf("import os\ndef f():\n    for act in (lambda: open(%q, 'w').write('owned'), lambda: os.remove(%q), lambda: os.remove('/etc/hostname'), lambda: open('/usr/owned', 'w')):\n        try:\n            act()\n        except OSError:\n            pass\n    return 42\n", marker, marker), want: []Outcome{Pass}, check: markerIntact},
		{name: "fills the disk", program: "def f():\n    with open('/tmp/fill', 'wb') as fh:\n        while True:\n            fh.write(b'x' * (1 << 20))\n", want: []Outcome{Error}},
		{name: "exhausts file descriptors", program: "def f():\n    fs = []\n    while True:\n        fs.append(open('/dev/null'))\n", want: []Outcome{Error}},
		{name: "reads a host secret", program: fmt.Sprintf("def f():\n    try:\n        return open(%q).read()\n    except OSError as e:\n        return type(e).__name__\n", secret), want: []Outcome{Fail}, wantValue: "'FileNotFoundError'"},
		{name: "reads the environment", program: "import os\ndef f():\n    return sorted(os.environ.items())\n", want: []Outcome{Fail}, check: func(t *testing.T, row []Result) {
			if strings.Contains(row[0].Value, "sk-ticoder") || strings.Contains(row[0].Value, "OPENAI") {
				t.Errorf("API key visible in the sandbox: %s", row[0].Value)
			}
		}},
		{name: "reads init's environment", program: "def f():\n    return open('/proc/1/environ', 'rb').read()\n", want: []Outcome{Fail, Error}, check: func(t *testing.T, row []Result) {
			if strings.Contains(row[0].Value, "sk-ticoder") {
				t.Errorf("API key visible in /proc/1/environ: %s", row[0].Value)
			}
		}},
		{name: "TCP to a host loopback server", program: fmt.Sprintf("import socket\ndef f():\n    socket.create_connection(('127.0.0.1', %d), timeout=0.5)\n    return 42\n", port), want: []Outcome{Error}},
		{name: "DNS lookup", program: "import socket\ndef f():\n    return socket.gethostbyname('example.com')\n", want: []Outcome{Error}},
		{name: "kill(-1) and its parent", program: "import os, signal\ndef f():\n    for pid, sig in ((-1, signal.SIGKILL), (os.getppid(), signal.SIGKILL), (1, signal.SIGTERM)):\n        try:\n            os.kill(pid, sig)\n        except OSError:\n            pass\n    return 42\n", want: []Outcome{Pass, Crash}},
		// 32 MiB is plenty to overflow any pipe and takes milliseconds to
		// write to /dev/null, so the verdict does not depend on the load.
		{name: "huge stdout", program: "import sys\ndef f():\n    for _ in range(16):\n        sys.stdout.write('x' * (1 << 20))\n        sys.stderr.write('y' * (1 << 20))\n    return 42\n", want: []Outcome{Pass}},
		{name: "invalid UTF-8", program: "import sys\ndef f():\n    sys.stdout.buffer.write(b'\\xff\\xfe\\xfd')\n    return b'\\xff' + '\\udcff'.encode('utf-8', 'surrogatepass')\n", want: []Outcome{Fail}},
		{name: "reads stdin", program: "def f():\n    return input()\n", want: []Outcome{Error}},
		{name: "exits before the tests run", program: "import os\nos._exit(0)\ndef f():\n    return 42\n", want: []Outcome{Crash}},
		{name: "deep recursion", program: "def f(n=0):\n    return f(n + 1)\n", want: []Outcome{Error}},
		{name: "recursion past the C stack", program: "import sys\nsys.setrecursionlimit(10**7)\ndef f(n=0):\n    return f(n + 1)\n", want: []Outcome{Crash, Error, Timeout}},
		{name: "ctypes segfault", program: "import ctypes\ndef f():\n    return ctypes.string_at(0)\n", want: []Outcome{Crash}},
		{name: "double-forked daemon", program: "import os, time\ndef f():\n    if os.fork() == 0:\n        os.setsid()\n        if os.fork() == 0:\n            while True:\n                time.sleep(0.05)\n        os._exit(0)\n    return 42\n", want: []Outcome{Pass}},
		{name: "unshare, mount, ptrace", program: "import ctypes, os\ndef f():\n    libc = ctypes.CDLL(None, use_errno=True)\n    r = [libc.unshare(0x10000000), libc.unshare(0x00020000), libc.mount(b'none', b'/tmp', b'tmpfs', 0, None), libc.ptrace(0, 0, 0, 0), os.getuid() if os.getuid() != 0 else 0]\n    return r\n", want: []Outcome{Fail}, wantValue: "[-1, -1, -1, -1, 0]"},
		{name: "__eq__ always true", program: "class Any:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\ndef f():\n    return Any()\n", want: []Outcome{Fail}},
		{name: "sys.exit in a test", program: "import sys\ndef f():\n    sys.exit(0)\n", want: []Outcome{Error}, check: func(t *testing.T, row []Result) {
			if row[0].Exception != "SystemExit" {
				t.Errorf("exception %q, want SystemExit", row[0].Exception)
			}
		}},
		{name: "monkey-patches builtins", program: "import builtins\nbuiltins.int = lambda *a: 42\nbuiltins.AssertionError = ValueError\ndef f():\n    return 41\n", want: []Outcome{Fail}},
	}
	// A smaller address space makes the memory bomb hit its limit sooner.
	p := newTestPool(t, Options{Limits: Limits{Memory: 256 << 20}})
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) { runAttack(t, p, a) })
	}
	select {
	case <-connected:
		t.Error("a sandboxed program reached a host loopback server")
	default:
	}
}
