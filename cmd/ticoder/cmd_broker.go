package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/natsexec"
)

// brokerOptions are the flags of `ticoder broker`.
type brokerOptions struct {
	listen, store, token, config string
	workerToken                  string
	tlsCert, tlsKey, tlsClientCA string
}

func newBrokerCommand(g *globalOptions) *cobra.Command {
	o := &brokerOptions{}
	cmd := &cobra.Command{
		Use:   "broker [--listen 127.0.0.1:4222] [--store DIR] [--token T [--worker-token W] | --config FILE]",
		Short: "Run a NATS server with JetStream for ticoder workers",
		Long: `Broker runs an embedded NATS server with JetStream: the queue through which a
coordinator (check, eval, gen, qe, run or serve with --nats) hands sandboxed
work to any number of ticoder workers. Users with a NATS deployment of their
own (2.10 or later, JetStream enabled) point --nats at it instead.

Jobs and results are kept in --store, so a broker restarted with the same
directory still holds the queued work. It runs until Ctrl-C or SIGTERM.

The broker has two kinds of users, each with its own subject rights:
coordinators may queue jobs and read results, but not publish results, take
jobs or change the streams; workers may take and ack jobs and publish
results, but not queue jobs, read the results stream or change the streams.
The broker creates the streams itself. With --token (or $TICODER_NATS_TOKEN)
each client derives its role's password from the token it holds (clients set
the same variable or put the token in the URL, nats://TOKEN@HOST:4222), so a
token holder may act as either role; --worker-token (or
$TICODER_NATS_WORKER_TOKEN) gives workers a token of their own, and --token
then grants only the coordinator role. Without a token the broker listens on
loopback only, and every local client has the rights of both roles.
Whichever role a client has, a coordinator uses only results signed by a
worker key it trusts (see ticoder worker --help).

Beyond loopback, every listener needs authentication and TLS: the broker
refuses to start (exit status 2) otherwise, since whoever reaches a port can
queue jobs that run on the workers (in their sandbox) or disturb results.
--tls-cert and --tls-key make it speak TLS only (clients trust it with
--nats-ca); --tls-client-ca also requires client certificates. --config is
a NATS server configuration file; the same rule holds for every listener in
it (client, websocket, mqtt, leafnodes, cluster, gateway), and monitoring
(http, https) and profiling ports must be on loopback. A configuration with
users, nkeys or accounts of its own manages rights itself (clients then use
--nats-creds; see the README for the subjects each role needs).`,
		Example: `  ticoder broker                                   # loopback, for workers on this machine
  TICODER_NATS_TOKEN=$(openssl rand -hex 16) ticoder broker --listen 0.0.0.0:4222 --tls-cert cert.pem --tls-key key.pem
  TICODER_NATS_TOKEN=$C TICODER_NATS_WORKER_TOKEN=$W ticoder broker --listen 0.0.0.0:4222 --tls-cert cert.pem --tls-key key.pem
  ticoder broker --config nats-server.conf`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBroker(cmd.Context(), o, cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.listen, "listen", "", "HOST:PORT to listen on (default 127.0.0.1:4222, or the --config file's)")
	f.StringVar(&o.store, "store", "", "directory for JetStream's files (default $XDG_DATA_HOME/ticoder/broker, ~/.local/share/ticoder/broker)")
	f.StringVar(&o.token, "token", "", "token every client must give (default $TICODER_NATS_TOKEN, which other users cannot see in ps, unlike this flag)")
	f.StringVar(&o.workerToken, "worker-token", "", "token of the worker role alone (default $TICODER_NATS_WORKER_TOKEN); --token then grants only the coordinator role")
	f.StringVar(&o.config, "config", "", "NATS server configuration file (users, accounts, TLS, clustering)")
	f.StringVar(&o.tlsCert, "tls-cert", "", "PEM certificate: speak TLS only")
	f.StringVar(&o.tlsKey, "tls-key", "", "PEM private key of --tls-cert")
	f.StringVar(&o.tlsClientCA, "tls-client-ca", "", "PEM certificate authorities: require client certificates signed by them")
	return cmd
}

func runBroker(ctx context.Context, o *brokerOptions, stderr io.Writer) error {
	if (o.tlsCert == "") != (o.tlsKey == "") {
		return usagef("--tls-cert and --tls-key go together")
	}
	if o.tlsClientCA != "" && o.tlsCert == "" {
		return usagef("--tls-client-ca needs --tls-cert and --tls-key")
	}
	if o.listen != "" {
		if err := checkListenAddr("--listen", o.listen, "127.0.0.1:4222"); err != nil {
			return err
		}
	}
	for _, f := range []struct{ flag, path string }{{"--tls-cert", o.tlsCert}, {"--tls-key", o.tlsKey}, {"--tls-client-ca", o.tlsClientCA}} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			return fmt.Errorf("broker: %s: %w", f.flag, err)
		}
	}
	token := o.token
	if token == "" {
		token = natsexec.TokenFromEnv()
	}
	workerToken := o.workerToken
	if workerToken == "" {
		workerToken = os.Getenv("TICODER_NATS_WORKER_TOKEN")
	}
	if workerToken != "" && token == "" {
		return usagef("--worker-token needs --token (or $TICODER_NATS_TOKEN) for the coordinators")
	}
	store := o.store
	if store == "" {
		dir, err := dataHome()
		if err != nil {
			return fmt.Errorf("no home directory: %w (choose a directory with --store)", err)
		}
		store = filepath.Join(dir, "broker")
	}
	if err := os.MkdirAll(store, 0o700); err != nil {
		return fmt.Errorf("broker: %w (choose a directory with --store)", err)
	}
	b, err := natsexec.StartBroker(natsexec.BrokerOptions{
		Listen: o.listen, StoreDir: store, Token: token, WorkerToken: workerToken, Config: o.config,
		TLSCert: o.tlsCert, TLSKey: o.tlsKey, TLSClientCA: o.tlsClientCA,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "ticoder: broker listening on %s (store %s); connect with --nats %s; Ctrl-C stops it\n", b.URL(), store, b.URL())
	<-ctx.Done()
	b.Shutdown()
	return nil
}

// dataHome returns ticoder's data directory: $XDG_DATA_HOME/ticoder, else
// ~/.local/share/ticoder. Its error is the home directory's lookup's.
func dataHome() (string, error) {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "ticoder"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", "ticoder"), nil
}
