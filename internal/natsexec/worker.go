package natsexec

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/ticoder/ticoder/internal/execute"
)

// WorkerOptions configure Serve.
type WorkerOptions struct {
	// Runner runs the jobs: a sandboxed *execute.Pool without a cache.
	Runner execute.Runner
	// Sandboxes is the number of the runner's sandboxed workers (reported
	// to coordinators).
	Sandboxes int
	// Jobs is how many jobs the worker holds at once (default Sandboxes/2+1:
	// one more than needed to keep the sandboxes busy between jobs).
	Jobs int
	// ID names the worker (default host-pid).
	ID string
	// Key signs the worker's results (see LoadWorkerKey); coordinators
	// accept them only if they trust its public key. Required.
	Key nkeys.KeyPair
	// Settings are the queue's delivery rules; a worker creates the streams
	// and the shared consumer with them if they do not exist.
	Settings Settings
	// StatusEvery is how often the worker reports its status (default 2 s).
	StatusEvery time.Duration
	// Ready, if not nil, is called once the worker takes jobs, with its ID
	// (ID or its default) and the number of jobs it holds at once.
	Ready func(id string, jobs int)
}

// WorkerStatus is what a worker reports on StatusSubject.
type WorkerStatus struct {
	ID        string `json:"id"`
	Sandboxes int    `json:"sandboxes"`
	Busy      int    `json:"busy"`
	Done      int64  `json:"done"`
	// State is "up", "draining" or "down".
	State string `json:"state"`
}

// Serve pulls jobs and runs them until drain is done; then it finishes the
// jobs it holds, acks them and returns. If stop is done too, jobs in
// progress are handed back to the queue (Nak) at once.
func Serve(drain, stop context.Context, nc *nats.Conn, o WorkerOptions) error {
	if o.Key == nil {
		return errors.New("nats: a worker needs a key to sign its results")
	}
	pub, err := o.Key.PublicKey()
	if err != nil {
		return fmt.Errorf("nats: worker key: %w", err)
	}
	o.Settings = o.Settings.withDefaults()
	if o.Sandboxes <= 0 {
		o.Sandboxes = 1
	}
	if o.Jobs <= 0 {
		o.Jobs = o.Sandboxes/2 + 1
	}
	if o.ID == "" {
		host, _ := os.Hostname()
		o.ID = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	if o.StatusEvery <= 0 {
		o.StatusEvery = 2 * time.Second
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("nats: %w", err)
	}
	setup, cancel := context.WithTimeout(drain, 30*time.Second)
	defer cancel()
	if _, _, err := ensureStreams(setup, js, o.Settings); err != nil {
		return err
	}
	cons, err := js.CreateOrUpdateConsumer(setup, JobsStream, jetstream.ConsumerConfig{
		Durable:       ConsumerName,
		Description:   "ticoder workers",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       o.Settings.AckWait,
		MaxDeliver:    o.Settings.MaxDeliver,
		MaxAckPending: -1,
	})
	if err != nil {
		return fmt.Errorf("nats: create consumer %s: %w", ConsumerName, err)
	}
	w := &natsWorker{o: o, nc: nc, js: js, stop: stop}
	slog.Info("worker ready", "id", o.ID, "sandboxes", o.Sandboxes, "jobs", o.Jobs, "server", nc.ConnectedAddr(), "key", pub)
	if o.Ready != nil {
		o.Ready(o.ID, o.Jobs)
	}
	statusDone := make(chan struct{})
	go w.reportStatus(drain, statusDone)
	var wg sync.WaitGroup
	for range o.Jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.pull(drain, cons)
		}()
	}
	wg.Wait()
	close(statusDone)
	w.publishStatus("down")
	slog.Info("worker stopped", "id", o.ID, "jobs done", w.done.Load())
	return nil
}

// natsWorker is the state of one Serve.
type natsWorker struct {
	o    WorkerOptions
	nc   *nats.Conn
	js   jetstream.JetStream
	stop context.Context
	busy atomic.Int64
	done atomic.Int64
	// draining is set once the worker takes no more jobs.
	draining atomic.Bool
}

// pull takes jobs one at a time until drain is done.
func (w *natsWorker) pull(drain context.Context, cons jetstream.Consumer) {
	for drain.Err() == nil {
		msg, err := cons.Next(jetstream.FetchMaxWait(time.Second))
		if err != nil {
			if !errors.Is(err, jetstream.ErrNoMessages) && !errors.Is(err, nats.ErrTimeout) && drain.Err() == nil {
				slog.Debug("worker: fetch", "error", err)
				select {
				case <-drain.Done():
				case <-time.After(time.Second):
				}
			}
			continue
		}
		w.handle(msg)
	}
	w.draining.Store(true)
}

