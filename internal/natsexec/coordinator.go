package natsexec

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/ticoder/ticoder/internal/execute"
)

// CoordinatorOptions configure a Coordinator.
type CoordinatorOptions struct {
	// Settings are the queue's rules; the coordinator creates the streams
	// with them if they do not exist.
	Settings Settings
	// Recheck is how often a waiting job looks for its result on the
	// results stream, in case a message was missed (default 15 s).
	Recheck time.Duration
	// Retries is how often a job whose result was malformed or not signed
	// by a trusted worker is queued again before the run fails (default 2).
	Retries int
	// Trust holds the public keys of the workers whose results are
	// accepted; NewCoordinator refuses an empty one (ErrNoTrust).
	Trust Trust
}

// Coordinator is an execute.Dispatcher that runs batches and calls on
// ticoder workers through NATS JetStream.
type Coordinator struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	results jetstream.Stream
	opts    CoordinatorOptions
	cc      jetstream.ConsumeContext
	status  *nats.Subscription

	mu      sync.Mutex
	waiters map[string][]*waiter
	workers map[string]workerSeen
}

var _ execute.Dispatcher = (*Coordinator)(nil)

// workerSeen is the last status of a worker and when it came.
type workerSeen struct {
	WorkerStatus
	at time.Time
}

// waiter collects the parts of one result.
type waiter struct {
	// digest is the SHA-256 of the job message queued; every part must be
	// signed for it.
	digest [32]byte
	parts  map[int]*resultMsg
	done   chan struct{}
	// bad holds the reason a part was refused; set with done closed.
	bad error
}

// NewCoordinator sets up the streams on nc and starts listening for results
// and worker status. Close stops it (not nc). It accepts only results signed
// by a key in o.Trust, and fails with ErrNoTrust if there is none.
func NewCoordinator(ctx context.Context, nc *nats.Conn, o CoordinatorOptions) (*Coordinator, error) {
	if o.Trust.Len() == 0 {
		return nil, fmt.Errorf("nats: %w: the coordinator would accept no result; trust the public key of each worker", ErrNoTrust)
	}
	o.Settings = o.Settings.withDefaults()
	if o.Recheck <= 0 {
		o.Recheck = 15 * time.Second
	}
	if o.Retries <= 0 {
		o.Retries = 2
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("nats: %w", err)
	}
	_, results, err := ensureStreams(ctx, js, o.Settings)
	if err != nil {
		return nil, err
	}
	c := &Coordinator{nc: nc, js: js, results: results, opts: o, waiters: map[string][]*waiter{}, workers: map[string]workerSeen{}}
	cons, err := results.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{resultsPrefix + ">"},
		DeliverPolicy:  jetstream.DeliverNewPolicy,
	})
	if err != nil {
		return nil, fmt.Errorf("nats: listen for results: %w", err)
	}
	if c.cc, err = cons.Consume(func(m jetstream.Msg) { c.receive(m.Subject(), m.Data()) }); err != nil {
		return nil, fmt.Errorf("nats: listen for results: %w", err)
	}
	if c.status, err = nc.Subscribe(StatusSubject, c.workerStatus); err != nil {
		c.cc.Stop()
		return nil, fmt.Errorf("nats: listen for workers: %w", err)
	}
	return c, nil
}

// Close stops listening. It does not close the connection.
func (c *Coordinator) Close() error {
	c.cc.Stop()
	if err := c.status.Unsubscribe(); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
		return fmt.Errorf("nats: %w", err)
	}
	return nil
}

