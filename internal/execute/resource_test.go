package execute

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/sandbox"
)

// The resource tests check that one sample's load cannot change another
// sample's result: each worker's sandbox is a cgroup of its own, bounded in
// memory and processes and given an equal share of the CPU. Without cgroups
// (an ordinary user without delegation, or TICODER_CGROUPS=off) the parts
// that only a cgroup can guarantee are skipped with the measured numbers.

// forkAndTouch forks n children that each fill mb MB of memory and hold it
// for a second; f returns 42 only if every child succeeded.
func forkAndTouch(n, mb int) string {
	return `import os, time
def f():
    pids = []
    for _ in range(` + strconv.Itoa(n) + `):
        pid = os.fork()
        if pid == 0:
            try:
                b = b'x' * (` + strconv.Itoa(mb) + ` << 20)
                time.sleep(1)
            except BaseException:
                os._exit(1)
            os._exit(0)
        pids.append(pid)
    for pid in pids:
        _, st = os.waitpid(pid, 0)
        if not os.WIFEXITED(st) or os.WEXITSTATUS(st) != 0:
            raise RuntimeError('child %d: status %d' % (pid, st))
    return 42
`
}

// busyLoops starts 30 busy loops, each in a session of its own, and spins
// itself until its test's limit.
const busyLoops = `import os
def f():
    for _ in range(30):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            os.setsid()
            while True:
                pass
    while True:
        pass
`

// cpuBound needs about a quarter of a second of CPU on the development
// machine; its tests' limit is 2 s.
const cpuBound = "def f():\n    return sum(i * i for i in range(3 * 10**6)) % 97\n"

// forkCount forks up to 200 sleeping children and returns how many it got.
const forkCount = `import os, time
def f():
    n = 0
    for _ in range(200):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        n += 1
    return n
`

// workers takes every started worker of p out of its slots and returns
// them; put them back with the returned function.
func workers(t *testing.T, p *Pool) ([]*worker, func()) {
	t.Helper()
	var all, started []*worker
	for range p.Workers() {
		select {
		case w := <-p.slots:
			all = append(all, w)
			if w != nil {
				started = append(started, w)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("no free worker slot after 30 s")
		}
	}
	return started, func() {
		for _, w := range all {
			p.slots <- w
		}
	}
}

// descendants counts the processes below this test process.
func descendants(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	parent := map[int]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
		}
	}
	self, n := os.Getpid(), 0
	for pid := range parent {
		for p, hops := parent[pid], 0; p > 1 && hops < 64; p, hops = parent[p], hops+1 {
			if p == self {
				n++
				break
			}
		}
	}
	return n
}

// TestResourceMemoryBoundedPerWorker: a program whose children together
// touch more than a worker's memory bound fails (or, on a loaded machine,
// times out stalled at the bound), the worker's cgroup never
// holds more than the bound, and a well-behaved program in the same job
// passes.
func TestResourceMemoryBoundedPerWorker(t *testing.T) {
	cases := []struct {
		name    string
		forks   int
		mb      int
		want    []Outcome
		minPeak int64 // the cgroup must have seen at least this much
	}{
		// (A loaded machine may stall the forks at the bound until the
		// limit: a timeout, the bound held all the same.)
		{name: "three forks of 700 MB", forks: 3, mb: 700, want: []Outcome{Error, Crash, Timeout}, minPeak: 700 << 20},
		{name: "one fork of 300 MB", forks: 1, mb: 300, want: []Outcome{Pass}, minPeak: 300 << 20},
	}
	p := newTestPool(t, Options{Workers: 2})
	bound := p.opts.Limits.WorkerMemory
	t.Logf("isolation: %s; worker memory bound %d MiB", p.cgroups, bound>>20)
	memcg := p.cgroups.Bounds("memory")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tests := []Test{{Code: "assert f() == 42", Input: "f()", Expected: "42"}, {Code: "assert 1 + 1 == 2"}}
			job := Job{Programs: []string{forkAndTouch(c.forks, c.mb), goodProgram}, Tests: tests, TimePolicy: Within(20 * time.Second)}
			m, err := p.Run(context.Background(), job, nil)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			bad, good := m.Results[0], m.Results[1]
			if good[0].Outcome != Pass || good[1].Outcome != Pass {
				t.Errorf("well-behaved program: %v, want pass pass", outcomes(good))
			}
			if !memcg {
				t.Skipf("no memory cgroup (%s): %d × %d MB gave %v; only RLIMIT_AS bounds each process",
					p.cgroups, c.forks, c.mb, outcomes(bad))
			}
			t.Logf("%d × %d MB: %v", c.forks, c.mb, outcomes(bad))
			if !slices.Contains(c.want, bad[0].Outcome) {
				t.Errorf("%d × %d MB: %v, want one of %v", c.forks, c.mb, outcomes(bad), c.want)
			}
			ws, put := workers(t, p)
			defer put()
			var most int64
			for _, w := range ws {
				peak, err := w.cg.MemoryPeak()
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("worker cgroup %s: peak %d MiB", w.cg.Paths()[0], peak>>20)
				if peak > bound {
					t.Errorf("worker's peak memory %d MiB is over its bound %d MiB", peak>>20, bound>>20)
				}
				most = max(most, peak)
			}
			if most < c.minPeak {
				t.Errorf("largest worker peak %d MiB < %d MiB: the children were not in the worker's cgroup", most>>20, c.minPeak>>20)
			}
		})
	}
}

