package execute

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/store"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

// newTestPool returns a sandboxed pool of two workers, closed at cleanup.
func newTestPool(t *testing.T, opts Options) *Pool {
	t.Helper()
	if opts.Workers == 0 {
		opts.Workers = 2
	}
	p, err := NewPool(context.Background(), opts)
	if err != nil {
		t.Fatalf("NewPool: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// outcomes returns the outcome names of a matrix row.
func outcomes(row []Result) []string {
	out := make([]string, len(row))
	for i, r := range row {
		out[i] = r.Outcome.String()
		if r.Exception != "" {
			out[i] += ":" + r.Exception
		}
	}
	return out
}

func TestRunMatrix(t *testing.T) {
	p := newTestPool(t, Options{})
	progs := []string{
		"def f(x):\n    return x + 1\n",
		"def f(x):\n    return x * 2\n",
		"def f(x):\n    return 1 // (x - 1)\n",
		"def f(x):\n    return x + 1\n", // duplicate of the first
		"def f(x) return\n",             // does not parse
	}
	tests := []Test{
		{Code: "assert f(1) == 2", Input: "f(1)", Expected: "2"},
		{Code: "assert f(2) == 3", Input: "f(2)", Expected: "3"},
		{Code: "assert f(3) > 0"},
		{Setup: "y = 4", Code: "assert f(y) == 5", Input: "f(y)", Expected: "5"},
	}
	m, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"pass", "pass", "pass", "pass"},
		{"pass", "fail", "pass", "fail"},
		{"error:ZeroDivisionError", "fail", "fail", "fail"},
		{"pass", "pass", "pass", "pass"},
		{"error:SyntaxError", "error:SyntaxError", "error:SyntaxError", "error:SyntaxError"},
	}
	var got [][]string
	for _, row := range m.Results {
		got = append(got, outcomes(row))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if v := m.Results[1][1].Value; v != "4" || !m.Results[1][1].HasValue {
		t.Errorf("value of f(2) on x*2 = %q (has %v), want \"4\"", v, m.Results[1][1].HasValue)
	}
}

// newCachedPool is newTestPool with an execution cache in a fresh SQLite
// file, whose database it also returns.
func newCachedPool(t *testing.T, opts Options) (*Pool, *sql.DB) {
	t.Helper()
	db, err := store.Open(t.TempDir() + "/c.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if opts.Cache, err = NewCache(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return newTestPool(t, opts), db
}

// TestHiddenTestEndingEarlyKeepsTheProcess: a hidden test that fails at its
// first assert leaves calls it sent ahead unanswered; the program's process
// answers them at once and goes on with the next test (its module runs a
// second time in the same process), unless it does not answer them in
// time: then the next test runs in a fresh process. Verdicts are the same
// either way.
func TestHiddenTestEndingEarlyKeepsTheProcess(t *testing.T) {
	const counter = "import sys\nsys.ticoder_runs = getattr(sys, 'ticoder_runs', 0) + 1\ndef runs():\n    return sys.ticoder_runs\n"
	progs := []string{
		counter + "def f(x):\n    return x\n",
		counter + "def f(x):\n    while x == 2:\n        pass\n    return x\n",
	}
	tests := []Test{
		{Code: "def check(candidate):\n    assert candidate(1) == 0\n    assert candidate(2) == 0\n    assert candidate(3) == 0\ncheck(f)\n", Trusted: true, Entry: "f"},
		{Code: "assert runs() == 0", Input: "runs()", Expected: "0"},
	}
	p := newTestPool(t, Options{Workers: 1})
	m, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(2 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"2", "1"} {
		row := m.Results[i]
		if row[0].Outcome != Fail {
			t.Errorf("program %d: hidden test %v %q, want fail", i, row[0].Outcome, row[0].Exception)
		}
		if row[1].Value != want {
			t.Errorf("program %d: the next test ran in a process where the module had run %s times, want %s", i, row[1].Value, want)
		}
	}
}

// TestSharedCallsRunOnce: value tests with the same call (setup and call
// expression) are decided on one run of it per program; a call that times
// out or a program that does not compile gives each of them that result;
// a test that does not compile or another call does not disturb the order.
func TestSharedCallsRunOnce(t *testing.T) {
	const counter = "import sys\ndef f(x):\n    sys.ticoder_calls = getattr(sys, 'ticoder_calls', 0) + 1\n"
	progs := []string{
		counter + "    return sys.ticoder_calls\n",
		counter + "    while x == 1:\n        pass\n    return sys.ticoder_calls\n",
		"def f(x) return\n",
	}
	tests := []Test{
		{Code: "assert f(1) == 1", Input: "f(1)", Expected: "1"},
		{Code: "assert f(1) =="},
		{Code: "assert f(1) == 2", Input: "f(1)", Expected: "2"},
		{Code: "assert f(1)"},
		{Code: "assert f(2) == 2", Input: "f(2)", Expected: "2"},
		{Setup: "y = 1", Code: "assert f(y) == 2", Input: "f(y)", Expected: "2"},
	}
	want := [][]string{
		{"pass", "error:SyntaxError", "fail", "pass", "pass", "fail"},
		{"timeout", "error:SyntaxError", "timeout", "timeout", "pass", "timeout"},
		{"error:SyntaxError", "error:SyntaxError", "error:SyntaxError", "error:SyntaxError", "error:SyntaxError", "error:SyntaxError"},
	}
	p := newTestPool(t, Options{Workers: 1})
	m, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(300 * time.Millisecond)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range m.Results {
		var got []string
		for _, r := range row {
			s := r.Outcome.String()
			if r.Outcome == Error {
				s += ":" + r.Exception
			}
			got = append(got, s)
		}
		if fmt.Sprint(got) != fmt.Sprint(want[i]) {
			t.Errorf("program %d: %v, want %v", i, got, want[i])
		}
	}
	// The first program's f(2) was its second call, and f(y) with y = 1
	// (another setup) its third; the second program's f(2) ran in the same
	// process after f(1) was stopped at its limit (its second call too).
	for _, c := range []struct {
		i, j int
		want string
	}{{0, 4, "2"}, {0, 5, "3"}, {1, 4, "2"}} {
		if v := m.Results[c.i][c.j].Value; v != c.want {
			t.Errorf("program %d, %s: f returned %s, want %s", c.i, tests[c.j].Code, v, c.want)
		}
	}
}

// TestTimedOutValueTestKeepsTheProcess: a value test that used its time is
// stopped inside the program's process, which goes on with the next test
// (its module runs a second time there), unless the time ran out in the
// module code or the setup, or the program does not stop: then the next
// test runs in a fresh process. Every such test times out.
func TestTimedOutValueTestKeepsTheProcess(t *testing.T) {
	const counter = "import sys\nsys.ticoder_runs = getattr(sys, 'ticoder_runs', 0) + 1\ndef runs():\n    return sys.ticoder_runs\n"
	loop := Test{Code: "assert f(1) == 0", Input: "f(1)", Expected: "0"}
	runs := Test{Code: "assert runs() == 0", Input: "runs()", Expected: "0"}
	cases := []struct {
		name, program string
		setup         string
		want          string // runs() after the timeout
	}{
		{"loops in the call", counter + "def f(x):\n    while True:\n        x += 1\n", "", "2"},
		{"loops in the setup", counter + "def f(x):\n    return x\n", "while True:\n    pass", "1"},
		{"swallows the stop", counter + "def f(x):\n    while True:\n        try:\n            while True:\n                x += 1\n        except BaseException:\n            pass\n", "", "1"},
		{"dies of the stop", counter + "import signal\nsignal.signal(signal.SIGUSR1, signal.SIG_DFL)\ndef f(x):\n    while True:\n        x += 1\n", "", "1"},
	}
	p := newTestPool(t, Options{Workers: 1})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			first := loop
			first.Setup = c.setup
			m, err := p.Run(context.Background(), Job{Programs: []string{c.program}, Tests: []Test{first, runs}, TimePolicy: Within(200 * time.Millisecond)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			row := m.Results[0]
			if row[0].Outcome != Timeout {
				t.Errorf("the looping test: %v %q, want timeout", row[0].Outcome, row[0].Exception)
			}
			if row[1].Outcome != Fail || row[1].Value != c.want {
				t.Errorf("the next test: %v, value %s, want fail with %s", row[1].Outcome, row[1].Value, c.want)
			}
		})
	}
}

// TestLoopingProgramOnALoadedMachine runs a program that loops on every
// test while every CPU is busy: each test is a timeout, stopped in place,
// and none may run for the load delay of the tests before it (the process
// would then reach its CPU limit and be killed: a crash).
func TestLoopingProgramOnALoadedMachine(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := 0; i < 2*runtime.NumCPU(); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ctx.Err() == nil; n++ {
			}
		}()
	}
	defer wg.Wait()
	defer stop()
	p := newTestPool(t, Options{Workers: 1})
	job := Job{Programs: []string{"def f(x):\n    while True:\n        x += 1\n"}, TimePolicy: Within(20 * time.Millisecond)}
	for k := 0; k < 40; k++ {
		job.Tests = append(job.Tests, Test{Code: fmt.Sprintf("assert f(%d) == 0", k), Input: fmt.Sprintf("f(%d)", k), Expected: "0"})
	}
	m, err := p.Run(context.Background(), job, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range m.Results[0] {
		if r.Outcome != Timeout {
			t.Errorf("test %d: %v %q, want timeout", k, r.Outcome, r.Exception)
		}
	}
}

func TestCacheSkipsWork(t *testing.T) {
	// One result is stored by a statement of its own, more in a transaction.
	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d tests", n), func(t *testing.T) {
			p, db := newCachedPool(t, Options{})
			job := Job{
				Programs:   []string{"import random\ndef f(k):\n    return random.random()\n"},
				TimePolicy: Within(time.Second),
			}
			for k := 0; k < n; k++ {
				job.Tests = append(job.Tests, Test{Code: fmt.Sprintf("assert f(%d) < 2", k), Input: fmt.Sprintf("f(%d)", k), Expected: "2"})
			}
			first, err := p.Run(context.Background(), job, nil)
			if err != nil {
				t.Fatal(err)
			}
			second, err := p.Run(context.Background(), job, nil)
			if err != nil {
				t.Fatal(err)
			}
			// random.random() differs between executions; the same values
			// prove the second results came from the cache.
			for k := 0; k < n; k++ {
				if a, b := first.Results[0][k], second.Results[0][k]; !a.HasValue || a.Value != b.Value {
					t.Errorf("test %d: second run recomputed: %q vs %q", k, a.Value, b.Value)
				}
			}
			var rows int
			if err := db.QueryRow(`SELECT count(*) FROM exec_results`).Scan(&rows); err != nil || rows != n {
				t.Errorf("cache rows = %d (%v), want %d", rows, err, n)
			}
		})
	}
}

