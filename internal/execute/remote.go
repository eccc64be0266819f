package execute

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/ticoder/ticoder/internal/clip"
)

// Executor is the one interface through which ticoder runs untrusted code:
// test and call matrices, extraction, check, qe and the interactive
// sessions all take one. A *Pool runs the work on this machine; a *Remote
// hands it to a Dispatcher (ticoder workers pulling jobs from NATS) and
// keeps the cache, the deduplication and the per-row callbacks here.
type Executor interface {
	Runner
	// Close releases the executor's workers or connections.
	Close() error
}

var (
	_ Executor = (*Pool)(nil)
	_ Executor = (*Remote)(nil)
)

// Batch is a piece of a job sent to run elsewhere: distinct programs and
// the tests none of them has a cached result for, each test with its own
// limit (Job.TimePolicy.Timeouts is always set).
type Batch struct {
	// ID is the batch's content address: the execution cache's hashes of
	// its programs and tests with their limits, and its options. Equal
	// batches have equal IDs, so a queue can drop duplicates by it.
	ID string
	// Job is the work itself.
	Job Job
}

// Dispatcher runs batches and calls somewhere else.
type Dispatcher interface {
	// Dispatch runs b and returns one row per program of b.Job, each row one
	// result per test. Rows come from another process: Remote checks their
	// shape and bounds their text again before using them.
	Dispatch(ctx context.Context, b Batch) ([][]Result, error)
	// Call is Runner.Call, run elsewhere.
	Call(ctx context.Context, source, function string, arg, result any) error
	// Close releases the dispatcher's connections.
	Close() error
}

// RemoteOptions configure a Remote.
type RemoteOptions struct {
	// Dispatcher runs the batches.
	Dispatcher Dispatcher
	// Cache, if not nil, stores every result so nothing runs twice.
	Cache *Cache
	// BatchPrograms caps the programs of one batch (default 16).
	BatchPrograms int
	// BatchBytes caps the program and test source of one batch (default 256 KiB).
	BatchBytes int
	// Parallel caps the batches of one Run in flight at once (default 64).
	Parallel int
}

// Remote is an Executor that runs work through a Dispatcher. Like a Pool it
// runs identical programs once, takes what it can from the cache, stores new
// results and calls back once per program row; unlike a Pool it needs no
// sandbox on this machine.
type Remote struct {
	opts RemoteOptions
}

// NewRemote returns a Remote over opts.Dispatcher.
func NewRemote(opts RemoteOptions) *Remote {
	if opts.BatchPrograms <= 0 {
		opts.BatchPrograms = 16
	}
	if opts.BatchBytes <= 0 {
		opts.BatchBytes = 256 << 10
	}
	if opts.Parallel <= 0 {
		opts.Parallel = 64
	}
	return &Remote{opts: opts}
}

// Close closes the dispatcher.
func (r *Remote) Close() error { return r.opts.Dispatcher.Close() }

// Call runs function(arg) from source through the dispatcher.
func (r *Remote) Call(ctx context.Context, source, function string, arg, result any) error {
	return r.opts.Dispatcher.Call(ctx, source, function, arg, result)
}

// Run runs every test of job on every program, as Pool.Run does, with the
// work done by the dispatcher.
func (r *Remote) Run(ctx context.Context, job Job, each func(program int, results []Result)) (*Matrix, error) {
	st, err := newRunState(job, each)
	if err != nil {
		return nil, err
	}
	st.keys = newCacheKeys(st.distinct, job.Tests, st.timeouts, job.AllowObjects)
	rows := make([][]Result, len(st.distinct))
	missing, err := fromCache(ctx, r.opts.Cache, st, rows)
	if err != nil {
		return nil, err
	}
	batches := r.plan(st, missing)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
		sem      = make(chan struct{}, r.opts.Parallel)
	)
	for _, b := range batches {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func(b remoteBatch) {
			defer wg.Done()
			defer func() { <-sem }()
			if err := r.runBatch(ctx, st, b, rows); err != nil {
				errOnce.Do(func() { firstErr = err; cancel() })
			}
		}(b)
	}
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	if err := st.saveRest(ctx, firstErr); err != nil {
		return nil, err
	}
	return st.matrix, nil
}

// remoteBatch is a batch with the indexes it covers.
type remoteBatch struct {
	Batch
	programs []int // distinct programs
	tests    []int // indexes into job.Tests
}

