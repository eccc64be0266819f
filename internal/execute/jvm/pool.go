package jvm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/sandbox"
)

// Pool runs Java programs on long-lived sandboxed JVM workers (see
// jworker/ticoder/jworker/Worker.java): each compiles a program in memory
// with javax.tools and runs each test in a thread of its own, in a fresh
// class loader, with its own time limit. A JVM that dies, hangs or is left
// with a thread it cannot stop is killed and replaced; the test it was
// running is reported (crash or timeout) and the program's other tests run
// on the fresh JVM, so no other result is lost.
//
// Tests: a Test with Input is a value test (Input is a Java expression
// calling the program, Expected an expression or empty; the value is
// rendered as plain data and compared by the worker's Values.equal, never by
// the program's own equals). Any other Test's Code is Java source that
// declares a class with a static main(String[]); the test passes when main
// returns, fails when it throws AssertionError or java.lang.Exception
// (MBJP's tests), and errs on any other exception.
//
// Tests are compiled apart from the program, against its class files, with
// java.io, java.lang, java.util and java.math imported on demand (MBJP's
// imports): they see the program's classes they call, but none of its types
// that is named like a package's first segment or a type of those packages
// (one such would obscure or shadow what the tests mean: a class ticoder or
// Arrays). Where the program imports nothing but those packages (or types
// of theirs) and declares no such type, program and tests are first
// compiled as one unit, to the same effect and for one javac run less.
//
// Job.AllowObjects and TimePolicy's degrade and skip rules are not applied
// (see execute.DriverPool): values are always compared as plain data, and
// every test runs with its full limit. A Pool is safe for concurrent use;
// Close it when done.
type Pool struct {
	*execute.DriverPool
	drv *driver
}

var _ execute.Executor = (*Pool)(nil)

// driver is the execute.Driver of the JVM workers.
type driver struct {
	spec    jvmSpec
	workers int
	version string
	slots   chan *jvmWorker // one entry per JVM; nil means "not started"
	once    sync.Once
}

