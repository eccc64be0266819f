package execute

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ticoder/ticoder/internal/sandbox"
)

// errWorkerDead means the worker process is gone or stopped answering; the
// request it was serving must be retried elsewhere or reported as a crash.
var errWorkerDead = errors.New("sandbox worker died")

// maxFrame bounds one reply from a worker.
const maxFrame = 512 << 20

// worker is one long-lived sandboxed Python process running the Python
// worker, the package pyworker/ (see bootstrap). It serves one request at
// a time; it is not safe for concurrent use.
type worker struct {
	cmd  *exec.Cmd
	req  *os.File        // fd 3 inside: requests
	resp *os.File        // fd 4 inside: replies
	rd   *bufio.Reader   // buffered resp
	done chan struct{}   // closed when the process has exited
	cg   *sandbox.Cgroup // the sandbox's own cgroup; nil without cgroups
	// pipeCap is the capacity of the request pipe in bytes: a request that
	// fits can be written while the worker is busy, without waiting for it.
	pipeCap int
	// suites follows which suites the worker keeps (see Suite).
	suites suiteMirror
}

// startWorker starts a worker in a sandbox of its own (with cfg.Args, or
// the default worker arguments when empty: see workerArgs), placed in a new
// cgroup of cgs with the bounds lim when cgs is active, and on a CPU of
// cpus when cpus places workers.
func startWorker(cfg sandbox.Config, cgs *sandbox.Cgroups, lim sandbox.CgroupLimits, cpus *cpuPlacer) (*worker, error) {
	// -s -P is -I without -E: no user site directory, no script directory
	// on sys.path, but the environment is read — it is ticoder's own,
	// scrubbed one, whose PYTHONHASHSEED=0 makes str hashes, and so set
	// and dict orders, the same in every worker and every run (under -I
	// each worker drew its own seed, and a candidate returning
	// list(set(xs)) could pass in one run and fail in the next).
	if len(cfg.Args) == 0 {
		cfg.Args = []string{"-s", "-P", "-c", bootstrap}
	}
	cfg.CPUs = cpus.take()
	// The CPU is given back once the process has exited, or here if it
	// never starts.
	started := false
	defer func() {
		if !started {
			cpus.put(cfg.CPUs)
		}
	}()
	cmd, err := sandbox.Command(cfg)
	if err != nil {
		return nil, err
	}
	cg, err := cgs.New(lim)
	if err != nil {
		return nil, fmt.Errorf("start worker: %w", err)
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		_ = cg.Close()
		return nil, fmt.Errorf("start worker: %w", err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		_ = cg.Close()
		return nil, fmt.Errorf("start worker: %w", err)
	}
	cmd.ExtraFiles = []*os.File{reqR, respW}
	stderr := &capWriter{max: 8 << 10}
	cmd.Stderr = stderr
	if err := cg.Start(cmd); err != nil {
		reqR.Close()
		reqW.Close()
		respR.Close()
		respW.Close()
		_ = cg.Close()
		return nil, fmt.Errorf("start worker: %w", err)
	}
	started = true
	reqR.Close()
	respW.Close()
	w := &worker{cmd: cmd, req: reqW, resp: respR, rd: bufio.NewReaderSize(respR, 1<<16), done: make(chan struct{}), cg: cg,
		pipeCap: pipeCapacity(reqW)}
	go func() {
		_ = cmd.Wait()
		cpus.put(cfg.CPUs)
		close(w.done)
	}()
	if err := w.boot(stderr); err != nil {
		w.kill()
		return nil, err
	}
	return w, nil
}

// pipeCapacity returns the capacity of pipe f in bytes, or 0 if unknown
// (the kernel gives a pipe as little as one page when its user holds many).
func pipeCapacity(f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	_ = rc.Control(func(fd uintptr) {
		if c, err := unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0); err == nil {
			n = c
		}
	})
	return n
}

// send writes one request frame.
func (w *worker) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	return w.sendRaw(b)
}

// sendRaw writes b as one frame.
func (w *worker) sendRaw(b []byte) error {
	frame := make([]byte, 4+len(b))
	binary.BigEndian.PutUint32(frame, uint32(len(b)))
	copy(frame[4:], b)
	if _, err := w.req.Write(frame); err != nil {
		return fmt.Errorf("%w: %v", errWorkerDead, err)
	}
	return nil
}

// recv reads one reply frame into v, waiting until deadline at the latest,
// or not at all once ctx is done.
func (w *worker) recv(ctx context.Context, deadline time.Time, v any) error {
	if err := armDeadline(ctx, w.resp, deadline); err != nil {
		return fmt.Errorf("%w: %v", errWorkerDead, err)
	}
	var hdr [4]byte
	if _, err := io.ReadFull(w.rd, hdr[:]); err != nil {
		return fmt.Errorf("%w: %v", errWorkerDead, err)
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxFrame {
		return fmt.Errorf("%w: reply of %d bytes", errWorkerDead, n)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(w.rd, buf); err != nil {
		return fmt.Errorf("%w: %v", errWorkerDead, err)
	}
	if err := json.Unmarshal(buf, v); err != nil {
		return fmt.Errorf("%w: garbled reply: %v", errWorkerDead, err)
	}
	return nil
}

// cancelReads makes reads of f fail once ctx is done (it sets the read
// deadline to now), until stop is called. stop waits for a callback already
// under way, so that it cannot cut short a later read of another request.
// Reads set their deadline with armDeadline.
func cancelReads(ctx context.Context, f *os.File) (stop func()) {
	fired := make(chan struct{})
	s := context.AfterFunc(ctx, func() {
		_ = f.SetReadDeadline(time.Now())
		close(fired)
	})
	return func() {
		if !s() {
			<-fired
		}
	}
}

// armDeadline sets f's read deadline for a read that must also end when
// ctx is done (see cancelReads): when ctx is already done it fails instead,
// so whichever runs first, a cancellation is never overwritten by the
// read's own, later deadline.
func armDeadline(ctx context.Context, f *os.File, deadline time.Time) error {
	if err := f.SetReadDeadline(deadline); err != nil {
		return err
	}
	return ctx.Err()
}

// exited is closed when the worker's process has exited.
func (w *worker) exited() <-chan struct{} { return w.done }

// kill stops the worker and everything inside its sandbox, and removes its
// cgroup.
func (w *worker) kill() {
	if w.cmd.Process != nil {
		_ = w.cmd.Process.Kill()
	}
	<-w.done
	w.req.Close()
	w.resp.Close()
	if err := w.cg.Close(); err != nil {
		slog.Debug("execute: remove worker cgroup", "error", err)
	}
}

// capWriter keeps the first max bytes written to it.
type capWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (c *capWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - len(c.buf); room > 0 {
		if len(p) < room {
			room = len(p)
		}
		c.buf = append(c.buf, p[:room]...)
	}
	return len(p), nil
}

func (c *capWriter) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.buf)
}