func TestCall(t *testing.T) {
	p := newTestPool(t, Options{Workers: 1})
	src := "def double(xs):\n    return [2 * x for x in xs]\ndef boom(_):\n    raise ValueError('no')\n"
	var got []int
	if err := p.Call(context.Background(), src, "double", []int{1, 2}, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{2, 4}, got); diff != "" {
		t.Errorf("double (-want +got):\n%s", diff)
	}
	err := p.Call(context.Background(), src, "boom", nil, nil)
	if err == nil || err.Error() != "python boom: ValueError: no" {
		t.Errorf("boom error = %v", err)
	}
}

func TestDegradeAfterTimeouts(t *testing.T) {
	p := newTestPool(t, Options{Workers: 1})
	tests := make([]Test, 6)
	for i := range tests {
		tests[i] = Test{Code: "assert f() == 1", Input: "f()", Expected: "1"}
		tests[i].Setup = "n = " + string(rune('0'+i)) // six distinct tests
	}
	loop := "def f():\n    while True:\n        pass\n"
	m, err := p.Run(context.Background(), Job{Programs: []string{loop}, Tests: tests, TimePolicy: TimePolicy{Timeout: time.Second, DegradeAfter: 2, DegradeLimit: 50 * time.Millisecond}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j, r := range m.Results[0] {
		if r.Outcome != Timeout {
			t.Fatalf("test %d: %v, want timeout", j, r.Outcome)
		}
		reduced := r.Exception == ReducedLimit
		if want := j >= 2; reduced != want {
			t.Errorf("test %d: reduced limit = %v, want %v", j, reduced, want)
		}
	}
}

// TestSkipAfterTimeouts: once a program has timed out on SkipAfter tests of
// the tail from SkipFrom, the rest of that tail is reported as not run; the
// tests before SkipFrom and a program that does not loop run as usual, and a
// second run gives the same results.
func TestSkipAfterTimeouts(t *testing.T) {
	p := newTestPool(t, Options{Workers: 1})
	tests := make([]Test, 7)
	for i := range tests {
		call := fmt.Sprintf("f(%d)", i-3) // f(-3) … f(3)
		tests[i] = Test{Code: "assert " + call + " == None", Input: call, Expected: "None"}
	}
	loopsOnNegative := "def f(x):\n    while x < 0:\n        pass\n    return x\n"
	const skipAfter, skipFrom = 2, 1
	job := Job{Programs: []string{loopsOnNegative, "def f(x):\n    return x\n"}, Tests: tests, TimePolicy: TimePolicy{Timeout: 50 * time.Millisecond, SkipAfter: skipAfter, SkipFrom: skipFrom}}
	cases := []struct {
		program   int
		test      int
		outcome   Outcome
		exception string
	}{
		{0, 0, Timeout, ""},     // before SkipFrom: runs, does not count
		{0, 1, Timeout, ""},     // f(-2): first timeout of the tail
		{0, 2, Timeout, ""},     // f(-1): second
		{0, 3, Timeout, NotRun}, // f(0) would return: not run
		{0, 6, Timeout, NotRun},
		{1, 0, Fail, ""}, // f(-3) returns -3 (!= None)
		{1, 6, Fail, ""},
	}
	for run := range 2 {
		m, err := p.Run(context.Background(), job, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			r := m.Results[c.program][c.test]
			if r.Outcome != c.outcome || r.Exception != c.exception {
				t.Errorf("run %d, program %d, test %d: %v %q, want %v %q", run, c.program, c.test, r.Outcome, r.Exception, c.outcome, c.exception)
			}
		}
	}
}

func TestUnsafeModeRunsWithoutNamespaces(t *testing.T) {
	hostFile := filepath.Join(t.TempDir(), "visible")
	if err := os.WriteFile(hostFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	prog := fmt.Sprintf("import os\ndef f():\n    return os.path.exists(%q)\n", hostFile)
	test := []Test{{Code: "assert f() == True", Input: "f()", Expected: "True"}}
	for _, unsafe := range []bool{true, false} {
		p := newTestPool(t, Options{Workers: 1, Sandbox: sandbox.Config{Unsafe: unsafe}})
		m, err := p.Run(context.Background(), Job{Programs: []string{prog}, Tests: test, TimePolicy: Within(time.Second)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Only without the sandbox does the candidate see the host's files.
		if got := m.Results[0][0].Value; got != fmt.Sprint(map[bool]string{true: "True", false: "False"}[unsafe]) {
			t.Errorf("unsafe=%v: host file visible = %s", unsafe, got)
		}
	}
}

// TestCallSurvivesForgedReply: code run by Call that writes its own bytes to
// the reply pipe gets an error; the worker goes on serving.
func TestCallSurvivesForgedReply(t *testing.T) {
	p := newTestPool(t, Options{Workers: 1})
	// The child's reply pipe is its only descriptor above 2.
	src := "import os\ndef forge(_):\n    for fd in range(3, 64):\n        try:\n            os.write(fd, b'[1, 2, 3]')\n            os._exit(0)\n        except OSError:\n            pass\n"
	if err := p.Call(context.Background(), src, "forge", nil, nil); err == nil || !strings.Contains(err.Error(), "garbled") {
		t.Errorf("forged reply: error %v, want a garbled-result error", err)
	}
	var got int
	if err := p.Call(context.Background(), "def one(_):\n    return 1\n", "one", nil, &got); err != nil || got != 1 {
		t.Errorf("next call: %v, %v", got, err)
	}
}

// TestRecvHonoursCancellation is the regression test for a lost
// cancellation: recvCtx registered its "deadline now" callback before recv
// set the reply's own deadline, so a context cancelled just before (while
// the worker was starting, say) could be overwritten, and a cancelled call
// waited for its program's full time limit.
func TestRecvHonoursCancellation(t *testing.T) {
	r, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer wr.Close() // open and silent: only a deadline ends a read
	w := &worker{resp: r, rd: bufio.NewReader(r)}
	far := time.Now().Add(time.Hour)

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	errc := make(chan error, 1)
	go func() { errc <- w.recv(cancelled, far, new(any)) }()
	if err := receive(t, errc, 10*time.Second, "recv with a cancelled context to return"); err == nil {
		t.Fatal("recv with a cancelled context returned no error")
	}

	// Cancellation racing with the start of recvCtx, from either side.
	for i := range 300 {
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			if i%2 == 0 {
				runtime.Gosched()
			}
			cancel()
		}()
		go func() { errc <- w.recvCtx(ctx, far, new(any)) }()
		if err := receive(t, errc, 10*time.Second, fmt.Sprintf("recvCtx %d to return after cancellation", i)); !errors.Is(err, context.Canceled) {
			t.Fatalf("recvCtx %d returned %v, want context.Canceled", i, err)
		}
	}
}

// TestCallCancelled: a call whose context is cancelled ends with the
// cancellation at once, not when its looping program's minute is up, and
// the pool still serves.
func TestCallCancelled(t *testing.T) {
	p := newTestPool(t, Options{Workers: 1})
	src := "def spin(_):\n    while True:\n        pass\n"
	for i := range 3 {
		ctx, cancel := context.WithCancel(context.Background())
		if i > 0 {
			time.AfterFunc(time.Duration(i)*100*time.Millisecond, cancel)
		} else {
			cancel()
		}
		errc := make(chan error, 1)
		go func() { errc <- p.Call(ctx, src, "spin", nil, nil) }()
		if err := receive(t, errc, 30*time.Second, "a cancelled call to return"); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled call %d returned %v, want context.Canceled", i, err)
		}
		cancel()
	}
	var got int
	if err := p.Call(context.Background(), "def one(_):\n    return 1\n", "one", nil, &got); err != nil || got != 1 {
		t.Fatalf("after cancelled calls: one() = %d, %v", got, err)
	}
}

// receive waits up to d for a value of ch (testutil.Receive, which this
// package cannot import: testutil imports execute).
func receive[T any](t *testing.T, ch <-chan T, d time.Duration, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(d):
		t.Fatalf("waited %v for %s", d, what)
	}
	var zero T
	return zero
}

// TestPlanTaskSizes: programs that run a test or two go several to a task
// (a task costs a request frame and a round trip), but every worker still
// gets four tasks or more of the group; programs with many tests go one to
// a task until there are many of them.
func TestPlanTaskSizes(t *testing.T) {
	for _, tc := range []struct {
		name            string
		workers         int
		programs, tests int
		want            int // programs in the first task
	}{
		{"check: one hidden test", 4, 60, 1, 3},
		{"check: many samples", 4, 200, 1, 8},
		{"check: few samples", 4, 10, 1, 1},
		{"two tests", 4, 100, 2, 4},
		{"generated tests", 4, 100, 40, 1},
		{"generated tests, many programs", 2, 200, 40, 6},
		{"no more than sixteen", 1, 4000, 1, 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Pool{opts: Options{Workers: tc.workers}}
			tests := make([]int, tc.tests)
			for j := range tests {
				tests[j] = j
			}
			missing := make([][]int, tc.programs)
			for d := range missing {
				missing[d] = tests
			}
			tasks := p.plan(nil, missing)
			if got := len(tasks[0].programs); got != tc.want {
				t.Errorf("first task has %d programs, want %d", got, tc.want)
			}
			n := 0
			for _, tk := range tasks {
				n += len(tk.programs)
			}
			if n != tc.programs {
				t.Errorf("tasks hold %d programs, want %d", n, tc.programs)
			}
		})
	}
}

// TestChainedRequests runs many tasks on one worker, which gets each next
// request while it still runs the one before: every program gets its own
// results, also when a program breaks the sandbox while the next request
// waits in the worker's pipe (it runs on a fresh worker), and requests too
// large for the pipe are sent when the worker is done instead.
func TestChainedRequests(t *testing.T) {
	killer := "import os, signal\ndef f():\n    os.kill(-1, signal.SIGKILL)\n    return 42\n"
	cases := []struct {
		name    string
		pad     int          // bytes of comment per program
		killers map[int]bool // programs that kill every process they see
		ahead   bool         // whether requests go ahead
	}{
		{"small requests", 0, nil, true},
		{"sandbox killed mid-chain", 0, map[int]bool{4: true, 13: true, 22: true}, true},
		{"requests larger than the pipe", 40 << 10, nil, false},
	}
	tests := []Test{{Code: "assert f() == 42", Input: "f()", Expected: "42"}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var progs []string
			for i := 0; i < 30; i++ {
				prog := goodProgram
				if c.killers[i] {
					prog = killer
				}
				progs = append(progs, fmt.Sprintf("%s# %d %s\n", prog, i, strings.Repeat("x", c.pad)))
			}
			p := newTestPool(t, Options{Workers: 1})
			m, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(2 * time.Second)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, row := range m.Results {
				if len(row) == 0 {
					t.Errorf("program %d: no result", i)
					continue
				}
				if r := row[0]; !c.killers[i] && r.Outcome != Pass {
					t.Errorf("program %d: %v %q, want pass", i, r.Outcome, r.Exception)
				}
			}
			if n := p.ahead.Load(); (n > 0) != c.ahead {
				t.Errorf("%d requests went ahead, want some: %v", n, c.ahead)
			}
		})
	}
}