// handle runs one job and acks it once its result is stored.
func (w *natsWorker) handle(msg jetstream.Msg) {
	w.busy.Add(1)
	defer w.busy.Add(-1)
	md, err := msg.Metadata()
	if err != nil {
		slog.Warn("worker: job without metadata", "error", err)
		_ = msg.Term()
		return
	}
	key := msg.Headers().Get(keyHeader)
	var job jobMsg
	if !keyPattern.MatchString(key) {
		err = fmt.Errorf("bad result key %q", key)
	} else if err = json.Unmarshal(msg.Data(), &job); err == nil {
		err = checkJob(&job)
	}
	if err != nil {
		slog.Warn("worker: malformed job dropped", "seq", md.Sequence.Stream, "error", err)
		_ = msg.TermWithReason("malformed job")
		return
	}
	ctx, cancel := context.WithCancel(w.stop)
	defer cancel()
	if int(md.NumDelivered) >= w.o.Settings.MaxDeliver {
		why := fmt.Sprintf("%s died or stopped each time this job ran (%d times): it kills its worker", execute.WorkerCrash, md.NumDelivered-1)
		slog.Warn("worker: job given up", "key", key, "deliveries", md.NumDelivered)
		w.finish(ctx, msg, key, []resultMsg{{Poison: why}})
		return
	}
	if md.NumDelivered > 1 {
		slog.Info("worker: job delivered again", "key", key, "delivery", md.NumDelivered)
	}
	// Heartbeats keep the job ours while it runs.
	hbDone := make(chan struct{})
	go func() {
		t := time.NewTicker(w.o.Settings.AckWait / 3)
		defer t.Stop()
		for {
			select {
			case <-hbDone:
				return
			case <-t.C:
				if err := msg.InProgress(); err != nil {
					slog.Debug("worker: heartbeat", "error", err)
				}
			}
		}
	}()
	start := time.Now()
	slog.Debug("worker: job started", "key", key, "programs", programsOf(&job), "delivery", md.NumDelivered)
	parts, err := w.run(ctx, &job)
	close(hbDone)
	if err != nil {
		// Interrupted: give the job back for another worker.
		slog.Info("worker: job handed back", "key", key, "error", err)
		_ = msg.Nak()
		return
	}
	slog.Debug("worker: job done", "key", key, "programs", programsOf(&job), "seconds", time.Since(start).Seconds())
	w.finish(ctx, msg, key, parts)
}

// programsOf counts a job's programs.
func programsOf(j *jobMsg) int {
	if j.Run == nil {
		return 0
	}
	return len(j.Run.Programs)
}

// run runs a job and returns its result, cut into parts that fit in a
// message.
func (w *natsWorker) run(ctx context.Context, job *jobMsg) ([]resultMsg, error) {
	if job.Call != nil {
		var out json.RawMessage
		res := &callResult{OK: true}
		var arg any
		if err := json.Unmarshal(job.Call.Arg, &arg); err != nil {
			res = &callResult{Error: "bad argument: " + err.Error()}
		} else if err := w.o.Runner.Call(ctx, job.Call.Source, job.Call.Function, arg, &out); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			res = &callResult{Error: err.Error()}
		} else {
			res.Result = out
		}
		return []resultMsg{{Call: res}}, nil
	}
	m, err := w.o.Runner.Run(ctx, *job.Run, nil)
	if err != nil {
		return nil, err
	}
	return splitRows(m.Results, w.partBytes()), nil
}

// partBytes is the most a result part may take, with room for the envelope.
func (w *natsWorker) partBytes() int {
	return int(w.nc.MaxPayload()) - 4096
}

// splitRows cuts rows into parts of about limit bytes of JSON. A row too
// large on its own has its values and exceptions shortened.
func splitRows(rows [][]execute.Result, limit int) []resultMsg {
	var parts []resultMsg
	cur := resultMsg{}
	size := 0
	for i, row := range rows {
		b, _ := json.Marshal(row) // results always encode
		if len(b) > limit {
			row = shorten(row)
			b, _ = json.Marshal(row)
		}
		if len(cur.Rows) > 0 && size+len(b) > limit {
			parts = append(parts, cur)
			cur, size = resultMsg{First: i}, 0
		}
		cur.Rows = append(cur.Rows, row)
		size += len(b) + 1
	}
	return append(parts, cur)
}

// shorten cuts the text of a row's results to fit one message.
func shorten(row []execute.Result) []execute.Result {
	out := make([]execute.Result, len(row))
	for i, r := range row {
		if len(r.Value) > 40 {
			r.Value = r.Value[:40] + "…"
		}
		if len(r.Exception) > 80 {
			r.Exception = r.Exception[:80] + "…"
		}
		out[i] = r
	}
	return out
}

// finish signs the result parts for the job message msg, publishes them on
// the results stream and then acks the job; if publishing fails, the job
// goes back to the queue.
func (w *natsWorker) finish(ctx context.Context, msg jetstream.Msg, key string, parts []resultMsg) {
	digest := sha256.Sum256(msg.Data())
	for i := range parts {
		parts[i].V, parts[i].Key, parts[i].Part, parts[i].Parts, parts[i].Worker = wireVersion, key, i, len(parts), w.o.ID
		b, err := seal(w.o.Key, digest, &parts[i])
		if err == nil {
			pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			_, err = w.js.Publish(pctx, resultSubject(key, i), b)
			cancel()
		}
		if err != nil {
			slog.Warn("worker: could not store a result; the job goes back to the queue", "key", key, "error", err)
			_ = msg.Nak()
			return
		}
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	var err error
	if parts[0].Poison != "" {
		err = msg.Term()
	} else {
		err = msg.DoubleAck(actx)
	}
	if err != nil {
		// The result is stored; a second run of the job is harmless.
		slog.Debug("worker: ack", "key", key, "error", err)
	}
	w.done.Add(1)
}

// reportStatus publishes the worker's status until done is closed.
func (w *natsWorker) reportStatus(drain context.Context, done <-chan struct{}) {
	t := time.NewTicker(w.o.StatusEvery)
	defer t.Stop()
	for {
		state := "up"
		if drain.Err() != nil {
			state = "draining"
		}
		w.publishStatus(state)
		select {
		case <-done:
			return
		case <-t.C:
		}
	}
}

func (w *natsWorker) publishStatus(state string) {
	b, _ := json.Marshal(WorkerStatus{ID: w.o.ID, Sandboxes: w.o.Sandboxes, Busy: int(w.busy.Load()), Done: w.done.Load(), State: state})
	if err := w.nc.Publish(StatusSubject, b); err != nil {
		slog.Debug("worker: status", "error", err)
	}
	_ = w.nc.Flush()
}
