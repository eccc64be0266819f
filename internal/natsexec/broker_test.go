package natsexec

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestBrokerListeners: every port the broker would open beyond loopback
// needs authentication and TLS, and monitoring stays on loopback; the
// broker refuses anything else with ErrOpenListener, naming the listener.
func TestBrokerListeners(t *testing.T) {
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	tlsBlock := fmt.Sprintf("tls { cert_file: %q, key_file: %q }", cert, key)
	tests := []struct {
		name   string
		config string // a NATS configuration, if any
		o      BrokerOptions
		want   string // the listener refused; "" to start
	}{
		{"loopback", "", BrokerOptions{Listen: "127.0.0.1:0"}, ""},
		{"localhost", "", BrokerOptions{Listen: "localhost:0"}, ""},
		{"every interface, open", "", BrokerOptions{Listen: "0.0.0.0:0"}, "client on 0.0.0.0"},
		{"every interface, token without TLS", "", BrokerOptions{Listen: "0.0.0.0:0", Token: "s3cret"}, "client on 0.0.0.0 (port a random port) has no TLS"},
		{"every interface, TLS without a token", "", BrokerOptions{Listen: "0.0.0.0:0", TLSCert: cert, TLSKey: key}, "has no authentication"},
		{"every interface, token and TLS", "", BrokerOptions{Listen: "0.0.0.0:0", Token: "s3cret", TLSCert: cert, TLSKey: key}, ""},
		{"every interface, client certificates", "", BrokerOptions{Listen: "0.0.0.0:0", TLSCert: cert, TLSKey: key, TLSClientCA: cert}, ""},
		{"config without a host", "port: -1", BrokerOptions{}, "client on every interface"},
		{"websocket on every interface", "listen: 127.0.0.1:-1\nwebsocket { port: -1, no_tls: true }", BrokerOptions{}, "websocket on every interface"},
		{"websocket on loopback", "listen: 127.0.0.1:-1\nwebsocket { host: 127.0.0.1, port: -1, no_tls: true }", BrokerOptions{}, ""},
		{"websocket with a token, no TLS", "listen: 127.0.0.1:-1\nwebsocket { host: 0.0.0.0, port: -1, no_tls: true }", BrokerOptions{Token: "s3cret"}, "websocket on 0.0.0.0 (port a random port) has no TLS"},
		{"websocket with a token and TLS", "listen: 127.0.0.1:-1\nwebsocket { host: 0.0.0.0, port: -1, " + tlsBlock + " }", BrokerOptions{Token: "s3cret"}, ""},
		{"websocket mapping to a no-auth user", "listen: 127.0.0.1:-1\nauthorization { users: [{user: a, password: b}] }\nwebsocket { host: 0.0.0.0, port: -1, no_auth_user: a, " + tlsBlock + " }", BrokerOptions{}, "websocket on 0.0.0.0 (port a random port) has no authentication"},
		{"mqtt", "listen: 127.0.0.1:-1\nmqtt { port: -1 }", BrokerOptions{}, "mqtt on every interface"},
		{"leafnodes", "listen: 127.0.0.1:-1\nleafnodes { port: -1 }", BrokerOptions{}, "leafnodes on every interface"},
		{"leafnodes with a token only", "listen: 127.0.0.1:-1\nleafnodes { host: 0.0.0.0, port: -1, " + tlsBlock + " }", BrokerOptions{Token: "s3cret"}, "leafnodes on 0.0.0.0 (port a random port) has no authentication"},
		{"leafnodes with auth and TLS", "listen: 127.0.0.1:-1\nleafnodes { host: 0.0.0.0, port: -1, authorization { user: leaf, password: s3cret }, " + tlsBlock + " }", BrokerOptions{}, ""},
		{"cluster", "listen: 127.0.0.1:-1\ncluster { name: c, port: -1 }", BrokerOptions{}, "cluster on every interface"},
		{"gateway", "listen: 127.0.0.1:-1\ngateway { name: g, port: -1 }", BrokerOptions{}, "gateway on every interface"},
		{"http monitoring", "listen: 127.0.0.1:-1\nhttp: 0.0.0.0:-1", BrokerOptions{}, "http monitoring on 0.0.0.0"},
		{"http monitoring of a public client port", "listen: 0.0.0.0:-1\nhttp_port: -1\n" + tlsBlock, BrokerOptions{Token: "s3cret"}, "http monitoring on 0.0.0.0"},
		{"http monitoring on loopback", "listen: 127.0.0.1:-1\nhttp: 127.0.0.1:-1", BrokerOptions{}, ""},
		{"https monitoring", "listen: 127.0.0.1:-1\nhttps: 0.0.0.0:-1\n" + tlsBlock, BrokerOptions{}, "https monitoring on 0.0.0.0"},
		{"profiling", "listen: 0.0.0.0:-1\nprof_port: -1\n" + tlsBlock, BrokerOptions{Token: "s3cret"}, "profiling on 0.0.0.0"},
		{"no_auth_user", "listen: 0.0.0.0:-1\nauthorization { users: [{user: a, password: b}] }\nno_auth_user: a\n" + tlsBlock, BrokerOptions{}, "client on 0.0.0.0 (port a random port) has no authentication"},
		{"users and TLS", "listen: 0.0.0.0:-1\nauthorization { users: [{user: a, password: b}] }\n" + tlsBlock, BrokerOptions{}, ""},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.StoreDir = t.TempDir()
			if tc.config != "" {
				o.Config = filepath.Join(dir, fmt.Sprintf("nats-%d.conf", i))
				if err := os.WriteFile(o.Config, []byte(tc.config+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			b, err := StartBroker(o)
			if b != nil {
				b.Shutdown()
			}
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (!errors.Is(err, ErrOpenListener) || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("StartBroker = %v, want ErrOpenListener naming %q", err, tc.want)
			}
		})
	}
}

// TestBrokerRoles: with a token, a coordinator may queue jobs but not
// publish results, take jobs or change streams; a worker may take jobs and
// publish results but not queue jobs, read the results stream or change
// streams; a plain token or a wrong one logs in as neither.
func TestBrokerRoles(t *testing.T) {
	b, err := StartBroker(BrokerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Token: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Shutdown)
	connect := func(role Role, token string) (*nats.Conn, error) {
		return Connect(ConnectOptions{URL: b.URL(), Token: token, Role: role})
	}
	for _, tc := range []struct {
		name  string
		role  Role
		token string
	}{{"plain token", "", "s3cret"}, {"no token", RoleCoordinator, ""}, {"wrong token", RoleWorker, "guess"}} {
		if nc, err := connect(tc.role, tc.token); err == nil {
			nc.Close()
			t.Errorf("%s: connected", tc.name)
		}
	}
	coord, err := connect(RoleCoordinator, "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()
	worker, err := connect(RoleWorker, "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	defer worker.Close()
	cjs, _ := jetstream.New(coord)
	wjs, _ := jetstream.New(worker)
	key := strings.Repeat("c3", 32)
	short := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.Background(), time.Second)
	}

	// What each role may do: the job queue works.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, _, err := ensureStreams(ctx, cjs, Settings{}.withDefaults()); err != nil {
		t.Fatalf("coordinator: find the streams: %v", err)
	}
	if _, err := cjs.Publish(ctx, JobsSubject, []byte(`{"v":2}`)); err != nil {
		t.Fatalf("coordinator: queue a job: %v", err)
	}
	cons, err := wjs.CreateOrUpdateConsumer(ctx, JobsStream, jetstream.ConsumerConfig{Durable: ConsumerName, AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatalf("worker: create the consumer: %v", err)
	}
	msg, err := cons.Next(jetstream.FetchMaxWait(10 * time.Second))
	if err != nil {
		t.Fatalf("worker: take a job: %v", err)
	}
	if err := msg.DoubleAck(ctx); err != nil {
		t.Errorf("worker: ack a job: %v", err)
	}
	if _, err := wjs.Publish(ctx, resultSubject(key, 0), []byte("{}")); err != nil {
		t.Errorf("worker: publish a result: %v", err)
	}
	results, err := cjs.Stream(ctx, ResultsStream)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := results.GetLastMsgForSubject(ctx, resultSubject(key, 0)); err != nil {
		t.Errorf("coordinator: read a result: %v", err)
	}

	// What neither may do.
	denied := []struct {
		name string
		do   func(ctx context.Context) error
	}{
		{"coordinator publishes a result", func(ctx context.Context) error {
			_, err := cjs.Publish(ctx, resultSubject(key, 1), []byte("{}"))
			return err
		}},
		{"coordinator creates a consumer on the jobs", func(ctx context.Context) error {
			_, err := cjs.CreateOrUpdateConsumer(ctx, JobsStream, jetstream.ConsumerConfig{Durable: "thief", AckPolicy: jetstream.AckExplicitPolicy})
			return err
		}},
		{"coordinator takes a job from the workers' consumer", func(ctx context.Context) error {
			c, err := cjs.Consumer(ctx, JobsStream, ConsumerName)
			if err != nil {
				return err
			}
			_, err = c.Next(jetstream.FetchMaxWait(time.Second))
			return err
		}},
		{"coordinator shortens the results' life", func(ctx context.Context) error {
			cfg := resultsStreamConfig(Settings{}.withDefaults())
			cfg.MaxAge = time.Second
			_, err := cjs.UpdateStream(ctx, cfg)
			return err
		}},
		{"coordinator purges the results", func(ctx context.Context) error { return results.Purge(ctx) }},
		{"coordinator deletes the jobs stream", func(ctx context.Context) error { return cjs.DeleteStream(ctx, JobsStream) }},
		{"coordinator creates a stream", func(ctx context.Context) error {
			_, err := cjs.CreateStream(ctx, jetstream.StreamConfig{Name: "SHADOW", Subjects: []string{"ticoder.results.shadow.>"}})
			return err
		}},
		{"worker queues a job", func(ctx context.Context) error {
			_, err := wjs.Publish(ctx, JobsSubject, []byte(`{"v":2}`))
			return err
		}},
		{"worker reads a result", func(ctx context.Context) error {
			s, err := wjs.Stream(ctx, ResultsStream)
			if err != nil {
				return err
			}
			_, err = s.GetLastMsgForSubject(ctx, resultSubject(key, 0))
			return err
		}},
		{"worker deletes the results stream", func(ctx context.Context) error { return wjs.DeleteStream(ctx, ResultsStream) }},
		{"worker changes the jobs stream", func(ctx context.Context) error {
			cfg := jobsStreamConfig(Settings{}.withDefaults())
			cfg.Subjects = []string{JobsSubject, "ticoder.results.>"}
			_, err := wjs.UpdateStream(ctx, cfg)
			return err
		}},
		{"worker creates another consumer on the jobs", func(ctx context.Context) error {
			_, err := wjs.CreateOrUpdateConsumer(ctx, JobsStream, jetstream.ConsumerConfig{Durable: "spy", AckPolicy: jetstream.AckExplicitPolicy})
			return err
		}},
		{"worker subscribes to the jobs subject", func(ctx context.Context) error {
			sub, err := worker.SubscribeSync(JobsSubject)
			if err != nil {
				return err
			}
			defer sub.Unsubscribe()
			if err := worker.FlushWithContext(ctx); err != nil {
				return err
			}
			return worker.LastError()
		}},
	}
	for _, tc := range denied {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := short()
			defer cancel()
			if err := tc.do(ctx); err == nil {
				t.Error("allowed")
			}
		})
	}
	// Nothing the coordinator tried reached the streams.
	if _, err := results.GetLastMsgForSubject(ctx, resultSubject(key, 1)); !errors.Is(err, jetstream.ErrMsgNotFound) {
		t.Errorf("the coordinator's result: %v, want none stored", err)
	}
	jobs, err := cjs.Stream(ctx, JobsStream)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := jobs.Info(ctx); err != nil || info.State.Msgs != 0 {
		t.Errorf("jobs stream after the worker's attempt: %+v, %v; want it empty", info.State, err)
	}
}

// TestBrokerWorkerToken: with a worker token of its own, the coordinator
// token grants no worker rights and the worker token no coordinator rights.
func TestBrokerWorkerToken(t *testing.T) {
	b, err := StartBroker(BrokerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Token: "coord", WorkerToken: "work"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Shutdown)
	tests := []struct {
		role  Role
		token string
		ok    bool
	}{
		{RoleCoordinator, "coord", true}, {RoleWorker, "work", true},
		{RoleWorker, "coord", false}, {RoleCoordinator, "work", false},
	}
	for _, tc := range tests {
		nc, err := Connect(ConnectOptions{URL: b.URL(), Token: tc.token, Role: tc.role})
		if (err == nil) != tc.ok {
			t.Errorf("%s with token %q: %v, want success %v", tc.role, tc.token, err, tc.ok)
		}
		if nc != nil {
			nc.Close()
		}
	}
	// A token in the URL works as one in the environment.
	nc, err := Connect(ConnectOptions{URL: strings.Replace(b.URL(), "nats://", "nats://work@", 1), Role: RoleWorker})
	if err != nil {
		t.Fatalf("a worker token in the URL: %v", err)
	}
	nc.Close()
}