// TestCacheErrorRetiresTheWorker: when storing a result fails, the job ends
// with the error while its worker still has replies to send; that worker
// must not serve the next job (which would read the old job's replies).
func TestCacheErrorRetiresTheWorker(t *testing.T) {
	// batchRows 1: every program's results are written as they arrive, so
	// the cache fails while the worker still has replies to send (the case
	// this guards); by default the Run's last batch fails at its end.
	for _, batchRows := range []int{1, cacheBatchRows} {
		t.Run(fmt.Sprintf("batches of %d", batchRows), func(t *testing.T) {
			p, db := newCachedPool(t, Options{Workers: 1})
			p.opts.Cache.batchRows = batchRows
			job := func(base int) Job {
				j := Job{Tests: []Test{{Code: "assert f() >= 0", Input: "f()", Expected: "0"}}, TimePolicy: Within(2 * time.Second)}
				for i := 0; i < 40; i++ { // tasks of several programs each
					j.Programs = append(j.Programs, fmt.Sprintf("def f():\n    return %d\n", base+i))
				}
				return j
			}
			if _, err := db.Exec(`CREATE TRIGGER full BEFORE INSERT ON exec_results BEGIN SELECT RAISE(ABORT, 'disk full'); END`); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Run(context.Background(), job(0), nil); err == nil || !strings.Contains(err.Error(), "disk full") {
				t.Fatalf("Run with a failing cache: %v, want the cache's error", err)
			}
			if _, err := db.Exec(`DROP TRIGGER full`); err != nil {
				t.Fatal(err)
			}
			m, err := p.Run(context.Background(), job(1000), nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, row := range m.Results {
				if r := row[0]; r.Value != fmt.Sprint(1000+i) {
					t.Errorf("program %d of the next job: %v %q value %q, want value %d", i, r.Outcome, r.Exception, r.Value, 1000+i)
				}
			}
		})
	}
}

// TestCacheSeesUnwrittenResults: a Run that starts while another Run's
// results wait to be written gets those results, not values of its own.
func TestCacheSeesUnwrittenResults(t *testing.T) {
	p, db := newCachedPool(t, Options{Workers: 2})
	job := Job{
		Programs:   []string{"import random\ndef f():\n    return random.random()\n"},
		Tests:      []Test{{Code: "assert f() < 2", Input: "f()", Expected: "2"}},
		TimePolicy: Within(time.Second),
	}
	var (
		inner    *Matrix
		innerErr error
		written  = -1
	)
	outer, err := p.Run(context.Background(), job, func(int, []Result) {
		if err := db.QueryRow(`SELECT count(*) FROM exec_results`).Scan(&written); err != nil {
			t.Error(err)
		}
		inner, innerErr = p.Run(context.Background(), job, nil)
	})
	if err != nil || innerErr != nil {
		t.Fatal(err, innerErr)
	}
	if written != 0 {
		t.Fatalf("%d cache rows while the first Run was still going, want 0 (not written yet)", written)
	}
	if a, b := outer.Results[0][0], inner.Results[0][0]; !a.HasValue || a.Value != b.Value {
		t.Errorf("second Run computed its own value: %q, first Run %q", b.Value, a.Value)
	}
}

// TestCacheBatches: a Run's results reach the cache in batches, all of
// them, also those of a Run cancelled halfway.
func TestCacheBatches(t *testing.T) {
	job := func(base, n int) Job {
		j := Job{Tests: []Test{
			{Code: "assert f() >= 0", Input: "f()", Expected: "0"},
			{Code: "assert f() != 7", Input: "f()", Expected: "7"},
		}, TimePolicy: Within(2 * time.Second)}
		for i := 0; i < n; i++ {
			j.Programs = append(j.Programs, fmt.Sprintf("def f():\n    return %d\n", base+i))
		}
		return j
	}
	count := func(t *testing.T, db *sql.DB) int {
		t.Helper()
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM exec_results`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, batchRows := range []int{3, cacheBatchRows} {
		t.Run(fmt.Sprintf("batches of %d", batchRows), func(t *testing.T) {
			p, db := newCachedPool(t, Options{Workers: 2})
			p.opts.Cache.batchRows = batchRows
			if _, err := p.Run(context.Background(), job(0, 25), nil); err != nil {
				t.Fatal(err)
			}
			if got := count(t, db); got != 50 {
				t.Errorf("cache rows after a Run of 25 programs × 2 tests = %d, want 50", got)
			}

			// Cancelled after ten programs have reported their rows: those
			// rows are in the cache when Run returns.
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			reported := 0
			_, err := p.Run(ctx, job(1000, 400), func(int, []Result) {
				mu.Lock()
				defer mu.Unlock()
				if reported++; reported == 10 {
					cancel()
				}
			})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled Run: %v, want context.Canceled", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if got := count(t, db) - 50; got < 2*reported || reported < 10 {
				t.Errorf("cancelled Run: %d programs reported, %d cache rows, want 2 per program", reported, got)
			}
		})
	}
}