// Start is the execute.Starter of Java's programs: a Pool without a
// project.
func Start(ctx context.Context, opts execute.Options) (execute.Executor, error) {
	p, err := NewPool(ctx, opts)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// NewPool checks that the sandbox and a JDK 17+ are available, compiles
// the JVM worker (once per version; kept in the user's cache directory) and
// returns a pool. Workers start lazily. opts.Limits.Memory sets the JVM's
// heap (half of it, at least 128 MiB).
func NewPool(ctx context.Context, opts execute.Options) (*Pool, error) {
	return NewProjectPool(ctx, opts, nil)
}

// NewProjectPool is NewPool for programs that run inside project (none
// when nil); opts.Sandbox must then show the project.
func NewProjectPool(ctx context.Context, opts execute.Options, project *Project) (*Pool, error) {
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.Sandbox.Unsafe {
		return nil, errors.New("java: --unsafe-no-sandbox is not supported for Java")
	}
	if project != nil {
		for _, p := range project.Classpath {
			if !filepath.IsAbs(p) || strings.ContainsAny(p, ":,") {
				return nil, fmt.Errorf("java class path entry %q: want an absolute path without ':' or ','", p)
			}
		}
	}
	if err := sandbox.Available(); err != nil {
		return nil, err
	}
	home, err := sandbox.JavaHome()
	if err != nil {
		return nil, err
	}
	jar, version, err := workerJar(ctx, home)
	if err != nil {
		return nil, err
	}
	if project != nil {
		version += "\x00" + project.Fingerprint + "\x00" + strings.Join(project.Imports, ",")
	}
	d := &driver{spec: newSpec(opts, home, jar, project), workers: opts.Workers, version: version,
		slots: make(chan *jvmWorker, opts.Workers)}
	slog.Debug("execute: java pool", "java_home", home, "heap_mib", d.spec.heapMiB, "isolation", d.spec.cgroups.String())
	for i := 0; i < opts.Workers; i++ {
		d.slots <- nil
	}
	return &Pool{DriverPool: execute.NewDriverPool(d, opts.Cache), drv: d}, nil
}

// newSpec returns what the JVMs of a pool with opts start with.
func newSpec(opts execute.Options, home string, jar []byte, project *Project) jvmSpec {
	mem := opts.Limits.Memory
	if mem == 0 {
		mem = 1 << 30
	}
	heap := max(mem/2>>20, 128)
	procs := opts.Limits.Processes
	if procs == 0 {
		procs = 32
	}
	worker := opts.Limits.WorkerMemory
	if worker == 0 {
		worker = heap<<20 + 768<<20
	}
	return jvmSpec{home: home, jar: jar, heapMiB: heap, cgroups: sandbox.NewCgroups(opts.Cgroups, nil), cfg: opts.Sandbox, project: project,
		limits:       sandbox.CgroupLimits{Memory: worker, Processes: procs + 48},
		addressSpace: uint64(heap<<20) + 3<<30}
}

// Project is a Java project whose classes programs run with: the
// program is one of the project's classes (under its package) with a
// method replaced, compiled against the project's compiled classes and
// jars, and loaded, with the project's classes it uses, in a fresh class
// loader for each test; the tests import Imports.
type Project struct {
	// Classpath lists the project's class directories and jars, absolute
	// paths without ':' that the sandbox shows (inside the project's view,
	// or listed in Outside).
	Classpath []string
	// Outside lists the entries of Classpath outside the project's
	// directory, shown read-only as they are.
	Outside []string
	// Imports are the classes every unit of tests imports (the class under
	// test, e.g. com.shop.Pricing).
	Imports []string
	// Fingerprint changes when anything the programs' results depend on
	// besides their code does (see project.Project.Fingerprint); it is part
	// of every cache key.
	Fingerprint string
}

// properties are the JVM's -D options that tell the worker (and the JUnit
// check) about the project.
func (jp *Project) properties() []string {
	if jp == nil {
		return nil
	}
	return []string{"-Dticoder.classpath=" + strings.Join(jp.Classpath, ":"), "-Dticoder.imports=" + strings.Join(jp.Imports, ",")}
}

// readOnly returns the host files and directories the sandbox shows for
// the project besides its view.
func (jp *Project) readOnly() []string {
	if jp == nil {
		return nil
	}
	return jp.Outside
}

// Language returns "java".
func (d *driver) Language() string { return "java" }

// Version returns the hash of the worker's sources and JDK, and the
// project's fingerprint and imports.
func (d *driver) Version() string { return d.version }

// Workers returns the number of JVMs.
func (d *driver) Workers() int { return d.workers }

// Close stops every JVM and removes their cgroups.
func (d *driver) Close() error {
	var err error
	d.once.Do(func() {
		for i := 0; i < d.workers; i++ {
			if w := <-d.slots; w != nil {
				w.kill()
			}
		}
		if err = d.spec.cgroups.Close(); err != nil {
			err = fmt.Errorf("close java pool: %w", err)
		}
	})
	return err
}

// mainClass finds the class whose static main a test runs.
var mainClass = regexp.MustCompile(`class\s+([A-Za-z_$][A-Za-z0-9_$]*)[^{]*\{(?s:.*?)static\s+void\s+main\s*\(`)

// javaTests translates tests for the worker.
func javaTests(tests []execute.Test, limits []time.Duration) ([]javaTest, error) {
	out := make([]javaTest, len(tests))
	for j, t := range tests {
		if t.Input != "" {
			out[j] = javaTest{kind: 'V', source: t.Setup, name: t.Input, expected: t.Expected, timeout: limits[j].Seconds()}
			continue
		}
		src := t.String()
		m := mainClass.FindAllStringSubmatch(src, -1)
		if len(m) == 0 {
			return nil, fmt.Errorf("java test %d: no class with a static main(String[]) and no call expression", j)
		}
		out[j] = javaTest{kind: 'M', source: src, name: m[len(m)-1][1], timeout: limits[j].Seconds()}
	}
	return out, nil
}

// Prepare translates the tests for the worker and returns what runs them
// on one program.
func (d *driver) Prepare(tests []execute.Test, limits []time.Duration) (execute.RunProgram, error) {
	jt, err := javaTests(tests, limits)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, program string, todo []int, row []execute.Result) (map[int]execute.Result, error) {
		return d.runProgram(ctx, program, todo, jt, row)
	}, nil
}

// compileBudget bounds compiling one program in a JVM (javac on a
// pathological program) before its first result is due.
const compileBudget = 20 * time.Second

// maxJVMStarts bounds the JVMs one program may use up (each one it kills or
// leaves dirty costs a restart) before its remaining tests are crashes.
const maxJVMStarts = 6

