package execute

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ticoder/ticoder/internal/sandbox"
)

// Limits are the resource limits of one candidate's process.
type Limits struct {
	// Memory is the address-space limit in bytes (default 1 GiB).
	Memory int64 `json:"memory"`
	// FileSize is the largest file it may write, in bytes (default 16 MiB).
	FileSize int64 `json:"fsize"`
	// OpenFiles is its file-descriptor limit (default 128).
	OpenFiles int64 `json:"nofile"`
	// Processes limits processes and threads inside the sandbox (RLIMIT_NPROC,
	// counted per sandbox since Linux 5.14; not applied without a sandbox,
	// where it would count the host user's). The default is 32 where a cgroup
	// gives each worker an equal share of the CPU, and 16 where none does
	// (rlimits only), so that a program's busy processes take less from
	// programs on other workers.
	Processes int64 `json:"nproc,omitempty"`
	// WorkerMemory bounds the memory of a worker's whole sandbox — the
	// worker, the candidate's process and everything it starts, and the
	// pages of its /tmp — in bytes, swap included (default Memory + 512 MiB,
	// room for the worker and a full default /tmp). It is applied only
	// where the worker has a memory cgroup (see sandbox.Cgroups); without
	// one a sandbox may use up to about Processes × Memory. Not sent to the
	// harness.
	WorkerMemory int64 `json:"-"`
}

// fallbackProcesses is the default Limits.Processes without a CPU cgroup.
const fallbackProcesses = 16

// workerLimits returns the bounds of one worker's cgroup: WorkerMemory, and
// Processes plus room for the worker itself (pids.max also holds where
// RLIMIT_NPROC is not counted per sandbox, and without a sandbox).
func (l Limits) workerLimits() sandbox.CgroupLimits {
	procs := l.Processes
	if procs == 0 {
		procs = 32
	}
	return sandbox.CgroupLimits{Memory: l.WorkerMemory, Processes: procs + 8}
}

// Options configure a Pool, and a Starter's executor (see Starter for the
// fields it reads).
type Options struct {
	// Workers is the number of sandboxed Python workers (default: one per CPU).
	Workers int
	// Sandbox configures the workers' isolation.
	Sandbox sandbox.Config
	// Limits apply to each candidate's process.
	Limits Limits
	// Cache, if not nil, stores every result so nothing runs twice.
	Cache *Cache
	// Module, when not nil, runs every program as this module of a
	// project (see Module); Sandbox must then show the project.
	Module *Module
	// NoSafePath is set for an interpreter older than Python 3.11, which
	// has no -P flag.
	NoSafePath bool
	// Cgroups selects how workers are isolated from each other (default
	// sandbox.CgroupsAuto: a cgroup per worker where the machine allows one,
	// rlimits alone otherwise; see sandbox.Cgroups).
	Cgroups sandbox.CgroupMode
}

// Pool runs programs and tests on a set of long-lived sandboxed Python
// workers. Workers start lazily and are restarted when they die. A Pool is
// safe for concurrent use; Close it when done.
type Pool struct {
	opts  Options
	slots chan *worker // one entry per worker; nil means "not started"
	once  sync.Once
	// cgroups makes each worker's cgroup; inactive without cgroups.
	cgroups *sandbox.Cgroups
	// cpus places each worker on a CPU; nil leaves that to the kernel.
	cpus *cpuPlacer
	// ahead counts the requests handed to a worker while it was still busy
	// with the one before (see runChain).
	ahead atomic.Int64
}

var _ Runner = (*Pool)(nil)

// NewPool checks that the sandbox works and returns a pool. It fails with a
// message that says what to do when isolation is unavailable.
func NewPool(ctx context.Context, opts Options) (*Pool, error) {
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.Limits.Memory == 0 {
		opts.Limits.Memory = 1 << 30
	}
	if opts.Limits.FileSize == 0 {
		opts.Limits.FileSize = 16 << 20
	}
	if opts.Limits.OpenFiles == 0 {
		opts.Limits.OpenFiles = 128
	}
	if !opts.Sandbox.Unsafe {
		if err := sandbox.Available(); err != nil {
			return nil, err
		}
	}
	cg := sandbox.NewCgroups(opts.Cgroups, nil)
	if opts.Limits.Processes == 0 && !opts.Sandbox.Unsafe {
		opts.Limits.Processes = 32
		if !cg.Bounds("cpu") {
			opts.Limits.Processes = fallbackProcesses
		}
	}
	if opts.Sandbox.Unsafe {
		opts.Limits.Processes = 0
	}
	if opts.Limits.WorkerMemory == 0 {
		opts.Limits.WorkerMemory = opts.Limits.Memory + 512<<20
	}
	var cpus *cpuPlacer
	if !opts.Sandbox.Unsafe {
		cpus = newCPUPlacer(opts.Workers)
	}
	slog.Debug("execute: worker isolation", "isolation", cg.String(), "processes", opts.Limits.Processes,
		"worker_memory", opts.Limits.WorkerMemory, "pinned_to", cpus.String())
	p := &Pool{opts: opts, slots: make(chan *worker, opts.Workers), cgroups: cg, cpus: cpus}
	for i := 0; i < opts.Workers; i++ {
		p.slots <- nil
	}
	return p, nil
}