// TestResourceBusyLoopsDoNotSlowOtherWorkers: a correct program on one
// worker passes tests next to 30 busy loops in sessions of their own on the
// other worker, under a time limit it needs a fraction of: four times what
// it takes next to a single busy loop there (at least 2 s), so that other
// loads on the machine, which slow both runs alike, do not make it flaky.
// The two workers share the CPUs as the kernel places them, and then are
// both pinned to one CPU, the attacker's (with one worker per CPU each
// would have a CPU of its own, and only the cgroups are under test here).
func TestResourceBusyLoopsDoNotSlowOtherWorkers(t *testing.T) {
	placements := []struct {
		name string
		pin  func(p *Pool)
	}{
		{"kernel places workers", func(*Pool) {}},
		{"both workers on one CPU", func(p *Pool) {
			if cpus := allowedCPUs(); len(cpus) > 0 {
				p.cpus = &cpuPlacer{cpus: cpus[:1], count: []int{0}}
			}
		}},
	}
	for _, pl := range placements {
		t.Run(pl.name, func(t *testing.T) {
			t.Setenv(placementEnv, "off")
			p := newTestPool(t, Options{Workers: 2})
			pl.pin(p)
			busyLoopsNextToCorrectProgram(t, p)
		})
	}
}

func busyLoopsNextToCorrectProgram(t *testing.T, p *Pool) {
	t.Logf("isolation: %s; processes %d; workers pinned to %s", p.cgroups, p.opts.Limits.Processes, p.cpus)
	tests := make([]Test, 3)
	for i := range tests {
		// Distinct setups keep deduplication from merging the tests.
		tests[i] = Test{Setup: "n = " + strconv.Itoa(i), Code: "assert f() >= 0", Input: "f() >= 0", Expected: "True"}
	}
	// correct runs cpuBound on a free worker and returns its slowest test.
	correct := func(limit time.Duration) ([]Result, float64) {
		t.Helper()
		m, err := p.Run(context.Background(), Job{Programs: []string{cpuBound}, Tests: tests, TimePolicy: Within(limit)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		slowest := 0.0
		for _, r := range m.Results[0] {
			slowest = max(slowest, r.Seconds)
		}
		return m.Results[0], slowest
	}
	var passed, total int
	for round := range 3 {
		stop := load(t, p, "def f():\n    while True:\n        pass\n", 1)
		_, alone := correct(30 * time.Second)
		stop()
		limit := max(2*time.Second, time.Duration(4*alone*float64(time.Second)))
		stop = load(t, p, busyLoops, min(25, int(p.opts.Limits.Processes)-3))
		procs := descendants(t)
		row, slowest := correct(limit)
		stop()
		for _, r := range row {
			total++
			if r.Outcome == Pass {
				passed++
			}
		}
		t.Logf("round %d: next to one busy loop the slowest test took %.2f s; next to %d processes %v, slowest %.2f s of a %.2f s limit",
			round, alone, procs, outcomes(row), slowest, limit.Seconds())
	}
	t.Logf("correct program next to the busy loops: %d of %d tests passed", passed, total)
	if !p.cgroups.Bounds("cpu") {
		t.Skipf("no cpu cgroup (%s): the correct program's result is not guaranteed; rlimits bound the attacker to %d processes",
			p.cgroups, p.opts.Limits.Processes)
	}
	if passed != total {
		t.Errorf("correct program passed %d of %d tests next to the busy loops, want all", passed, total)
	}
}

// load runs prog on a worker of p until the returned function is called,
// once at least extra more processes run below this test than before.
func load(t *testing.T, p *Pool, prog string, extra int) (stop func()) {
	t.Helper()
	before := descendants(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := p.Run(ctx, Job{Programs: []string{prog}, Tests: []Test{{Code: "f()"}}, TimePolicy: Within(time.Minute)}, nil)
		done <- err
	}()
	deadline := time.Now().Add(30 * time.Second)
	for descendants(t) < before+extra && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // let the last ones start spinning
	return func() {
		t.Helper()
		cancel()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Fatalf("load: %v", err)
			}
		case <-time.After(60 * time.Second):
			t.Fatal("the load's job did not end within 60 s of its cancellation")
		}
	}
}

