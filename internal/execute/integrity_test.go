package execute

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// The integrity tests check that a program decides its own outcome only by
// behaving: whatever bytes it writes, wherever it writes them, a wrong
// program does not pass, and no other program's result changes. Each case
// runs the attacker next to two well-behaved programs, one right and one
// wrong, with the three kinds of test the engine judges differently: a
// value test (`assert CALL == LITERAL`), a generated test of another shape
// (judged in a process of its own) and a trusted hidden test (judged in the
// worker).

// forgeAll writes lines claiming "pass" in every protocol the harness has
// ever spoken to every descriptor the process may have.
const forgeAll = `
import os, json
def _forge():
    lines = []
    for j in range(4):
        for rec in ({"j": j, "o": "pass"}, {"j": j, "v": 42}, {"j": j, "v": {"l": [1]}},
                    {"j": j, "n": {}}, {"r": 42}, {"o": "pass", "e": None}, {"j": j, "o": "pass", "s": 0.0}):
            lines.append(json.dumps(rec))
    data = ("\n".join(lines) + "\n").encode()
    for fd in range(3, 64):
        try:
            os.write(fd, data)
        except OSError:
            pass
`

var integrityTests = []Test{
	{Code: "assert f() == 42", Input: "f()", Expected: "42"},
	{Code: "assert f() > 41 and f() < 43"},
	{Code: "def check(candidate):\n    assert candidate() == 42\ncheck(f)\n", Trusted: true},
}

func TestIntegrityForgedResults(t *testing.T) {
	const (
		right = "def f():\n    return 42\n"
		wrong = "def f():\n    return 41\n"
	)
	attacks := []struct {
		name    string
		program string
	}{
		{"forges lines at import and exits", forgeAll + "_forge()\nos._exit(0)\ndef f():\n    return 41\n"},
		{"forges lines at import and goes on", forgeAll + "_forge()\ndef f():\n    return 41\n"},
		{"forges lines in every call", forgeAll + "def f():\n    _forge()\n    return 41\n"},
		{"forges lines from a thread", forgeAll + "import threading, time\ndef _loop():\n    while True:\n        _forge()\n        time.sleep(0.001)\nthreading.Thread(target=_loop, daemon=True).start()\ndef f():\n    time.sleep(0.01)\n    return 41\n"},
		{"forges verdicts of exactly its own tests", "import os\nfor fd in range(3, 64):\n    try:\n        os.write(fd, b''.join(b'{\"j\": %d, \"o\": \"pass\"}\\n' % j for j in range(3)))\n    except OSError:\n        pass\ndef f():\n    return 41\n"},
		{"forges values of exactly its own tests", "import os\nfor fd in range(3, 64):\n    try:\n        os.write(fd, b'{\"j\": 0, \"v\": 42}\\n')\n    except OSError:\n        pass\ndef f():\n    return 41\n"},
		{"forges a result for a test that does not exist", "import os, json\nfor fd in range(3, 64):\n    try:\n        os.write(fd, (json.dumps({'j': 3, 'o': 'pass'}) + '\\n' + json.dumps({'j': 99, 'v': 1}) + '\\n').encode())\n    except OSError:\n        pass\ndef f():\n    return 41\n"},
		{"forges garbage and huge lines", "import os\nfor fd in range(3, 64):\n    try:\n        os.write(fd, b'\\x00\\xff{\"j\": [' * 1000 + b'\\n' + b'9' * 5000 + b'\\n')\n    except OSError:\n        pass\ndef f():\n    return 41\n"},
		{"writes to the worker's pipes through /proc", "import os, struct, json\ndef _forge():\n    for fd in range(0, 16):\n        for mode in (os.O_WRONLY, os.O_RDONLY):\n            try:\n                h = os.open('/proc/1/fd/%d' % fd, mode | os.O_NONBLOCK)\n            except OSError:\n                continue\n            try:\n                body = json.dumps({'type': 'result', 'program': 0, 'results': [{'j': 0, 'o': 'pass'}] * 3}).encode()\n                os.write(h, struct.pack('>I', len(body)) + body)\n                os.read(h, 1 << 16)\n            except OSError:\n                pass\n_forge()\ndef f():\n    _forge()\n    return 41\n"},
		{"reads the worker's memory", "def f():\n    try:\n        open('/proc/1/mem', 'rb').read(1)\n        return 'read'\n    except OSError:\n        return 41\n"},
	}
	p := newTestPool(t, Options{Workers: 1})
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			// The attacker runs first and between the others, on one worker.
			progs := []string{a.program, right, wrong}
			m, err := p.Run(context.Background(), Job{Programs: progs, Tests: integrityTests, TimePolicy: Within(2 * time.Second)}, nil)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			for j, r := range m.Results[0] {
				if r.Outcome == Pass {
					t.Errorf("attacker passes test %d (%v)", j, r)
				}
			}
			for j, r := range m.Results[1] {
				if r.Outcome != Pass {
					t.Errorf("right program: test %d is %v %q, want pass", j, r.Outcome, r.Exception)
				}
			}
			for j, r := range m.Results[2] {
				if r.Outcome != Fail {
					t.Errorf("wrong program: test %d is %v %q, want fail", j, r.Outcome, r.Exception)
				}
			}
		})
	}
}