// Workers returns the number of workers.
func (p *Pool) Workers() int { return p.opts.Workers }

// Close stops every worker and removes their cgroups. Calls in progress
// finish first.
func (p *Pool) Close() error {
	var err error
	p.once.Do(func() {
		for i := 0; i < p.opts.Workers; i++ {
			if w := <-p.slots; w != nil {
				w.kill()
			}
		}
		if err = p.cgroups.Close(); err != nil {
			err = fmt.Errorf("close pool: %w", err)
		}
	})
	return err
}

// acquire takes a worker slot, starting the worker if needed.
func (p *Pool) acquire(ctx context.Context) (*worker, error) {
	return takeSlot(ctx, p.slots, func() (*worker, error) {
		cfg := p.opts.Sandbox
		args, err := workerArgs(p.opts.Module, p.opts.NoSafePath)
		if err != nil {
			return nil, err
		}
		cfg.Args = args
		return startWorker(cfg, p.cgroups, p.opts.Limits.workerLimits(), p.cpus)
	})
}

// slotted is a sandboxed process kept in a pool's slot: the Python worker.
type slotted interface {
	comparable
	exited() <-chan struct{}
	kill()
}

// takeSlot takes a slot of slots: its process if it still runs, else (an
// empty slot, or one whose process exited) a new one from start. On error
// the slot goes back empty.
func takeSlot[W slotted](ctx context.Context, slots chan W, start func() (W, error)) (W, error) {
	var w, none W
	select {
	case w = <-slots:
	case <-ctx.Done():
		return none, ctx.Err()
	}
	if w != none {
		select {
		case <-w.exited():
			w.kill()
			w = none
		default:
		}
	}
	if w == none {
		var err error
		if w, err = start(); err != nil {
			slots <- none
			return none, err
		}
	}
	return w, nil
}

// release returns a worker slot; a broken worker is killed and replaced
// lazily.
func (p *Pool) release(w *worker, broken bool) {
	if broken {
		w.kill()
		w = nil
	}
	p.slots <- w
}

// Call runs function(arg) from source in a sandboxed child (not in the
// worker itself) and decodes its JSON return value into result. The child
// gets the pool's limits and a 60 s wall-clock limit.
func (p *Pool) Call(ctx context.Context, source, function string, arg, result any) error {
	const limit = 60 * time.Second
	w, err := p.acquire(ctx)
	if err != nil {
		return err
	}
	req := callRequest{Op: opCall, Source: source, Function: function, Arg: arg,
		Timeout: limit.Seconds(), Limits: p.opts.Limits}
	if err := w.send(req); err != nil {
		p.release(w, true)
		return err
	}
	var reply callReply
	err = w.recvCtx(ctx, time.Now().Add(limit+10*time.Second), &reply)
	p.release(w, err != nil)
	if err != nil {
		return fmt.Errorf("python %s: %w", function, err)
	}
	if !reply.OK {
		return fmt.Errorf("python %s: %s", function, reply.Error)
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(reply.Result, result); err != nil {
		return fmt.Errorf("python %s: decode result: %w", function, err)
	}
	return nil
}

// recvCtx is recv that also gives up when ctx is done (the worker is then
// killed by the caller's release).
func (w *worker) recvCtx(ctx context.Context, deadline time.Time, v any) error {
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	defer cancelReads(ctx, w.resp)()
	err := w.recv(ctx, deadline, v)
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// hashOf returns a content hash used as a cache key.
func hashOf(parts ...string) [sha256.Size]byte {
	h := sha256.New()
	for _, s := range parts {
		fmt.Fprintf(h, "%d:", len(s))
		h.Write([]byte(s))
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}