// Workers returns the workers heard from in the last three status periods,
// by ID.
func (c *Coordinator) Workers() []WorkerStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []WorkerStatus
	for _, w := range c.workers {
		if time.Since(w.at) < 6*time.Second && w.State != "down" {
			out = append(out, w.WorkerStatus)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Waiting returns how many jobs this coordinator has queued and still
// waits for: a count kept here, not one the workers report, so it is
// right between their status reports.
func (c *Coordinator) Waiting() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// workerStatus records a worker's status report and logs joins and leaves.
func (c *Coordinator) workerStatus(m *nats.Msg) {
	var s WorkerStatus
	if len(m.Data) > 4096 || json.Unmarshal(m.Data, &s) != nil || s.ID == "" || len(s.ID) > 200 {
		return
	}
	c.mu.Lock()
	prev, known := c.workers[s.ID]
	c.workers[s.ID] = workerSeen{WorkerStatus: s, at: time.Now()}
	if len(c.workers) > 10000 { // forget long-gone workers
		for id, w := range c.workers {
			if time.Since(w.at) > time.Minute {
				delete(c.workers, id)
			}
		}
	}
	c.mu.Unlock()
	switch {
	case s.State == "down":
		slog.Info("nats: worker left", "worker", s.ID, "jobs done", s.Done, "workers", len(c.Workers()))
	case !known || prev.State == "down" || time.Since(prev.at) > 6*time.Second:
		slog.Info("nats: worker joined", "worker", s.ID, "sandboxes", s.Sandboxes, "workers", len(c.Workers()))
	case s.State != prev.State:
		slog.Info("nats: worker "+s.State, "worker", s.ID)
	}
}

// receive checks a result part against each job waiting for it and hands
// it over. A part that is malformed or not signed by a trusted worker for
// that job fails the wait, so the job is queued again under a new key; it
// is never used.
func (c *Coordinator) receive(subj string, data []byte) {
	key, _, ok := parseResultSubject(subj)
	if !ok {
		slog.Warn("nats: result on an unexpected subject ignored", "subject", subj)
		return
	}
	c.mu.Lock()
	ws := append([]*waiter(nil), c.waiters[key]...)
	c.mu.Unlock()
	for _, w := range ws {
		m, err := openResult(c.opts.Trust, w.digest, subj, data)
		c.mu.Lock()
		if err != nil {
			w.fail(err)
		} else {
			w.add(m)
		}
		c.mu.Unlock()
		if err != nil {
			slog.Warn("nats: result refused", "job", key, "error", err)
		} else {
			slog.Debug("nats: result part accepted", "job", key, "part", m.Part, "parts", m.Parts, "signer", m.signer, "worker", m.Worker)
		}
	}
}

// add stores a part; the waiter is done when it has every part.
func (w *waiter) add(m *resultMsg) {
	select {
	case <-w.done:
		return
	default:
	}
	if n := len(w.parts); n > 0 {
		for _, p := range w.parts {
			if p.Parts != m.Parts {
				// Parts of two runs of the job: start over with this one's.
				w.parts = map[int]*resultMsg{}
			}
			break
		}
	}
	w.parts[m.Part] = m
	if len(w.parts) == m.Parts {
		close(w.done)
	}
}

func (w *waiter) fail(err error) {
	select {
	case <-w.done:
	default:
		w.bad = err
		close(w.done)
	}
}

// Dispatch runs a batch on the workers and waits for its rows.
func (c *Coordinator) Dispatch(ctx context.Context, b execute.Batch) ([][]execute.Result, error) {
	var rows [][]execute.Result
	parts, err := c.submit(ctx, b.ID, &jobMsg{V: wireVersion, Run: &b.Job}, func(parts []*resultMsg) error {
		if parts[0].Poison != "" {
			return nil
		}
		var err error
		rows, err = assemble(parts, len(b.Job.Programs), len(b.Job.Tests))
		return err
	})
	if err != nil {
		return nil, err
	}
	if parts[0].Poison != "" {
		return c.splitPoison(ctx, b, parts[0].Poison)
	}
	return rows, nil
}

// assemble puts the rows of a result's parts together and checks that
// they are one row of tests results per program.
func assemble(parts []*resultMsg, programs, tests int) ([][]execute.Result, error) {
	rows := make([][]execute.Result, programs)
	for _, p := range parts {
		for i, row := range p.Rows {
			k := p.First + i
			if k >= programs || rows[k] != nil {
				return nil, fmt.Errorf("result rows overlap or exceed the job's %d programs", programs)
			}
			rows[k] = row
		}
	}
	if err := execute.CheckRows(rows, programs, tests); err != nil {
		return nil, err
	}
	return rows, nil
}

// splitPoison handles a batch that kept killing its workers: a single
// program ends as a crash, a larger batch is run again one program at a
// time, so the others get their real results.
func (c *Coordinator) splitPoison(ctx context.Context, b execute.Batch, why string) ([][]execute.Result, error) {
	n := len(b.Job.Programs)
	if n == 1 {
		row := make([]execute.Result, len(b.Job.Tests))
		for j := range row {
			row[j] = execute.Result{Outcome: execute.Crash, Exception: why}
		}
		return [][]execute.Result{row}, nil
	}
	slog.Info("nats: a job kept killing its workers; running its programs one by one", "job", b.ID[:12], "programs", n)
	rows := make([][]execute.Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			one := b
			one.Job.Programs = []string{b.Job.Programs[i]}
			h := sha256.Sum256([]byte(fmt.Sprintf("%s/program/%d", b.ID, i)))
			one.ID = hex.EncodeToString(h[:])
			r, err := c.Dispatch(ctx, one)
			if err == nil {
				rows[i] = r[0]
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	return rows, errors.Join(errs...)
}

// Call runs function(arg) from source on a worker.
func (c *Coordinator) Call(ctx context.Context, source, function string, arg, result any) error {
	argJSON, err := json.Marshal(arg)
	if err != nil {
		return fmt.Errorf("python %s: encode argument: %w", function, err)
	}
	h := sha256.Sum256([]byte(fmt.Sprintf("call-v1\x00%d:%s\x00%s\x00%s", len(source), source, function, argJSON)))
	parts, err := c.submit(ctx, hex.EncodeToString(h[:]), &jobMsg{V: wireVersion, Call: &callJob{Source: source, Function: function, Arg: argJSON}},
		func(parts []*resultMsg) error {
			if parts[0].Poison == "" && parts[0].Call == nil {
				return errors.New("a call job's result without a call result")
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("python %s: %w", function, err)
	}
	res := parts[0].Call
	switch {
	case parts[0].Poison != "":
		return fmt.Errorf("python %s: %s", function, parts[0].Poison)
	case !res.OK:
		return fmt.Errorf("python %s: %s", function, res.Error)
	case result == nil:
		return nil
	}
	if err := json.Unmarshal(res.Result, result); err != nil {
		return fmt.Errorf("python %s: decode result: %w", function, err)
	}
	return nil
}

// submit queues a job under id (unless its result is already stored) and
// waits for every part of its result. A result that check refuses is
// treated as malformed: the job is queued again under a new key.
func (c *Coordinator) submit(ctx context.Context, id string, job *jobMsg, check func([]*resultMsg) error) ([]*resultMsg, error) {
	data, err := json.Marshal(job)
	if err != nil {
		return nil, fmt.Errorf("encode job: %w", err)
	}
	if max := c.nc.MaxPayload(); int64(len(data)) > max {
		return nil, fmt.Errorf("job %.12s is %d bytes, more than the server's %d-byte message limit (raise max_payload, or use smaller programs)", id, len(data), max)
	}
	digest := sha256.Sum256(data)
	var lastErr error
	for try := 0; try <= c.opts.Retries; try++ {
		key := id
		if try > 0 {
			key = fmt.Sprintf("%s-r%d", id, try)
			slog.Warn("nats: queueing a job again after a result was refused", "job", id[:12], "error", lastErr)
		}
		parts, err := c.submitOnce(ctx, key, data, digest)
		if err == nil {
			if err = check(parts); err == nil {
				return parts, nil
			}
			err = badResult{err}
		}
		var bad badResult
		if !errors.As(err, &bad) {
			return nil, err
		}
		lastErr = err
	}
	if errors.Is(lastErr, ErrUnverified) {
		return nil, fmt.Errorf("job %.12s: no result signed by a trusted worker for it in %d tries (are the workers' public keys trusted?): %w", id, c.opts.Retries+1, lastErr)
	}
	return nil, fmt.Errorf("job %.12s: workers sent malformed results %d times: %w", id, c.opts.Retries+1, lastErr)
}

// badResult is a result that did not decode, verify or fit its job.
type badResult struct{ error }

func (b badResult) Unwrap() error { return b.error }

// submitOnce queues data (whose SHA-256 is digest) under key and waits for
// the result.
func (c *Coordinator) submitOnce(ctx context.Context, key string, data []byte, digest [32]byte) ([]*resultMsg, error) {
	w := &waiter{digest: digest, parts: map[int]*resultMsg{}, done: make(chan struct{})}
	c.mu.Lock()
	c.waiters[key] = append(c.waiters[key], w)
	c.mu.Unlock()
	defer c.unwait(key, w)
	if c.lookup(ctx, key, w) {
		return w.result()
	}
	msg := &nats.Msg{Subject: JobsSubject, Data: data, Header: nats.Header{}}
	msg.Header.Set(keyHeader, key)
	ack, err := c.js.PublishMsg(ctx, msg, jetstream.WithMsgID(key))
	if err != nil {
		return nil, fmt.Errorf("nats: queue job %.12s: %w", key, err)
	}
	slog.Debug("nats: job queued", "job", key[:12], "seq", ack.Sequence, "duplicate", ack.Duplicate)
	recheck := time.NewTicker(c.opts.Recheck)
	defer recheck.Stop()
	for {
		select {
		case <-w.done:
			return w.result()
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-recheck.C:
			if c.lookup(ctx, key, w) {
				return w.result()
			}
			if len(c.Workers()) == 0 {
				slog.Warn("nats: waiting for a worker: none is connected (start one with `ticoder worker --nats URL`)")
			}
		}
	}
}

// result returns the parts in order, or why they were refused.
func (w *waiter) result() ([]*resultMsg, error) {
	if w.bad != nil {
		return nil, badResult{w.bad}
	}
	out := make([]*resultMsg, len(w.parts))
	for i := range out {
		out[i] = w.parts[i]
	}
	return out, nil
}

// unwait removes a waiter.
func (c *Coordinator) unwait(key string, w *waiter) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ws := c.waiters[key]
	for i, x := range ws {
		if x == w {
			ws = append(ws[:i], ws[i+1:]...)
			break
		}
	}
	if len(ws) == 0 {
		delete(c.waiters, key)
	} else {
		c.waiters[key] = ws
	}
}

// lookup reads a result already on the results stream (a worker finished
// the job before this coordinator asked, or while it was away) and reports
// whether w is complete.
func (c *Coordinator) lookup(ctx context.Context, key string, w *waiter) bool {
	first, err := c.results.GetLastMsgForSubject(ctx, resultSubject(key, 0))
	if err != nil {
		if !errors.Is(err, jetstream.ErrMsgNotFound) {
			slog.Debug("nats: look up result", "job", key[:12], "error", err)
		}
		return false
	}
	c.receive(first.Subject, first.Data)
	c.mu.Lock()
	parts := 0
	for _, p := range w.parts {
		parts = p.Parts
		break
	}
	c.mu.Unlock()
	for i := 1; i < parts; i++ {
		m, err := c.results.GetLastMsgForSubject(ctx, resultSubject(key, i))
		if err != nil {
			return false
		}
		c.receive(m.Subject, m.Data)
	}
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}