// runProgram runs the tests todo of program, restarting the JVM as often
// as the program breaks it, and returns the results that may be cached.
//
// A test whose JVM died under it (a crash) runs once more on a fresh JVM
// before the crash is reported: the JVM may have been spoilt by an earlier
// program in a way the worker cannot see (a system thread suspended), and
// a program that kills the JVM itself does so again.
func (d *driver) runProgram(ctx context.Context, program string, todo []int, tests []javaTest, row []execute.Result) (map[int]execute.Result, error) {
	fresh := map[int]execute.Result{}
	retried := map[int]bool{}
	for starts := 0; len(todo) > 0; starts++ {
		if starts == maxJVMStarts {
			for _, j := range todo {
				row[j] = execute.Result{Outcome: execute.Crash, Exception: "the program broke the JVM worker repeatedly"}
			}
			break
		}
		done, err := d.runOnce(ctx, program, todo, tests, row, fresh)
		if err != nil {
			return nil, err
		}
		if last := done - 1; done > 0 && row[todo[last]].Outcome == execute.Crash && !retried[todo[last]] {
			retried[todo[last]] = true
			done-- // once more, on the fresh JVM
		}
		todo = todo[done:]
	}
	return fresh, nil
}

// take takes a JVM's slot: its JVM if it still runs, else (an empty slot,
// or one whose JVM exited) a new one. On error the slot goes back empty.
func (d *driver) take(ctx context.Context) (*jvmWorker, error) {
	var w *jvmWorker
	select {
	case w = <-d.slots:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if w != nil {
		select {
		case <-w.done:
			w.kill()
			w = nil
		default:
		}
	}
	if w == nil {
		var err error
		if w, err = startJVM(&d.spec); err != nil {
			d.slots <- nil
			return nil, err
		}
	}
	return w, nil
}

// runOnce sends the tests todo to one JVM and returns how many of them got
// a result. A JVM that fails is killed: the test it was running is a crash
// (or a timeout if its limit had passed) and counts as done.
func (d *driver) runOnce(ctx context.Context, program string, todo []int, tests []javaTest, row []execute.Result, fresh map[int]execute.Result) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	w, err := d.take(ctx)
	if err != nil {
		return 0, err
	}
	broken := true
	defer func() {
		if broken {
			w.kill()
			w = nil
		}
		d.slots <- w
	}()
	batch := make([]javaTest, len(todo))
	for k, j := range todo {
		batch[k] = tests[j]
	}
	if err := w.send(program, batch); err != nil {
		return 0, nil // a fresh JVM gets them all
	}
	defer execute.CancelReads(ctx, w.out)()
	budget := compileBudget
	for k := range todo {
		limit := time.Duration(batch[k].timeout * float64(time.Second))
		start := time.Now()
		r, err := w.recv(ctx, start.Add(budget+limit+2*time.Second))
		budget = 0
		if ctx.Err() != nil {
			return k, ctx.Err()
		}
		if err == nil && r.typ == 'D' {
			// The JVM was left with a thread it could not stop after the
			// previous test and retires: the rest runs on a fresh one.
			return k, nil
		}
		if err != nil || r.index != k {
			why := clipErr(err, w)
			res := execute.Result{Outcome: execute.Crash, Exception: why}
			if time.Since(start) >= limit {
				res = execute.Result{Outcome: execute.Timeout}
			}
			row[todo[k]] = res
			if res.Outcome == execute.Timeout {
				fresh[todo[k]] = res
			}
			return k + 1, nil
		}
		row[todo[k]] = r.result
		if r.result.Outcome != execute.Crash {
			fresh[todo[k]] = r.result
		}
	}
	r, err := w.recv(ctx, time.Now().Add(10*time.Second))
	broken = err != nil || r.typ != 'D' || r.dirty
	return len(todo), nil
}

// clipErr describes why a JVM failed, with the start of its stderr.
func clipErr(err error, w *jvmWorker) string {
	why := "bad reply"
	if err != nil {
		why = err.Error()
	}
	select {
	case <-w.done:
		code := w.cmd.ProcessState.ExitCode()
		why = fmt.Sprintf("the JVM exited with status %d (System.exit, Runtime.halt", code)
		if code == 3 {
			why += ", or out of memory"
		}
		why += ")"
	case <-time.After(200 * time.Millisecond):
	}
	if s := w.err.String(); s != "" {
		if len(s) > 300 {
			s = s[:300]
		}
		why += ": " + s
	}
	return why
}
