package execute

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// The leak tests check that nothing of one party reaches another: a
// program's names do not reach a test's builtins, no trusted byte (a hidden
// test, an expected value, another program) is in the memory of a process
// that runs untrusted code, and nothing a generated test or a program leaves
// (processes, files, IPC objects) reaches a later test or program.

// TestProgramNamesDoNotReachTests runs wrong programs that also define a
// builtin's name the tests use: every kind of test must still see the real
// builtin and fail them.
func TestProgramNamesDoNotReachTests(t *testing.T) {
	cases := []struct {
		name, assert, right, wrong string
	}{
		{"abs", "abs(f(1.0) - 2.0) < 1e-6", "def f(x):\n    return 2 * x\n", "def f(x):\n    return 0.0\ndef abs(x):\n    return 0\n"},
		{"len", "len(f()) == 3", "def f():\n    return [1, 2, 3]\n", "def f():\n    return []\ndef len(x):\n    return 3\n"},
		{"sorted", "sorted(f()) == [1, 2, 3]", "def f():\n    return [3, 1, 2]\n", "def f():\n    return [3, 1]\ndef sorted(x):\n    return [1, 2, 3]\n"},
		{"tuple", "tuple(f()) == (1, 2)", "def f():\n    return [1, 2]\n", "def f():\n    return [2, 1]\ntuple = lambda x: (1, 2)\n"},
		{"max", "max(f()) == 3", "def f():\n    return [1, 3]\n", "def f():\n    return [1]\nmax = lambda x: 3\n"},
		{"isinstance", "isinstance(f(), int)", "def f():\n    return 1\n", "def f():\n    return 'one'\ndef isinstance(a, b):\n    return True\n"},
		{"builtins module", "abs(f(1.0) - 2.0) < 1e-6", "def f(x):\n    return 2 * x\n", "import types\ndef f(x):\n    return 0.0\n__builtins__ = types.SimpleNamespace(abs=lambda x: 0)\n"},
		{"a module in place of another", "math.isclose(f(), 2.0)", "import math\ndef f():\n    return 2.0\n", "import operator as math\ndef f():\n    return 0.0\n"},
	}
	p := newTestPool(t, Options{Workers: 1})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tests := []Test{
				{Code: "import math\ndef check(candidate):\n    assert " + strings.ReplaceAll(c.assert, "f(", "candidate(") + "\ncheck(f)\n", Trusted: true},
				{Code: "assert " + c.assert},
				{Code: "def check(candidate):\n    assert " + strings.ReplaceAll(c.assert, "f(", "candidate(") + "\ncheck(f)\n", Trusted: true, Entry: "f"},
			}
			if c.name == "a module in place of another" {
				// The test leans on the program's import of math: it gets
				// math or nothing, never another module.
				tests[0].Code = strings.Replace(tests[0].Code, "import math\n", "", 1)
			}
			m, err := p.Run(context.Background(), Job{Programs: []string{c.wrong, c.right}, Tests: tests, TimePolicy: Within(2 * time.Second)}, nil)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			for j, r := range m.Results[0] {
				if r.Outcome == Pass {
					t.Errorf("wrong program passes test %d (%s)", j, tests[j].Code)
				}
			}
			for j, r := range m.Results[1] {
				if r.Outcome != Pass {
					t.Errorf("right program: test %d is %v %q, want pass", j, r.Outcome, r.Exception)
				}
			}
		})
	}
}

// TestEntryWithABuiltinsName: the function under test is the program's even
// when its name is a builtin's (MBPP's sum), given as the test's Entry.
func TestEntryWithABuiltinsName(t *testing.T) {
	tests := []Test{
		{Code: "assert sum(10, 15) == 25", Input: "sum(10, 15)", Expected: "25", Entry: "sum"},
		{Code: "assert sum(10, 15) > 24 and sum(1, 2) == 3", Entry: "sum"},
		{Code: "assert sum(10, 15) == 25\nassert sum(1, 2) == 3", Trusted: true, Entry: "sum"},
	}
	progs := []string{"def sum(a, b):\n    return a + b\n", "def sum(a, b):\n    return 0\n"}
	p := newTestPool(t, Options{Workers: 1})
	m, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(2 * time.Second)}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got := fmt.Sprint(outcomes(m.Results[0])); got != "[pass pass pass]" {
		t.Errorf("right sum: %s, want [pass pass pass]", got)
	}
	if got := fmt.Sprint(outcomes(m.Results[1])); got != "[fail fail fail]" {
		t.Errorf("wrong sum: %s, want [fail fail fail]", got)
	}
}

// memScan defines scan(pairs): for each (a, b), whether the bytes a+b are
// anywhere in the calling process's memory. It never builds a+b itself,
// so finding them means another party put them there.
const memScan = `
import os, ctypes
def scan(pairs):
    found = [False] * len(pairs)
    regions = []
    with open('/proc/self/maps') as m:
        for line in m:
            f = line.split()
            if f[1].startswith('r') and not (len(f) > 5 and f[5] in ('[vvar]', '[vsyscall]', '[vvar_vclock]')):
                lo, hi = (int(x, 16) for x in f[0].split('-'))
                regions.append((lo, hi))
    try:
        fd = os.open('/proc/self/mem', os.O_RDONLY)
        read = lambda pos, n: os.pread(fd, n, pos)
    except OSError:
        read = lambda pos, n: ctypes.string_at(pos, n)
    step = 1 << 22
    for lo, hi in regions:
        pos = lo
        while pos < hi:
            n = min(hi - pos, step + 256)
            try:
                chunk = read(pos, n)
            except (OSError, ValueError):
                break
            for k, (a, b) in enumerate(pairs):
                i = chunk.find(a)
                while i >= 0 and not found[k]:
                    if chunk[i + len(a):i + len(a) + len(b)] == b:
                        found[k] = True
                    i = chunk.find(a, i + 1)
            pos += step
    return found
`