// TestIntegrityProcIsClosed asserts the red-team's reproducer directly: the
// worker's descriptors and memory cannot be opened from a program. This is
// the case that matters when ticoder runs as an ordinary user (CI runs this
// package's tests both ways).
func TestIntegrityProcIsClosed(t *testing.T) {
	p := newTestPool(t, Options{Workers: 1})
	prog := `
import os
def f():
    opened = []
    for path in ['/proc/1/fd/%d' % i for i in range(3, 6)] + ['/proc/1/mem', '/proc/1/environ', '/proc/1/maps']:
        try:
            os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
            opened.append(path)
        except OSError:
            pass
    return opened
`
	m, err := p.Run(context.Background(), Job{Programs: []string{prog}, Tests: []Test{{Code: "assert f() == []", Input: "f()", Expected: "[]"}}, TimePolicy: Within(2 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := m.Results[0][0]; r.Outcome != Pass {
		t.Errorf("a program opened the worker's /proc entries: %v %s", r.Outcome, r.Value)
	}
}

func TestIntegrityValues(t *testing.T) {
	// Each program returns a value; the test compares it with a literal.
	// The verdict must be Python's == on the real values.
	cases := []struct {
		name, body, expected string
		want                 Outcome
	}{
		{"float sum", "0.1 + 0.2", "0.30000000000000004", Pass},
		{"float sum is not 0.3", "0.1 + 0.2", "0.3", Fail},
		{"negative zero", "-0.0", "0.0", Pass},
		{"int equals float", "1", "1.0", Pass},
		{"bool equals int", "True", "1", Pass},
		{"nan is not nan", "float('nan')", "float('nan')", Fail},
		{"huge int", "10 ** 5000 + 1", "10 ** 5000 + 1", Pass},
		{"bytes", "b'\\xff\\x00a'", "b'\\xff\\x00a'", Pass},
		{"complex", "complex(1, -2)", "(1-2j)", Pass},
		{"set", "{3, 1, 2}", "{1, 2, 3}", Pass},
		{"frozenset in dict key", "{frozenset({1}): (1, [2])}", "{frozenset({1}): (1, [2])}", Pass},
		{"tuple is not list", "(1, 2)", "[1, 2]", Fail},
		{"namedtuple", "__import__('collections').namedtuple('P', 'x y')(1, 2)", "(1, 2)", Pass},
		{"Counter", "__import__('collections').Counter('aab')", "{'a': 2, 'b': 1}", Pass},
		{"OrderedDict", "__import__('collections').OrderedDict([(1, 2)])", "{1: 2}", Pass},
		{"range", "range(3)", "range(3)", Pass},
		{"generator is not a list", "(x for x in [1])", "[1]", Fail},
		{"Fraction", "__import__('fractions').Fraction(1, 2)", "0.5", Pass},
		{"deep list", "eval('[' * 90 + ']' * 90)", "eval('[' * 90 + ']' * 90)", Pass},
		{"str subclass with lying __eq__", "type('S', (str,), {'__eq__': lambda s, o: True, '__hash__': str.__hash__})('x')", "'y'", Fail},
		{"list subclass with lying __eq__", "type('L', (list,), {'__eq__': lambda s, o: True})([1])", "[2]", Fail},
	}
	p := newTestPool(t, Options{Workers: 1})
	var progs []string
	var tests []Test
	for _, c := range cases {
		progs = append(progs, "def f():\n    return "+c.body+"\n")
	}
	// One test per expected value, all on every program: the diagonal is
	// the case's verdict.
	for _, c := range cases {
		tests = append(tests, Test{Code: "assert f() == " + c.expected, Input: "f()", Expected: c.expected})
	}
	m, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(5 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if r := m.Results[i][i]; r.Outcome != c.want {
			t.Errorf("%s: %v %q (value %q), want %v", c.name, r.Outcome, r.Exception, r.Value, c.want)
		}
	}
}

func TestObjectsFailUnlessAllowed(t *testing.T) {
	anything := "class Any:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\ndef f():\n    return Any()\n"
	tests := []Test{
		{Code: "assert f() == 42", Input: "f()", Expected: "42"},
		{Code: "def check(candidate):\n    assert candidate() == 42\ncheck(f)\n", Trusted: true},
		{Code: "assert 42 == f()"},
	}
	p := newTestPool(t, Options{Workers: 1})
	for _, allow := range []bool{false, true} {
		m, err := p.Run(context.Background(), Job{Programs: []string{anything}, Tests: tests, TimePolicy: Within(2 * time.Second), AllowObjects: allow}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j, r := range m.Results[0] {
			switch {
			case !allow && (r.Outcome != Fail || !strings.Contains(r.Exception, "not plain data")):
				t.Errorf("test %d: %v %q, want a failure that says the value is not plain data", j, r.Outcome, r.Exception)
			case allow && r.Outcome != Pass:
				t.Errorf("AllowObjects, test %d: %v %q, want pass (the object's own == decides)", j, r.Outcome, r.Exception)
			}
		}
	}
}

func TestCandidateTextIsBounded(t *testing.T) {
	progs := []string{
		"def f():\n    raise type('E' * (3 << 20), (Exception,), {})()\n",
		"def f():\n    return 'x' * (3 << 20)\n",
	}
	tests := []Test{
		{Code: "assert f() == 42", Input: "f()", Expected: "42"},
		{Code: "def check(candidate):\n    assert candidate() == 42\ncheck(f)\n", Trusted: true},
		{Code: "assert f() != f()"},
	}
	p := newTestPool(t, Options{Workers: 1})
	m, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(5 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range m.Results {
		for j, r := range row {
			if len(r.Exception) > maxExceptionBytes+8 || len(r.Value) > maxValueBytes+8 {
				t.Errorf("program %d, test %d: %d bytes of exception, %d of value", i, j, len(r.Exception), len(r.Value))
			}
			if r.Outcome == Pass {
				t.Errorf("program %d, test %d passes", i, j)
			}
		}
	}
	if r := m.Results[0][0]; r.Outcome != Error || !strings.HasPrefix(r.Exception, "EEEE") {
		t.Errorf("long exception name: %v %.20q, want error EEEE…", r.Outcome, r.Exception)
	}
}

func TestNoStateLeaksBetweenPrograms(t *testing.T) {
	// The first program leaves files, a symlinked working directory and a
	// read-only directory behind; the next one must see an empty /tmp.
	plant := `
import os
def f():
    os.chdir('/')
    open('/tmp/leak', 'w').write('secret')
    os.makedirs('/tmp/evil/deep/er')
    open('/tmp/evil/deep/er/x', 'w').write('x')
    os.chmod('/tmp/evil/deep', 0)
    import shutil
    shutil.rmtree('/tmp/run', ignore_errors=True)
    os.symlink('/tmp/evil', '/tmp/run')
    open('/dev/shm/leak2', 'w').write('secret')
    return 42
`
	p := newTestPool(t, Options{Workers: 1})
	checkCleanAfter(t, p, plant)
	// A tool call after them sees a clean /tmp too.
	var seen []string
	if err := p.Call(context.Background(), "import os\ndef ls(_):\n    return sorted(os.listdir('/tmp'))\n", "ls", nil, &seen); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != "run" {
		t.Errorf("a tool call sees /tmp = %v, want [run]", seen)
	}
}

// TestManyJudgedTests runs several tests that need a judge process on one
// program: each judge starts in a directory of its own.
func TestManyJudgedTests(t *testing.T) {
	var tests []Test
	for i := range 5 {
		tests = append(tests, Test{Code: fmt.Sprintf("assert f(%d) > %d >= 0", i, i)})
	}
	tests = append(tests, Test{Code: "assert f(1) == 1 / 0", Input: "f(1)", Expected: "1 / 0"})
	p := newTestPool(t, Options{Workers: 1})
	m, err := p.Run(context.Background(), Job{Programs: []string{"def f(x):\n    return x + 1\n"}, Tests: tests, TimePolicy: Within(2 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	row := m.Results[0]
	for j := range 5 {
		if row[j].Outcome != Pass {
			t.Errorf("test %d: %v %q, want pass", j, row[j].Outcome, row[j].Exception)
		}
	}
	if r := row[5]; r.Outcome != Error || r.Exception != "ZeroDivisionError" {
		t.Errorf("an expected value that raises: %v %q, want error ZeroDivisionError", r.Outcome, r.Exception)
	}
}

// TestPredicateTestsAsJudged: a generated test that asserts one thing of
// what one call returns (assert f(x), assert not f(x), assert f(x) is None,
// assert f(x) != LITERAL, …) runs as a value test, without a judge process;
// its outcome and exception must be those the judge process gives. Each is
// run beside a twin the judge runs, `assert (P) or False`, on programs that
// return every kind of value, raise, return what is not plain data, or play
// tricks with == and bool.
func TestPredicateTestsAsJudged(t *testing.T) {
	progs := []string{
		"def f(x):\n    return True\n",
		"def f(x):\n    return False\n",
		"def f(x):\n    return 0\n",
		"def f(x):\n    return 1\n",
		"def f(x):\n    return 2.0\n",
		"def f(x):\n    return float('nan')\n",
		"def f(x):\n    return None\n",
		"def f(x):\n    return ''\n",
		"def f(x):\n    return 'ab'\n",
		"def f(x):\n    return [1, 2]\n",
		"def f(x):\n    return []\n",
		"def f(x):\n    return (1, [2])\n",
		"def f(x):\n    return {'a': 1}\n",
		"def f(x):\n    return {1, 2}\n",
		"def f(x):\n    raise ValueError('no')\n",
		"def f(x):\n    raise AssertionError\n",
		"def f(x):\n    return (i for i in [1])\n",
		"class T:\n    def __bool__(self):\n        return True\n    def __eq__(self, o):\n        return True\n    __hash__ = object.__hash__\ndef f(x):\n    return T()\n",
		"class L(list):\n    def __bool__(self):\n        return True\n    def __eq__(self, o):\n        return True\n    __hash__ = object.__hash__\ndef f(x):\n    return L()\n",
		"class I(int):\n    def __eq__(self, o):\n        return True\n    __hash__ = int.__hash__\ndef f(x):\n    return I(7)\n",
		"def f(x):\n    return x\n",
		"f = 3\n",
		"def g(x):\n    return 1\n",
	}
	preds := []string{
		"f(1)", "not f(1)", "f(1) is True", "f(1) is False", "f(1) is None", "f(1) is not None",
		"f(1) == 1", "f(1) != 1", "f(1) != [1, 2]", "1 == f(1)", "f(1) < 2", "f(1) >= 2.0", "3 > f(1)",
		"f(1) in [1, 2, (1, [2])]", "f(1) not in ('ab', None)", "'a' in f(1)", "1 in f(1)", "f([1, 2]) == [1, 2]",
	}
	var tests []Test
	for _, p := range preds {
		tests = append(tests, Test{Code: "assert " + p}, Test{Code: "assert (" + p + ") or False"})
	}
	p := newTestPool(t, Options{})
	m, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(5 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range m.Results {
		for k := 0; k < len(tests); k += 2 {
			got, judged := row[k], row[k+1]
			if got.Outcome != judged.Outcome || got.Exception != judged.Exception {
				t.Errorf("program %d, %s: %v %q; its judge says %v %q", i, tests[k].Code, got.Outcome, got.Exception, judged.Outcome, judged.Exception)
			}
			if got.HasValue {
				t.Errorf("program %d, %s: shows a value (%q), as a judged test does not", i, tests[k].Code, got.Value)
			}
		}
	}
}

// TestSameHashesInEveryWorker: str hashes, and so the order of a set, are
// the same in every worker and every run, so that a result does not depend
// on which worker ran it (each worker used to draw its own hash seed).
func TestSameHashesInEveryWorker(t *testing.T) {
	prog := "def f():\n    return list(set('abcdefghijklmnopqrstuvwxyz'))\n"
	test := Test{Code: "assert f() == []", Input: "f()", Expected: "[]"}
	var seen []string
	for range 3 {
		p := newTestPool(t, Options{Workers: 1})
		m, err := p.Run(context.Background(), Job{Programs: []string{prog}, Tests: []Test{test}, TimePolicy: Within(2 * time.Second)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, m.Results[0][0].Value)
		p.Close()
	}
	if seen[0] != seen[1] || seen[1] != seen[2] {
		t.Errorf("three workers order a set three ways:\n%s", strings.Join(seen, "\n"))
	}
}

// TestPrefetchedCalls: a trusted test's literal calls go to the program in
// one message, but the verdict is what calling them one by one in order
// would give: a stateful function sees every call, a test that fails early
// is a failure even if a later call loops, and the tests after it run.
func TestPrefetchedCalls(t *testing.T) {
	counter := "n = [0]\ndef f(x):\n    n[0] += 1\n    return n[0]\n"
	loopsLater := "def f(x):\n    while x == 3:\n        pass\n    return x\n"
	tests := []Test{
		{Code: "def check(candidate):\n    assert candidate(1) == 1\n    assert candidate(1) == 2\n    assert candidate(2) == 3\ncheck(f)\n", Trusted: true},
		{Code: "def check(c):\n    assert c(1) == 2\n    assert c(3) == 3\ncheck(f)\n", Trusted: true},
		{Code: "assert f(5) == 5", Input: "f(5)", Expected: "5"},
	}
	p := newTestPool(t, Options{Workers: 1})
	m, err := p.Run(context.Background(), Job{Programs: []string{counter, loopsLater}, Tests: tests, TimePolicy: Within(2 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]Outcome{{Pass, Fail, Fail}, {Fail, Fail, Pass}}
	for i, row := range m.Results {
		for j, r := range row {
			if r.Outcome != want[i][j] {
				t.Errorf("program %d, test %d: %v %q, want %v", i, j, r.Outcome, r.Exception, want[i][j])
			}
		}
	}
}

// TestKillingTheSandboxHurtsOnlyItself: a program that kills every process
// it can see (the zygote its process came from included) gets its own
// results; the programs after it on the same worker are not affected.
func TestKillingTheSandboxHurtsOnlyItself(t *testing.T) {
	killer := "import os, signal\ndef f():\n    os.kill(-1, signal.SIGKILL)\n    return 42\n"
	progs := []string{killer, goodProgram, killer, goodProgram + "# 2\n"}
	tests := []Test{{Code: "assert f() == 42", Input: "f()", Expected: "42"}}
	p := newTestPool(t, Options{Workers: 1})
	m, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(2 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{1, 3} {
		if r := m.Results[i][0]; r.Outcome != Pass {
			t.Errorf("well-behaved program %d after a killer: %v %q, want pass", i, r.Outcome, r.Exception)
		}
	}
}

// TestOneProgramCannotHandicapTheNext checks that a program cannot lower the
// priority, the limits or the CPUs of the sandbox's other processes (the
// worker and the process the next programs are forked from): the program
// after it must run exactly as the one before it did.
func TestOneProgramCannotHandicapTheNext(t *testing.T) {
	look := "import os, resource\ndef f():\n    return [os.getpriority(os.PRIO_PROCESS, 0), resource.getrlimit(resource.RLIMIT_NOFILE), sorted(os.sched_getaffinity(0))]\n"
	cases := []struct{ name, attack string }{
		{"setpriority", "os.setpriority(os.PRIO_PROCESS, p, 19)"},
		{"setpriority of the user", "os.setpriority(os.PRIO_USER, 0, 19)"},
		{"prlimit", "resource.prlimit(p, resource.RLIMIT_NOFILE, (20, 20))"},
		{"sched_setaffinity", "os.sched_setaffinity(p, {0})"},
	}
	tests := []Test{{Code: "assert f() == 42", Input: "f()", Expected: "42"}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			attacker := fmt.Sprintf(`
import os, resource
def f():
    done = 0
    for p in [int(n) for n in os.listdir('/proc') if n.isdigit()]:
        if p != os.getpid():
            try:
                %s
                done += 1
            except OSError:
                pass
    return done
`, c.attack)
			p := newTestPool(t, Options{Workers: 1})
			m, err := p.Run(context.Background(), Job{Programs: []string{look, attacker, look + "# after\n"}, Tests: tests, TimePolicy: Within(2 * time.Second)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Results[1][0].Value; got != "0" {
				t.Errorf("the attacker changed %s other processes", got)
			}
			before, after := m.Results[0][0].Value, m.Results[2][0].Value
			if before == "" || before != after {
				t.Errorf("the program after the attacker sees %s, the one before %s", after, before)
			}
		})
	}
}

// TestSignalsHurtOnlyTheSender has a program signal the other processes of
// its sandbox (the worker and the zygote the programs are forked from): the
// programs after it must run as if nothing happened.
func TestSignalsHurtOnlyTheSender(t *testing.T) {
	tests := []Test{
		{Code: "assert f() == 42", Input: "f()", Expected: "42"},
		{Code: "def check(candidate):\n    assert candidate() == 42\ncheck(f)\n", Trusted: true},
	}
	targets := map[string]string{
		"everyone":   "p != os.getpid()",
		"its parent": "p == os.getppid()",
	}
	for _, sig := range []string{"SIGSTOP", "SIGKILL", "SIGTERM", "SIGUSR1", "SIGTSTP"} {
		for target, cond := range targets {
			t.Run(sig+" to "+target, func(t *testing.T) {
				sender := fmt.Sprintf(`import os, signal
def f():
    n = 0
    for p in [int(n) for n in os.listdir('/proc') if n.isdigit()]:
        if %s:
            try:
                os.kill(p, signal.%s)
                n += 1
            except OSError:
                pass
    return 42 if n else -1
`, cond, sig)
				progs := []string{goodProgram, sender, goodProgram + "# 2\n", goodProgram + "# 3\n"}
				p := newTestPool(t, Options{Workers: 1})
				m, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(2 * time.Second)}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if v := m.Results[1][0].Value; v == "-1" {
					t.Fatalf("the sender found no process to signal")
				}
				for _, i := range []int{0, 2, 3} {
					for j, r := range m.Results[i] {
						if r.Outcome != Pass {
							t.Errorf("program %d, test %d: %v %q, want pass", i, j, r.Outcome, r.Exception)
						}
					}
				}
			})
		}
	}
}

// TestTmpEmptiedWhateverIsLeft: after each program /tmp, its working
// directory, is emptied; whatever a program leaves there must be gone for
// the next program, whichever way the worker takes to empty it (one empty
// directory is removed at once, anything else is walked).
func TestTmpEmptiedWhateverIsLeft(t *testing.T) {
	cases := []struct{ name, plant string }{
		{"file in the working directory", "open('x', 'w').write('x')"},
		{"a link to /", "os.symlink('/', '/tmp/run')"},
		{"an empty directory", "os.mkdir('run')"},
		{"an empty directory, unreadable", "os.mkdir('/tmp/other', 0)"},
		{"a directory the program cannot leave", "os.mkdir('d'); os.chdir('d'); os.chmod('/tmp/d', 0)"},
		{"unreadable working directory with a file", "open('x', 'w').write('x'); os.chmod('.', 0)"},
		{"nothing at all", "pass"},
	}
	p := newTestPool(t, Options{Workers: 1})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkCleanAfter(t, p, "import os\ndef f():\n    "+c.plant+"\n    return 42\n")
		})
	}
}

// checkCleanAfter runs plant, whose f() returns 42 after leaving something
// in /tmp, and then a program that looks: it must find /tmp, its working
// directory, empty.
func checkCleanAfter(t *testing.T, p *Pool, plant string) {
	t.Helper()
	look := "import os\ndef f():\n    return sorted(os.listdir('/tmp')) + [os.getcwd()] + sorted(os.listdir('.'))\n"
	tests := []Test{{Code: "assert f() == 42", Input: "f()", Expected: "42"}}
	m, err := p.Run(context.Background(), Job{Programs: []string{plant, look}, Tests: tests, TimePolicy: Within(2 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := m.Results[0][0]; r.Outcome != Pass {
		t.Fatalf("planting program: %v %q", r.Outcome, r.Exception)
	}
	if got, want := m.Results[1][0].Value, "['/tmp']"; got != want {
		t.Errorf("the next program sees %s, want %s", got, want)
	}
}

// TestForgedTestTime: the program's process reports how long its part of a
// test took ("s"); a program that finds its token and reports a time that
// is not a number, negative or NaN crashes its own test (it used to reach
// the results as NaN, which JSON cannot carry), and a huge one is cut to
// the time the worker saw pass. The programs after it are not affected.
func TestForgedTestTime(t *testing.T) {
	forge := `
import gc, json, os
for _o in gc.get_objects():
    if type(_o).__name__ == 'Stamp':
        os.write(_o.fd, (json.dumps({'k': _o.token, 'j': 0, 'v': 42, 's': %s}) + '\n').encode())
def f():
    return 42
`
	cases := []struct {
		s    string
		want Outcome
	}{
		{"float('nan')", Crash},
		{"-1.0", Crash},
		{"'fast'", Crash},
		{"True", Crash},
		{"None", Crash},
		{"1e300", Pass},
		{"float('inf')", Pass},
	}
	tests := []Test{{Code: "assert f() == 42", Input: "f()", Expected: "42"}}
	p := newTestPool(t, Options{Workers: 1})
	for _, c := range cases {
		t.Run(c.s, func(t *testing.T) {
			progs := []string{fmt.Sprintf(forge, c.s), "def f():\n    return 42\n", "def f():\n    return 41\n"}
			m, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(2 * time.Second)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Results[0][0]
			if r.Outcome != c.want {
				t.Errorf("forged time %s: %v %q, want %v", c.s, r.Outcome, r.Exception, c.want)
			}
			if r.Seconds < 0 || r.Seconds > 60 {
				t.Errorf("forged time %s is recorded as %v seconds", c.s, r.Seconds)
			}
			if got := m.Results[1][0].Outcome; got != Pass {
				t.Errorf("right program after it: %v", got)
			}
			if got := m.Results[2][0].Outcome; got != Fail {
				t.Errorf("wrong program after it: %v", got)
			}
		})
	}
}

// TestTestTimeCoversProgramAndTest: a test's recorded time includes the
// program's module code and the test's own calls, whichever process runs
// them (a lower bound only: no wall-clock ceiling is asserted).
func TestTestTimeCoversProgramAndTest(t *testing.T) {
	prog := "import time\ntime.sleep(0.1)\ndef f():\n    time.sleep(0.1)\n    return 42\n"
	tests := []Test{
		{Code: "assert f() == 42", Input: "f()", Expected: "42"},
		{Code: "assert f() > 41 and f() < 43"},
		{Code: "def check(candidate):\n    assert candidate() == 42\n    assert candidate() == 42\ncheck(f)\n", Trusted: true},
	}
	p := newTestPool(t, Options{Workers: 1})
	m, err := p.Run(context.Background(), Job{Programs: []string{prog}, Tests: tests, TimePolicy: Within(5 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 0.1s module code, 0.1s per call. The worker caps the time C reports
	// by what it saw pass since it began waiting for the test, which can be
	// a few milliseconds after C began it (C goes on while the worker judges
	// the test before; pinned to one CPU, C runs first): hence the slack.
	least := []float64{0.2, 0.3, 0.3}
	const slack = 0.01
	for j, r := range m.Results[0] {
		if r.Outcome != Pass || r.Seconds < least[j]-slack {
			t.Errorf("test %d: %v in %.3fs, want pass in at least %.1fs", j, r.Outcome, r.Seconds, least[j])
		}
	}
}
