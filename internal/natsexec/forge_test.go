package natsexec

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/store"
	"github.com/ticoder/ticoder/internal/testutil"
)

// recorder is a Dispatcher that notes the batch IDs (result keys) it runs.
type recorder struct {
	execute.Dispatcher
	mu  sync.Mutex
	ids []string
}

func (r *recorder) Dispatch(ctx context.Context, b execute.Batch) ([][]execute.Result, error) {
	r.mu.Lock()
	r.ids = append(r.ids, b.ID)
	r.mu.Unlock()
	return r.Dispatcher.Dispatch(ctx, b)
}

// keys returns the IDs dispatched so far.
func (r *recorder) keys() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.ids...)
}

// cachedCoordinator returns a Remote over a coordinator on nc that trusts
// trust and stores its results in a new SQLite cache, the recorder of its
// batches, and the cache's database.
func cachedCoordinator(t *testing.T, nc *nats.Conn, trust Trust) (*execute.Remote, *recorder, *sql.DB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := store.Open(filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cache, err := execute.NewCache(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCoordinator(ctx, nc, CoordinatorOptions{Trust: trust, Recheck: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{Dispatcher: c}
	r := execute.NewRemote(execute.RemoteOptions{Dispatcher: rec, Cache: cache})
	t.Cleanup(func() { r.Close() })
	return r, rec, db
}

// cached returns the outcomes in the cache db.
func cached(t *testing.T, db *sql.DB) []execute.Outcome {
	t.Helper()
	rows, err := db.Query(`SELECT result FROM exec_results`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []execute.Outcome
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		var r execute.Result
		if err := json.Unmarshal([]byte(s), &r); err != nil {
			t.Fatalf("cached result %q: %v", s, err)
		}
		out = append(out, r.Outcome)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// wrongJob is a job whose program fails its only test; tag makes its key
// its own.
func wrongJob(tag string) execute.Job {
	return execute.Job{
		Programs:   []string{"def f():\n    return 1  # " + tag + "\n"},
		Tests:      []execute.Test{{Code: "assert f() == 2"}},
		TimePolicy: execute.Within(5 * time.Second),
	}
}

// allPass is the body of a forged result for j: every test passes.
func allPass(key string, j *jobMsg) resultMsg {
	rows := make([][]execute.Result, len(j.Run.Programs))
	for i := range rows {
		rows[i] = make([]execute.Result, len(j.Run.Tests))
	}
	return resultMsg{V: wireVersion, Key: key, Parts: 1, Rows: rows}
}

// serveFor runs an honest worker signing with kp until the returned stop
// is called (or the test ends).
func serveFor(t *testing.T, url string, kp nkeys.KeyPair) (stop func()) {
	t.Helper()
	nc, err := Connect(ConnectOptions{URL: url, Name: "honest worker"})
	if err != nil {
		t.Fatal(err)
	}
	pool := testutil.Pool(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ctx, nc, WorkerOptions{Runner: pool, Sandboxes: 2, ID: "honest", Key: kp}) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			testutil.Receive(t, done, time.Minute, "the honest worker to stop")
			nc.Close()
		})
	}
	t.Cleanup(stop)
	return stop
}

// TestForgedResults: a client that is not a trusted worker (it has the
// broker's credentials, takes jobs off the queue and writes on the results
// subjects) forges, replays and plants results; none is accepted, none
// reaches the SQLite cache, and a planted result does not hide the real
// one.
func TestForgedResults(t *testing.T) {
	b, nc := broker(t)
	honest := newKey(t)
	trust := trustOf(t, honest)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	// A genuine result, signed by the trusted worker for another job.
	stop := serveFor(t, b.URL(), honest)
	remote, rec, _ := cachedCoordinator(t, nc, trust)
	if _, err := remote.Run(ctx, wrongJob("genuine"), nil); err != nil {
		t.Fatal(err)
	}
	stop()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	results, err := js.Stream(ctx, ResultsStream)
	if err != nil {
		t.Fatal(err)
	}
	genuineKey := rec.keys()[0]
	g, err := results.GetLastMsgForSubject(ctx, resultSubject(genuineKey, 0))
	if err != nil {
		t.Fatal(err)
	}
	var genuine envelope
	if err := json.Unmarshal(g.Data, &genuine); err != nil {
		t.Fatal(err)
	}
	attacker := newKey(t)

	forgeries := []struct {
		name  string
		forge func(j rogueJob) []byte
	}{
		{"unsigned", func(j rogueJob) []byte {
			b, _ := json.Marshal(allPass(j.Key, j.Job))
			return b
		}},
		{"old wire version", func(j rogueJob) []byte {
			m := allPass(j.Key, j.Job)
			m.V = 1
			b, _ := json.Marshal(m)
			return b
		}},
		{"empty signature", func(j rogueJob) []byte {
			body, _ := json.Marshal(allPass(j.Key, j.Job))
			pub, _ := honest.PublicKey()
			b, _ := json.Marshal(envelope{V: wireVersion, Signer: pub, Body: body})
			return b
		}},
		{"signed by an untrusted key", func(j rogueJob) []byte {
			j.kp = attacker
			return j.seal(allPass(j.Key, j.Job))
		}},
		{"trusted signature on other bytes", func(j rogueJob) []byte {
			body, _ := json.Marshal(allPass(j.Key, j.Job))
			b, _ := json.Marshal(envelope{V: wireVersion, Signer: genuine.Signer, Sig: genuine.Sig, Body: body})
			return b
		}},
		{"another job's genuine result replayed", func(j rogueJob) []byte { return g.Data }},
	}
	for i, tc := range forgeries {
		t.Run(tc.name, func(t *testing.T) {
			rogue(t, nc, attacker, func(j rogueJob) [][]byte { return [][]byte{tc.forge(j)} })
			remote, _, db := cachedCoordinator(t, nc, trust)
			var reported []int
			_, err := remote.Run(ctx, wrongJob(tc.name+string(rune('a'+i))), func(p int, _ []execute.Result) { reported = append(reported, p) })
			if err == nil || !errors.Is(err, ErrUnverified) {
				t.Errorf("Run with only forged results: %v, want an error saying they are not signed by a trusted worker", err)
			}
			if len(reported) > 0 {
				t.Errorf("programs %v were reported from forged results", reported)
			}
			if got := cached(t, db); len(got) > 0 {
				t.Errorf("forged results reached the cache: %v", got)
			}
		})
	}

	t.Run("planted before the job is asked for", func(t *testing.T) {
		serveFor(t, b.URL(), honest)
		first, rec, _ := cachedCoordinator(t, nc, trust)
		job := wrongJob("planted")
		if _, err := first.Run(ctx, job, nil); err != nil {
			t.Fatal(err)
		}
		key := rec.keys()[0]
		// Last writer wins on the results stream: the forgery replaces the
		// genuine result a later coordinator would find.
		forged := rogueJob{Key: key, kp: attacker, t: t}
		msg := &jobMsg{V: wireVersion, Run: &job}
		for _, data := range [][]byte{forged.seal(allPass(key, msg))} {
			if _, err := js.Publish(ctx, resultSubject(key, 0), data); err != nil {
				t.Fatal(err)
			}
		}
		second, _, db := cachedCoordinator(t, nc, trust)
		m, err := second.Run(ctx, job, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Results[0][0].Outcome != execute.Fail {
			t.Errorf("the planted result was used: %+v", m.Results[0][0])
		}
		if got := cached(t, db); len(got) != 1 || got[0] != execute.Fail {
			t.Errorf("cached %v, want the genuine [fail]", got)
		}
	})
}

// TestRogueTrustedWorker: a worker whose key is trusted but that lies can
// spoil the results of the jobs it is given, and no others: a result it
// signs for one job does not fit another.
func TestRogueTrustedWorker(t *testing.T) {
	b, nc := broker(t)
	liar, honest := newKey(t), newKey(t)
	trust := trustOf(t, liar, honest)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCoordinator(ctx, nc, CoordinatorOptions{Trust: trust, Recheck: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	own, other := strings.Repeat("a1", 32), strings.Repeat("b2", 32)
	jobA, jobB := wrongJob("own"), wrongJob("other")
	jobA.Timeouts, jobB.Timeouts = []time.Duration{5 * time.Second}, []time.Duration{5 * time.Second}

	// The liar takes job A, answers it all-pass, and signs all-pass results
	// for job B with what it knows: job A's message.
	lying := make(chan struct{})
	var once sync.Once
	stopLiar := rogue(t, nc, liar, func(j rogueJob) [][]byte {
		if j.Key == own {
			lie := j
			lie.Key = other
			if _, err := js.Publish(ctx, resultSubject(other, 0), lie.seal(allPass(other, j.Job))); err != nil {
				t.Error(err)
			}
			defer once.Do(func() { close(lying) })
		}
		return [][]byte{passRows(j)}
	})
	rows, err := c.Dispatch(ctx, execute.Batch{ID: own, Job: jobA})
	if err != nil {
		t.Fatal(err)
	}
	if rows[0][0].Outcome != execute.Pass {
		t.Errorf("job A, run by the liar: %+v; the liar's answer should have been taken", rows[0][0])
	}
	testutil.Receive(t, lying, time.Minute, "the liar's result for job B")

	// Job B goes to the honest worker once the liar is gone.
	stopLiar()
	serveFor(t, b.URL(), honest)
	rows, err = c.Dispatch(ctx, execute.Batch{ID: other, Job: jobB})
	if err != nil {
		t.Fatal(err)
	}
	if rows[0][0].Outcome != execute.Fail {
		t.Errorf("job B: %+v; the liar's result signed for job A was used", rows[0][0])
	}
}