// TestResourceCgroupsRemoved: a worker's cgroup is removed when the worker
// dies, and every cgroup of the pool when it is closed.
func TestResourceCgroupsRemoved(t *testing.T) {
	p, err := NewPool(context.Background(), Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !p.cgroups.Bounds("pids") {
		t.Skipf("no cgroups: %s", p.cgroups)
	}
	run := func() {
		t.Helper()
		progs := []string{goodProgram, "def f():\n    return 41\n"}
		tests := []Test{{Code: "assert f() == 42", Input: "f()", Expected: "42"}}
		if _, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(5 * time.Second)}, nil); err != nil {
			t.Fatalf("Run: %v", err)
		}
	}
	run()
	ws, put := workers(t, p)
	var dead []string
	for _, w := range ws {
		dead = append(dead, w.cg.Paths()...)
	}
	if len(dead) == 0 {
		t.Fatal("no worker cgroup")
	}
	// Kill the workers from outside; the pool notices when it next uses them.
	for _, w := range ws {
		_ = w.cmd.Process.Kill()
	}
	put()
	run()
	ws, put = workers(t, p)
	var live []string
	for _, w := range ws {
		live = append(live, w.cg.Paths()...)
	}
	put()
	for _, d := range dead {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("dead worker's cgroup %s still exists (%v)", d, err)
		}
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	for _, d := range live {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("cgroup %s still exists after Close (%v)", d, err)
		}
		parent := filepath.Dir(d)
		if _, err := os.Stat(filepath.Join(parent, "supervisor")); err == nil {
			continue // cgroup v2: this process lives in the parent's leaf
		}
		if _, err := os.Stat(parent); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("per-process parent %s still exists after Close (%v)", parent, err)
		}
	}
}