// TestNothingTrustedInUntrustedMemory looks, from inside a program's process
// and a generated test's judge, for the bytes of a hidden test, of an
// expected value and of the program run before it: none may be there. A
// control string that the scanning process builds itself must be found
// (the scan works).
func TestNothingTrustedInUntrustedMemory(t *testing.T) {
	const pairs = `[(b'CONTROL-bytes-', b'built-here'), (b'HIDDEN-test-', b'source-7f3a'), (b'EXPECTED-value-', b'literal-91c2'), (b'EARLIER-program-', b'source-5d0e')]`
	// Sized as the red team's reproducer: a few hundred bytes, which the
	// messages that follow it do not overwrite.
	earlier := "def f():\n    return 1\n# " + strings.Repeat("padding ", 80) + "\nSECRET = 'EARLIER-program-source-5d0e'\n"
	scanner := memScan + "CONTROL = b'CONTROL-bytes-' + 'built-here'.encode()\ndef f():\n    return scan(" + pairs + ")\n"
	tests := []Test{
		{Code: "def check(candidate):\n    assert candidate() != 'HIDDEN-test-source-7f3a'\ncheck(f)\n", Trusted: true},
		{Code: "assert f() == 'EXPECTED-value-literal-91c2'", Input: "f()", Expected: "'EXPECTED-value-literal-91c2'"},
		// A generated test that scans its own judge's memory.
		{Code: memScan + "CONTROL = b'CONTROL-bytes-' + 'built-here'.encode()\nassert scan(" + pairs + ") == [True, False, False, False]\n"},
	}
	p := newTestPool(t, Options{Workers: 1})
	m, err := p.Run(context.Background(), Job{Programs: []string{earlier, scanner}, Tests: tests, TimePolicy: Within(10 * time.Second)}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	row := m.Results[1]
	if r := row[1]; r.Value != "[True, False, False, False]" {
		t.Errorf("the program's process sees (control, hidden test, expected value, earlier program) = %s (%v %s), want [True, False, False, False]", r.Value, r.Outcome, r.Exception)
	}
	if r := row[2]; r.Outcome != Pass {
		t.Errorf("a generated test's judge found trusted bytes in its memory: %v %s", r.Outcome, r.Exception)
	}
}

// TestJudgeLeavesNothing: a generated test that starts a daemon and leaves
// files leaves nothing that the program's next test sees.
func TestJudgeLeavesNothing(t *testing.T) {
	tests := []Test{
		{Code: "import os, time\nopen('left-by-a-test', 'w').write('x')\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        while True:\n            time.sleep(0.05)\n    os._exit(0)\ntime.sleep(0.05)\nassert True\n"},
		{Code: "assert f() == ([], 3)", Input: "f()", Expected: "([], 3)"},
	}
	prog := "import os\ndef f():\n    return sorted(os.listdir('/tmp')), len([p for p in os.listdir('/proc') if p.isdigit()])\n"
	p := newTestPool(t, Options{Workers: 1})
	m, err := p.Run(context.Background(), Job{Programs: []string{prog}, Tests: tests, TimePolicy: Within(5 * time.Second)}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	row := m.Results[0]
	if row[0].Outcome != Pass {
		t.Fatalf("the generated test: %v %s, want pass", row[0].Outcome, row[0].Exception)
	}
	if row[1].Outcome != Pass {
		t.Errorf("after a generated test, the program sees (/tmp, processes) = %s, want ([], 3): the worker, the zygote and itself", row[1].Value)
	}
}

// TestIPCDoesNotOutliveAProgram: System V IPC and POSIX message queues are
// refused, so no program leaves such an object for the next one (they
// belong to the sandbox's IPC namespace, not to the program).
func TestIPCDoesNotOutliveAProgram(t *testing.T) {
	create := `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
def f():
    r = [libc.shmget(0x71c0, 1 << 20, 0o1600), libc.semget(0x71c1, 1, 0o1600), libc.msgget(0x71c2, 0o1600)]
    try:
        rt = ctypes.CDLL('librt.so.1', use_errno=True)
        r.append(rt.mq_open(b'/ticoder', os.O_CREAT | os.O_RDWR, 0o600, None))
    except OSError:
        r.append(-1)
    return [min(x, 0) for x in r]
`
	look := "def f():\n    return [len(open('/proc/sysvipc/' + k).readlines()) for k in ('shm', 'sem', 'msg')]\n"
	tests := []Test{{Code: "assert f() == 0", Input: "f()", Expected: "0"}}
	p := newTestPool(t, Options{Workers: 1})
	m, err := p.Run(context.Background(), Job{Programs: []string{create, look}, Tests: tests, TimePolicy: Within(5 * time.Second)}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got := m.Results[0][0].Value; got != "[-1, -1, -1, -1]" {
		t.Errorf("a program made IPC objects: shmget, semget, msgget, mq_open = %s, want [-1, -1, -1, -1] (%v %s)", got, m.Results[0][0].Outcome, m.Results[0][0].Exception)
	}
	if got := m.Results[1][0].Value; got != "[1, 1, 1]" {
		t.Errorf("the next program sees /proc/sysvipc lines (shm, sem, msg) = %s, want [1, 1, 1] (headers only) (%v %s)", got, m.Results[1][0].Outcome, m.Results[1][0].Exception)
	}
}
