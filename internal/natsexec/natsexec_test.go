package natsexec

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

// broker starts an embedded server and connects to it.
func broker(t *testing.T) (*Broker, *nats.Conn) {
	t.Helper()
	b, err := StartBroker(BrokerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Shutdown)
	nc, err := Connect(ConnectOptions{URL: b.URL(), Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return b, nc
}

// coordinator returns a Remote over a coordinator on nc.
func coordinator(t *testing.T, nc *nats.Conn, o CoordinatorOptions) *execute.Remote {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := NewCoordinator(ctx, nc, o)
	if err != nil {
		t.Fatal(err)
	}
	r := execute.NewRemote(execute.RemoteOptions{Dispatcher: c, BatchPrograms: 2})
	t.Cleanup(func() { r.Close() })
	return r
}

// newKey returns a new worker key.
func newKey(t *testing.T) nkeys.KeyPair {
	t.Helper()
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	return kp
}

// trustOf returns a Trust of the public keys of kps.
func trustOf(t *testing.T, kps ...nkeys.KeyPair) Trust {
	t.Helper()
	var pubs []string
	for _, kp := range kps {
		pub, err := kp.PublicKey()
		if err != nil {
			t.Fatal(err)
		}
		pubs = append(pubs, pub)
	}
	tr, err := NewTrust(pubs...)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// serve runs an in-process worker with a real sandbox pool on its own
// connection, signing with kp, until the test ends.
func serve(t *testing.T, url string, kp nkeys.KeyPair) {
	t.Helper()
	nc, err := Connect(ConnectOptions{URL: url, Name: "test worker"})
	if err != nil {
		t.Fatal(err)
	}
	pool := testutil.Pool(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	ready := make(chan int, 1)
	go func() {
		done <- Serve(ctx, ctx, nc, WorkerOptions{Runner: pool, Sandboxes: 2, ID: "test", Key: kp, Ready: func(id string, jobs int) {
			if id == "test" {
				ready <- jobs
			}
		}})
	}()
	if jobs := testutil.Receive(t, ready, time.Minute, "the worker to say it is ready"); jobs != 2 {
		t.Errorf("the worker holds %d jobs at once, want 2 (Sandboxes/2+1)", jobs)
	}
	t.Cleanup(func() {
		cancel()
		testutil.Receive(t, done, time.Minute, "the worker to stop")
		nc.Close()
	})
}

// TestRemoteMatchesPool: jobs run through NATS give the matrix the local
// pool gives, and each program row is reported once.
func TestRemoteMatchesPool(t *testing.T) {
	b, nc := broker(t)
	kp := newKey(t)
	serve(t, b.URL(), kp)
	remote := coordinator(t, nc, CoordinatorOptions{Trust: trustOf(t, kp)})
	pool := testutil.Pool(t)
	inc := "def f(x):\n    return x + 1\n"
	tests := []struct {
		name string
		job  execute.Job
	}{
		{"values", execute.Job{
			Programs: []string{inc, "def f(x):\n    return x\n", inc, "def f(x):\n    return 1 // 0\n", "def f(x):\n    return 'a' * 3000\n"},
			Tests: []execute.Test{
				{Code: "assert f(1) == 2", Input: "f(1)", Expected: "2"},
				{Code: "assert f(0) == 1", Input: "f(0)", Expected: "1"},
				{Code: "assert f(2) == 3"},
			},
			TimePolicy: execute.Within(3 * time.Second),
		}},
		{"timeouts", execute.Job{
			Programs:   []string{"def f(x):\n    while True:\n        pass\n", inc},
			Tests:      []execute.Test{{Code: "assert f(1) == 2", Input: "f(1)", Expected: "2"}},
			TimePolicy: execute.Within(300 * time.Millisecond),
		}},
		{"trusted, per-test limits", execute.Job{
			Programs:   []string{inc, "def f(x):\n    raise ValueError(x)\n"},
			Tests:      []execute.Test{{Code: "def check(g):\n    assert g(1) == 2\ncheck(f)", Trusted: true}, {Code: "assert f(5) == 6"}},
			TimePolicy: execute.PerTest([]time.Duration{time.Second, 2 * time.Second}),
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			want, err := pool.Run(ctx, tc.job, nil)
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			seen := map[int]int{}
			got, err := remote.Run(ctx, tc.job, func(i int, _ []execute.Result) {
				mu.Lock()
				seen[i]++
				mu.Unlock()
			})
			if err != nil {
				t.Fatal(err)
			}
			noSeconds := func(m *execute.Matrix) [][]execute.Result {
				var out [][]execute.Result
				for _, row := range m.Results {
					var r []execute.Result
					for _, x := range row {
						x.Seconds = 0
						r = append(r, x)
					}
					out = append(out, r)
				}
				return out
			}
			if d := cmp.Diff(noSeconds(want), noSeconds(got)); d != "" {
				t.Errorf("through NATS (-pool +nats):\n%s", d)
			}
			for i := range tc.job.Programs {
				if seen[i] != 1 {
					t.Errorf("program %d reported %d times", i, seen[i])
				}
			}
		})
	}

	t.Run("call", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		src := "def double(xs):\n    return [2 * x for x in xs]\n"
		var viaPool, viaNATS []int
		if err := pool.Call(ctx, src, "double", []int{1, 2}, &viaPool); err != nil {
			t.Fatal(err)
		}
		if err := remote.Call(ctx, src, "double", []int{1, 2}, &viaNATS); err != nil {
			t.Fatal(err)
		}
		if !cmp.Equal(viaPool, viaNATS) {
			t.Errorf("call through NATS = %v, locally %v", viaNATS, viaPool)
		}
		err := remote.Call(ctx, "def boom(x):\n    raise KeyError(x)\n", "boom", 1, nil)
		if err == nil || !strings.Contains(err.Error(), "KeyError") {
			t.Errorf("a call that raises: %v, want its KeyError", err)
		}
	})
}

// rogueJob is a job a rogue worker took off the queue.
type rogueJob struct {
	Key    string
	Job    *jobMsg
	Digest [32]byte
	kp     nkeys.KeyPair
	t      *testing.T
}

// sealRaw returns body, as part part, signed with the rogue's key
// for this job.
func (j rogueJob) sealRaw(part int, body string) []byte {
	pub, _ := j.kp.PublicKey()
	sig, err := j.kp.Sign(signedBytes(j.Digest, j.Key, part, []byte(body)))
	if err != nil {
		j.t.Error(err)
	}
	b, _ := json.Marshal(envelope{V: wireVersion, Signer: pub, Sig: sig, Body: json.RawMessage(body)})
	return b
}

// seal returns m signed with the rogue's key for this job.
func (j rogueJob) seal(m resultMsg) []byte {
	b, err := seal(j.kp, j.Digest, &m)
	if err != nil {
		j.t.Error(err)
	}
	return b
}

// rogue answers every job on the queue with reply(job) until the test
// ends or stop is called: a worker with key kp that sends what it likes.
func rogue(t *testing.T, nc *nats.Conn, kp nkeys.KeyPair, reply func(j rogueJob) [][]byte) (stop func()) {
	t.Helper()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, _, err := ensureStreams(ctx, js, Settings{}.withDefaults()); err != nil {
		t.Fatal(err)
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, JobsStream, jetstream.ConsumerConfig{Durable: ConsumerName, AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		key := m.Headers().Get(keyHeader)
		var job jobMsg
		if err := json.Unmarshal(m.Data(), &job); err != nil {
			t.Errorf("rogue: %v", err)
			return
		}
		t.Logf("rogue: job %s", key)
		for i, b := range reply(rogueJob{Key: key, Job: &job, Digest: sha256.Sum256(m.Data()), kp: kp, t: t}) {
			if _, err := js.Publish(context.Background(), resultSubject(key, i), b); err != nil && !nc.IsClosed() {
				t.Errorf("rogue: %v", err)
			}
		}
		_ = m.Ack()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cc.Stop)
	return cc.Stop
}

// passRows is a well-formed result of j: every test passes.
func passRows(j rogueJob) []byte {
	rows := make([][]execute.Result, len(j.Job.Run.Programs))
	for i := range rows {
		rows[i] = make([]execute.Result, len(j.Job.Run.Tests))
	}
	return j.seal(resultMsg{V: wireVersion, Key: j.Key, Parts: 1, Rows: rows})
}

// TestRogueWorker: results that do not decode or do not fit their job are
// refused and the job is queued again; the coordinator neither crashes nor
// hangs, and fails the run if every answer is bad.
func TestRogueWorker(t *testing.T) {
	job := execute.Job{Programs: []string{"def f():\n    return 1\n"}, Tests: []execute.Test{{Code: "assert f() == 1"}, {Code: "assert f() == 2"}}}
	tests := []struct {
		name string
		bad  func(j rogueJob) []byte
		// check, if set, is run on the rows when the bad result is used.
		check func(t *testing.T, rows [][]execute.Result)
	}{
		{"not JSON", func(rogueJob) []byte { return []byte("{not json") }, nil},
		{"other version", func(j rogueJob) []byte {
			b, _ := json.Marshal(envelope{V: 99, Body: j.seal(resultMsg{V: wireVersion, Key: j.Key, Parts: 1})})
			return b
		}, nil},
		{"other version inside", func(j rogueJob) []byte {
			return j.seal(resultMsg{V: 99, Key: j.Key, Parts: 1})
		}, nil},
		{"another job's key", func(j rogueJob) []byte {
			return j.seal(resultMsg{V: wireVersion, Key: strings.Repeat("ab", 32), Parts: 1})
		}, nil},
		{"too few rows", func(j rogueJob) []byte {
			return j.seal(resultMsg{V: wireVersion, Key: j.Key, Parts: 1, Rows: [][]execute.Result{}})
		}, nil},
		{"short row", func(j rogueJob) []byte {
			return j.seal(resultMsg{V: wireVersion, Key: j.Key, Parts: 1, Rows: [][]execute.Result{{{}}}})
		}, nil},
		{"unknown outcome", func(j rogueJob) []byte {
			return j.sealRaw(0, `{"v":2,"key":"`+j.Key+`","part":0,"parts":1,"rows":[[{"outcome":"win"},{"outcome":"pass"}]]}`)
		}, nil},
		{"numeric outcome", func(j rogueJob) []byte {
			return j.sealRaw(0, `{"v":2,"key":"`+j.Key+`","part":0,"parts":1,"rows":[[{"outcome":7},{"outcome":"pass"}]]}`)
		}, nil},
		{"rows past the end", func(j rogueJob) []byte {
			return j.seal(resultMsg{V: wireVersion, Key: j.Key, Parts: 1, First: 3, Rows: [][]execute.Result{{{}, {}}}})
		}, nil},
		{"part past the count", func(j rogueJob) []byte {
			return j.seal(resultMsg{V: wireVersion, Key: j.Key, Part: 0, Parts: 0})
		}, nil},
		{"huge text is clipped, not refused", func(j rogueJob) []byte {
			return j.seal(resultMsg{V: wireVersion, Key: j.Key, Parts: 1, Rows: [][]execute.Result{{
				{Outcome: execute.Error, Exception: strings.Repeat("E", 100_000), Value: strings.Repeat("v", 100_000), Seconds: -5}, {}}}})
		}, func(t *testing.T, rows [][]execute.Result) {
			r := rows[0][0]
			if len(r.Exception) > 5000 || len(r.Value) > 2000 || r.Seconds != 0 {
				t.Errorf("a rogue result kept %d bytes of exception, %d of value, %v seconds", len(r.Exception), len(r.Value), r.Seconds)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, nc := broker(t)
			kp := newKey(t)
			var mu sync.Mutex
			rogue(t, nc, kp, func(j rogueJob) [][]byte {
				mu.Lock()
				defer mu.Unlock()
				if strings.HasSuffix(j.Key, "-r1") { // the retry gets a good answer
					return [][]byte{passRows(j)}
				}
				return [][]byte{tc.bad(j)}
			})
			remote := coordinator(t, nc, CoordinatorOptions{Recheck: time.Second, Trust: trustOf(t, kp)})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			m, err := remote.Run(ctx, job, nil)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if tc.check != nil {
				tc.check(t, m.Results)
				return
			}
			if m.Results[0][1].Outcome != execute.Pass {
				t.Errorf("the bad answer was used: %+v", m.Results[0])
			}
		})
	}

	t.Run("always bad", func(t *testing.T) {
		_, nc := broker(t)
		kp := newKey(t)
		rogue(t, nc, kp, func(j rogueJob) [][]byte { return [][]byte{j.sealRaw(0, "[]")} })
		remote := coordinator(t, nc, CoordinatorOptions{Recheck: time.Second, Retries: 2, Trust: trustOf(t, kp)})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := remote.Run(ctx, job, nil)
		if err == nil || !strings.Contains(err.Error(), "malformed results 3 times") {
			t.Errorf("Run with only bad answers: %v, want an error after 3 tries", err)
		}
		if errors.Is(err, context.DeadlineExceeded) {
			t.Error("the coordinator hung until the deadline")
		}
	})
}

// TestResultInParts: a result larger than one message is split into parts
// that the coordinator puts back together.
func TestResultInParts(t *testing.T) {
	rows := make([][]execute.Result, 50)
	for i := range rows {
		rows[i] = []execute.Result{{Outcome: execute.Fail, Value: strings.Repeat("x", 900)}, {Outcome: execute.Pass}}
	}
	parts := splitRows(rows, 10_000)
	if len(parts) < 5 {
		t.Fatalf("%d parts for about 50 kB in 10 kB parts", len(parts))
	}
	var ptrs []*resultMsg
	for i := range parts {
		parts[i].Parts = len(parts)
		ptrs = append(ptrs, &parts[i])
	}
	got, err := assemble(ptrs, 50, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(got, rows) {
		t.Error("the parts put together differ from the rows")
	}
	// One row larger than a part on its own is shortened.
	big := [][]execute.Result{{{Outcome: execute.Error, Exception: strings.Repeat("e", 3000), Value: strings.Repeat("v", 3000)}}}
	p := splitRows(big, 1000)
	if len(p) != 1 || len(p[0].Rows[0][0].Value) > 100 || len(p[0].Rows[0][0].Exception) > 100 {
		t.Errorf("an oversized row was not shortened: %d parts", len(p))
	}
}

// TestCheckJob: a worker refuses jobs of the wrong shape before running
// anything.
func TestCheckJob(t *testing.T) {
	ok := func() *execute.Job {
		return &execute.Job{Programs: []string{"x = 1"}, Tests: []execute.Test{{Code: "assert x == 1"}}, TimePolicy: execute.PerTest([]time.Duration{time.Second})}
	}
	tests := []struct {
		name string
		job  func() *jobMsg
		want string
	}{
		{"good run", func() *jobMsg { return &jobMsg{V: wireVersion, Run: ok()} }, ""},
		{"good call", func() *jobMsg { return &jobMsg{V: wireVersion, Call: &callJob{Function: "f"}} }, ""},
		{"other version", func() *jobMsg { return &jobMsg{V: 1, Run: ok()} }, "version"},
		{"neither", func() *jobMsg { return &jobMsg{V: wireVersion} }, "neither"},
		{"both", func() *jobMsg { return &jobMsg{V: wireVersion, Run: ok(), Call: &callJob{Function: "f"}} }, "neither"},
		{"call without function", func() *jobMsg { return &jobMsg{V: wireVersion, Call: &callJob{}} }, "function"},
		{"no programs", func() *jobMsg { j := ok(); j.Programs = nil; return &jobMsg{V: wireVersion, Run: j} }, "programs"},
		{"no tests", func() *jobMsg { j := ok(); j.Tests, j.Timeouts = nil, nil; return &jobMsg{V: wireVersion, Run: j} }, "tests"},
		{"limits missing", func() *jobMsg { j := ok(); j.Timeouts = nil; return &jobMsg{V: wireVersion, Run: j} }, "limits"},
		{"zero limit", func() *jobMsg { j := ok(); j.Timeouts[0] = 0; return &jobMsg{V: wireVersion, Run: j} }, "time limit"},
		{"day-long limit", func() *jobMsg { j := ok(); j.Timeouts[0] = 24 * time.Hour; return &jobMsg{V: wireVersion, Run: j} }, "time limit"},
		{"negative reduced limit", func() *jobMsg { j := ok(); j.DegradeLimit = -1; return &jobMsg{V: wireVersion, Run: j} }, "reduced"},
		{"skip past the tests", func() *jobMsg {
			j := ok()
			j.SkipAfter, j.SkipFrom = 1, len(j.Tests)+1
			return &jobMsg{V: wireVersion, Run: j}
		}, "skip"},
		{"negative skip", func() *jobMsg { j := ok(); j.SkipAfter = -1; return &jobMsg{V: wireVersion, Run: j} }, "skip"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := checkJob(tc.job())
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("checkJob = %v, want an error about %q", err, tc.want)
			}
		})
	}
}

// FuzzOpenResult: no input makes openResult panic, and what it accepts is
// bounded, names its own subject and is signed by the trusted key.
func FuzzOpenResult(f *testing.F) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		f.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	trust, err := NewTrust(pub)
	if err != nil {
		f.Fatal(err)
	}
	var digest [32]byte
	key := strings.Repeat("0f", 32)
	j := rogueJob{Key: key, Digest: digest, kp: kp}
	f.Add(resultSubject(key, 0), j.seal(resultMsg{V: wireVersion, Key: key, Parts: 1, Rows: [][]execute.Result{{{Outcome: execute.Pass}}}}))
	f.Add(resultSubject(key, 0), j.sealRaw(0, `{"v":2,"key":"`+key+`","part":0,"parts":1,"poison":"x","call":{"ok":true,"result":[1]}}`))
	f.Add(resultSubject(key+"-r1", 3), []byte(`{"v":2}`))
	f.Add("ticoder.results.x.y", []byte(`null`))
	f.Add(resultSubject(key, 0), j.sealRaw(0, `{"v":2,"key":"`+key+`","parts":1,"rows":[[{"outcome":"nope"}]]}`))
	f.Fuzz(func(t *testing.T, subj string, data []byte) {
		m, err := openResult(trust, digest, subj, data)
		if err != nil {
			return
		}
		k, part, ok := parseResultSubject(subj)
		if !ok || m.Key != k || m.Part != part || m.Parts < 1 || m.Part >= m.Parts || len(m.Rows) > maxPrograms || len(m.Poison) > maxErrorBytes+10 || m.signer != pub {
			t.Fatalf("accepted %+v on %q", m, subj)
		}
	})
}

// TestBrokerTLS: with --tls-cert and --tls-key the broker speaks TLS only;
// a client that trusts the certificate connects, one that does not is
// refused.
func TestBrokerTLS(t *testing.T) {
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	b, err := StartBroker(BrokerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), TLSCert: cert, TLSKey: key})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Shutdown)
	nc, err := Connect(ConnectOptions{URL: b.URL(), CA: cert})
	if err != nil {
		t.Fatalf("a client trusting the certificate: %v", err)
	}
	if !nc.TLSRequired() {
		t.Error("the connection is not TLS")
	}
	nc.Close()
	if nc, err := Connect(ConnectOptions{URL: b.URL()}); err == nil {
		nc.Close()
		t.Error("a client that does not trust the certificate connected")
	}
}

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "ticoder test broker"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// TestSameBatchQueuedOnce: two coordinators that ask for the same batch at
// once queue it once (the message id is its content address) and both get
// the one result.
func TestSameBatchQueuedOnce(t *testing.T) {
	b, nc := broker(t)
	var mu sync.Mutex
	jobs := 0
	release := make(chan struct{})
	kp := newKey(t)
	rogue(t, nc, kp, func(j rogueJob) [][]byte {
		mu.Lock()
		jobs++
		mu.Unlock()
		<-release // answer once both coordinators have queued it
		return [][]byte{passRows(j)}
	})
	job := execute.Job{Programs: []string{"x = 1\n", "x = 2\n"}, Tests: []execute.Test{{Code: "assert x"}}}
	var remotes []*execute.Remote
	for range 2 {
		c, err := Connect(ConnectOptions{URL: b.URL()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		remotes = append(remotes, coordinator(t, c, CoordinatorOptions{Trust: trustOf(t, kp)}))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	errs := make(chan error, len(remotes))
	for _, r := range remotes {
		go func() {
			_, err := r.Run(ctx, job, nil)
			errs <- err
		}()
	}
	// Both have queued it once the stream has seen two publishes.
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		n := jobs
		mu.Unlock()
		if n >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no job reached the worker within 30 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // let the second coordinator publish too
	close(release)
	for range remotes {
		if err := testutil.Receive(t, errs, time.Minute, "a coordinator's run"); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if jobs != 1 {
		t.Errorf("the worker got the batch %d times, want once", jobs)
	}
	s, err := js.Stream(ctx, JobsStream)
	if err != nil {
		t.Fatal(err)
	}
	// The worker acks after it publishes the results, without waiting for
	// the ack to land: the coordinators may be done before the stream has
	// dropped the job.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		info, err := s.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.State.Msgs == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("jobs left on the queue: %+v", info.State)
		}
	}
}
