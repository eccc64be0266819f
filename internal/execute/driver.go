package execute

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Driver is what a language whose programs run on workers of its own (not
// on the Python pool) implements, in a package of its own (Java's:
// internal/execute/jvm): long-lived sandboxed worker processes, each of
// which runs one program's tests at a time, and what restarting one costs.
// A DriverPool over it does the rest as Pool does for Python: identical
// programs run once, results come from and go to the Cache, and each row is
// published as it completes. A Driver is safe for concurrent use.
type Driver interface {
	// Language names the programs' language ("java"). With Version it
	// starts the cache key of every program.
	Language() string
	// Version names everything results depend on besides the program, the
	// test and its limit: the worker's code, its toolchain, a project.
	// Results cached under another version are not reused.
	Version() string
	// Workers is the number of programs the driver runs at once.
	Workers() int
	// Prepare checks the tests of a job and returns what runs them on one
	// program, each test j with its limit limits[j]. An error fails the Run.
	Prepare(tests []Test, limits []time.Duration) (RunProgram, error)
	// Close stops every worker.
	Close() error
}

// RunProgram runs the tests todo (indexes into the job's tests) on
// program, sets row[j] for each j of todo, and returns the results that
// may be cached (fresh, by test index: not a crash that a dying worker
// caused). An error (ctx ended, a worker that cannot start) fails the Run.
// It is called from Workers goroutines at once.
type RunProgram func(ctx context.Context, program string, todo []int, row []Result) (fresh map[int]Result, err error)

// Starter starts the Executor of one language's programs with opts'
// Workers, Sandbox, Limits, Cache and Cgroups (the fields for Python's
// workers are not read). internal/lang/langs lists the Starter of every
// language that runs on workers of its own.
type Starter func(ctx context.Context, opts Options) (Executor, error)

// DriverPool runs programs on a Driver's workers: one distinct program per
// worker at a time, each with the tests it has no cached result for. It
// takes from a Job only the programs, the tests and their limits: the
// Driver's language decides how values compare (TimePolicy's degrade and
// skip rules and Job.AllowObjects are not applied). A DriverPool is safe
// for concurrent use; Close it when done.
type DriverPool struct {
	driver Driver
	cache  *Cache
}

var _ Executor = (*DriverPool)(nil)

// NewDriverPool returns a pool over d that keeps its results in cache (none
// if nil).
func NewDriverPool(d Driver, cache *Cache) *DriverPool {
	return &DriverPool{driver: d, cache: cache}
}

// Workers returns the number of the driver's workers.
func (p *DriverPool) Workers() int { return p.driver.Workers() }

// Close stops the driver's workers.
func (p *DriverPool) Close() error { return p.driver.Close() }

// Call is not available: the helpers that ticoder runs through Call are
// Python.
func (p *DriverPool) Call(ctx context.Context, source, function string, arg, result any) error {
	return fmt.Errorf("%s pool: Call runs Python helpers; use a Python pool", p.driver.Language())
}

// Run runs every test of job on every program and returns the matrix; each
// is called once per program as its row completes. Identical programs run
// once; results are cached as a Pool's are, under keys that include the
// driver's language and version, and each program's are written to the
// cache as soon as it is done.
func (p *DriverPool) Run(ctx context.Context, job Job, each func(program int, results []Result)) (*Matrix, error) {
	st, err := newRunState(job, each)
	if err != nil {
		return nil, err
	}
	run, err := p.driver.Prepare(job.Tests, st.limits)
	if err != nil {
		return nil, err
	}
	keyed := make([]string, len(st.distinct))
	for d, prog := range st.distinct {
		keyed[d] = p.driver.Language() + ":" + p.driver.Version() + "\x00" + prog
	}
	st.keys = newCacheKeys(keyed, job.Tests, st.timeouts, false)
	rows := make([][]Result, len(st.distinct))
	missing, err := fromCache(ctx, p.cache, st, rows)
	if err != nil {
		return nil, err
	}
	queue := make(chan int, len(st.distinct))
	for d, m := range missing {
		if len(m) > 0 {
			queue <- d
		}
	}
	close(queue)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	for i := 0; i < min(p.driver.Workers(), len(queue)); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range queue {
				if err := runDistinct(ctx, st, d, missing[d], run, rows[d]); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := st.saveRest(ctx, firstErr); err != nil {
		return nil, err
	}
	return st.matrix, ctx.Err()
}

// runDistinct runs the tests todo of distinct program d with run, writes
// its fresh results to the cache at once (a program is dear to run again)
// and publishes its row.
func runDistinct(ctx context.Context, st *runState, d int, todo []int, run RunProgram, row []Result) error {
	fresh, err := run(ctx, st.distinct[d], todo, row)
	if err != nil {
		return err
	}
	if err := st.save(ctx, d, fresh); err != nil {
		return err
	}
	if err := st.writeSaved(ctx); err != nil {
		return err
	}
	st.finish(d, row)
	return nil
}