// TestResourceProcessesBounded: with cgroups, in the rlimits-only fallback
// and without a sandbox (where only a pids cgroup can bound them), a
// program gets no more processes than its limit, and a well-behaved program
// in the same job passes.
func TestResourceProcessesBounded(t *testing.T) {
	cases := []struct {
		name string
		opts Options
	}{
		{name: "cgroups", opts: Options{Workers: 2}},
		{name: "fallback", opts: Options{Workers: 2, Cgroups: sandbox.CgroupsOff}},
		{name: "no sandbox", opts: Options{Workers: 2, Sandbox: sandbox.Config{Unsafe: true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newTestPool(t, c.opts)
			limit := p.opts.Limits.Processes
			t.Logf("isolation: %s; processes %d", p.cgroups, limit)
			switch {
			case c.opts.Cgroups == sandbox.CgroupsOff && p.cgroups.Bounds("pids"):
				t.Fatalf("CgroupsOff: isolation %s", p.cgroups)
			case c.opts.Cgroups == sandbox.CgroupsOff && limit != fallbackProcesses:
				t.Errorf("fallback process limit %d, want %d", limit, fallbackProcesses)
				limit = fallbackProcesses
			case c.opts.Sandbox.Unsafe && !p.cgroups.Bounds("pids"):
				t.Skipf("no pids cgroup (%s): nothing bounds processes without a sandbox", p.cgroups)
			case c.opts.Sandbox.Unsafe:
				limit = p.opts.Limits.workerLimits().Processes
			}
			tests := []Test{{Code: "assert f() == 0", Input: "f()", Expected: "0"}, {Code: "assert 1 + 1 == 2"}}
			job := Job{Programs: []string{forkCount, goodProgram}, Tests: tests, TimePolicy: Within(20 * time.Second)}
			m, err := p.Run(context.Background(), job, nil)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			bad, good := m.Results[0], m.Results[1]
			if good[1].Outcome != Pass {
				t.Errorf("well-behaved program: %v, want pass", outcomes(good))
			}
			if c.opts.Sandbox.Unsafe && bad[0].Outcome == Crash {
				// Without RLIMIT_NPROC the program can take every pid the
				// cgroup allows, and the worker then cannot fork either.
				t.Logf("the program used up the worker's pids: %v", outcomes(bad))
				return
			}
			n, err := strconv.Atoi(bad[0].Value)
			if err != nil {
				t.Fatalf("fork counter: %v (value %q)", outcomes(bad), bad[0].Value)
			}
			// The worker and the program's own process count too.
			t.Logf("the program forked %d children (at most %d allowed)", n, limit-2)
			if n < 1 || int64(n) > limit-2 {
				t.Errorf("program forked %d children, want 1 to %d", n, limit-2)
			}
		})
	}
}

// TestLoadedMachineKeepsVerdicts: a test's time limit counts the program's
// own time, not the time it waits for a CPU that other processes hold. Next
// to busy processes outside ticoder (a loaded machine: other jobs, other
// users) a quick program still passes tests whose limit a quiet machine's
// run meets with room to spare, and a looping one still times out.
func TestLoadedMachineKeepsVerdicts(t *testing.T) {
	p := newTestPool(t, Options{Workers: 1})
	// About 10 ms of CPU a call: heavy enough that a limit of three times
	// its quiet time also covers what the first test pays for the
	// program's start (its fork's copied pages, slow next to busy
	// processes), light enough that waiting for a CPU among them (a tenth
	// of a CPU each) would take it far past that limit if it counted.
	const quick = "def f():\n    return sum(i * i for i in range(200000)) % 97\n"
	const loops = "def f():\n    while True:\n        pass\n"
	tests := make([]Test, 8)
	for i := range tests {
		tests[i] = Test{Setup: "n = " + strconv.Itoa(i), Code: "assert f() >= 0", Input: "f() >= 0", Expected: "True"}
	}
	run := func(prog string, tests []Test, limit time.Duration) []Result {
		t.Helper()
		m, err := p.Run(context.Background(), Job{Programs: []string{prog}, Tests: tests, TimePolicy: Within(limit)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return m.Results[0]
	}
	slowest := 0.0
	for _, r := range run(quick, tests, 5*time.Second) {
		if r.Outcome != Pass {
			t.Fatalf("quiet machine: %v %s", r.Outcome, r.Exception)
		}
		slowest = max(slowest, r.Seconds)
	}
	limit := max(20*time.Millisecond, time.Duration(3*slowest*float64(time.Second)))
	t.Logf("quiet: %.3f s a test at most; limit %v", slowest, limit)
	// Ten busy processes per CPU the worker may use, outside the pool.
	n := 10 * max(1, len(allowedCPUs()))
	var busy []*exec.Cmd
	for range n {
		cmd := exec.Command("/usr/bin/python3", "-c", "while True: pass")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		busy = append(busy, cmd)
	}
	defer func() {
		for _, c := range busy {
			c.Process.Kill()
			c.Wait()
		}
	}()
	time.Sleep(200 * time.Millisecond) // let them start
	for j, r := range run(quick, tests, limit) {
		if r.Outcome != Pass {
			t.Errorf("quick program next to %d busy processes, test %d (limit %v, %.3f s alone): %v %s", n, j, limit, slowest, r.Outcome, r.Exception)
		}
	}
	for j, r := range run(loops, tests[:2], limit) {
		if r.Outcome != Timeout {
			t.Errorf("looping program, test %d: %v %s, want timeout", j, r.Outcome, r.Exception)
		}
	}
}

// TestWaitConstants: the Go side's reply budget allows what the harness
// lets a test wait for a CPU.
func TestWaitConstants(t *testing.T) {
	src, err := pyworkerSource("limits")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"WAIT_FACTOR": strconv.Itoa(waitFactor), "WAIT_EXTRA": strconv.FormatFloat(waitExtra, 'f', 1, 64)} {
		if !strings.Contains(string(src), "\n"+name+" = "+want+"  ") {
			t.Errorf("pyworker/limits.py does not set %s = %s", name, want)
		}
	}
}