// plan groups the programs that miss the same tests and cuts each group
// into batches of at most BatchPrograms programs and about BatchBytes of
// source.
func (r *Remote) plan(st *runState, missing [][]int) []remoteBatch {
	groups := map[string][]int{}
	var order []string
	for d, m := range missing {
		if len(m) == 0 {
			continue
		}
		k := fmt.Sprint(m)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], d)
	}
	var out []remoteBatch
	for _, k := range order {
		progs := groups[k]
		tests := missing[progs[0]]
		testBytes := 0
		for _, j := range tests {
			t := st.job.Tests[j]
			testBytes += len(t.Setup) + len(t.Code) + len(t.Input) + len(t.Expected) + len(t.Entry)
		}
		var cur []int
		size := testBytes
		for _, d := range progs {
			if len(cur) > 0 && (len(cur) == r.opts.BatchPrograms || size+len(st.distinct[d]) > r.opts.BatchBytes) {
				out = append(out, r.batch(st, cur, tests))
				cur, size = nil, testBytes
			}
			cur = append(cur, d)
			size += len(st.distinct[d])
		}
		out = append(out, r.batch(st, cur, tests))
	}
	return out
}

// batch builds the batch of distinct programs progs on tests.
func (r *Remote) batch(st *runState, progs, tests []int) remoteBatch {
	job := Job{
		Tests: make([]Test, len(tests)),
		TimePolicy: TimePolicy{
			Timeouts:     make([]time.Duration, len(tests)),
			DegradeAfter: st.job.DegradeAfter,
			DegradeLimit: st.job.DegradeLimit,
			SkipAfter:    st.job.SkipAfter,
			SkipFrom:     st.job.SkipFromIn(tests), // tests ascend: the batch's tail from SkipFrom
		},
		AllowObjects: st.job.AllowObjects,
	}
	parts := []string{"batch-v1"}
	for _, d := range progs {
		job.Programs = append(job.Programs, st.distinct[d])
		parts = append(parts, hex.EncodeToString(st.keys.programs[d]))
	}
	parts = append(parts, "tests")
	for i, j := range tests {
		job.Tests[i] = st.job.Tests[j]
		job.Timeouts[i] = time.Duration(st.timeouts[j] * float64(time.Second))
		parts = append(parts, fmt.Sprintf("%x/%d", st.keys.tests[j], st.keys.ms[j]))
	}
	// Everything but the programs, tests and limits hashed above (so a field
	// added to Job later changes the address too).
	opts := job
	opts.Programs, opts.Tests, opts.Timeouts = nil, nil, nil
	js, _ := json.Marshal(opts) // a Job always encodes
	parts = append(parts, string(js))
	h := hashOf(parts...)
	return remoteBatch{Batch: Batch{ID: hex.EncodeToString(h[:]), Job: job}, programs: progs, tests: tests}
}

// runBatch dispatches one batch, checks what comes back, stores it and
// publishes the rows.
func (r *Remote) runBatch(ctx context.Context, st *runState, b remoteBatch, rows [][]Result) error {
	got, err := r.opts.Dispatcher.Dispatch(ctx, b.Batch)
	if err != nil {
		return fmt.Errorf("run batch %.12s: %w", b.ID, err)
	}
	if err := CheckRows(got, len(b.programs), len(b.tests)); err != nil {
		return fmt.Errorf("run batch %.12s: %w", b.ID, err)
	}
	for i, d := range b.programs {
		fresh := make(map[int]Result, len(b.tests))
		for k, j := range b.tests {
			res := Sanitize(got[i][k])
			rows[d][j] = res
			fresh[j] = res
		}
		if err := st.save(ctx, d, fresh); err != nil {
			return err
		}
	}
	// The batch's results, written in one transaction before they are
	// published.
	if err := st.writeSaved(ctx); err != nil {
		return err
	}
	for _, d := range b.programs {
		st.finish(d, rows[d])
	}
	return nil
}

// CheckRows reports whether rows has the shape of a batch's results:
// programs rows of tests results each, every outcome known.
func CheckRows(rows [][]Result, programs, tests int) error {
	if len(rows) != programs {
		return fmt.Errorf("%d result rows for %d programs", len(rows), programs)
	}
	for i, row := range rows {
		if len(row) != tests {
			return fmt.Errorf("row %d has %d results for %d tests", i, len(row), tests)
		}
		for _, res := range row {
			if int(res.Outcome) >= len(outcomeNames) {
				return fmt.Errorf("row %d: unknown outcome %d", i, res.Outcome)
			}
		}
	}
	return nil
}

// Sanitize bounds a result that came from another process as the engine
// bounds the harness's: exception and value text capped, seconds finite and
// non-negative.
func Sanitize(r Result) Result {
	r.Exception = clip.Text(r.Exception, maxExceptionBytes)
	r.Value = clip.Text(r.Value, maxValueBytes)
	if r.Seconds < 0 || r.Seconds > 1e6 || math.IsNaN(r.Seconds) {
		r.Seconds = 0
	}
	return r
}

// WorkerCrash is the start of the Exception of a crash that a dying worker
// caused (not cached, since it is not a property of the program and test
// alone). Dispatchers report a job that killed its workers with it.
const WorkerCrash = "sandbox worker"
