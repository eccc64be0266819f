package natsexec

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// BrokerOptions configure an embedded NATS server.
type BrokerOptions struct {
	// Listen is HOST:PORT (default 127.0.0.1:4222; port 0 picks a free one).
	Listen string
	// StoreDir holds JetStream's files (the queue survives a restart).
	StoreDir string
	// Token, if set, is required from every client.
	Token string
	// Config, if set, is a NATS server configuration file (users, nkeys,
	// accounts, TLS, clustering); Listen and Token then override its
	// listen address and token only when set.
	Config string
	// TLSCert and TLSKey, if set, make the server speak TLS only.
	TLSCert, TLSKey string
	// TLSClientCA, if set, requires client certificates signed by it.
	TLSClientCA string
}

// Broker is a running embedded NATS server with JetStream.
type Broker struct {
	srv *server.Server
}

// StartBroker starts an embedded NATS server with JetStream. It refuses to
// listen beyond loopback without authentication.
func StartBroker(o BrokerOptions) (*Broker, error) {
	opts := &server.Options{}
	if o.Config != "" {
		var err error
		if opts, err = server.ProcessConfigFile(o.Config); err != nil {
			return nil, fmt.Errorf("broker: %s: %w", o.Config, err)
		}
	} else if o.Listen == "" {
		o.Listen = "127.0.0.1:4222"
	}
	if o.Listen != "" {
		host, port, err := net.SplitHostPort(o.Listen)
		if err != nil {
			return nil, fmt.Errorf("broker: --listen %q: want HOST:PORT, e.g. 127.0.0.1:4222", o.Listen)
		}
		p, err := strconv.Atoi(port)
		if err != nil || p < 0 || p > 65535 {
			return nil, fmt.Errorf("broker: --listen %q: bad port", o.Listen)
		}
		opts.Host, opts.Port = host, p
		if p == 0 {
			opts.Port = server.RANDOM_PORT
		}
	}
	if o.Token != "" {
		opts.Authorization = o.Token
	}
	opts.JetStream = true
	if o.StoreDir != "" {
		opts.StoreDir = o.StoreDir
	}
	if opts.StoreDir == "" {
		return nil, errors.New("broker: no store directory (give --store DIR)")
	}
	opts.NoSigs = true
	if opts.ServerName == "" {
		opts.ServerName = "ticoder-broker"
	}
	if o.TLSCert != "" || o.TLSKey != "" {
		tc, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: o.TLSCert, KeyFile: o.TLSKey, CaFile: o.TLSClientCA, Verify: o.TLSClientCA != ""})
		if err != nil {
			return nil, fmt.Errorf("broker: TLS: %w", err)
		}
		opts.TLSConfig, opts.TLS, opts.TLSVerify = tc, true, o.TLSClientCA != ""
		opts.TLSTimeout = 5
	}
	if !loopback(opts.Host) && !hasAuth(opts) {
		return nil, fmt.Errorf("broker: refusing to listen on %s without authentication: anyone who can reach it could run code on your workers; give --token (or $TICODER_NATS_TOKEN), or a --config with users, or listen on 127.0.0.1", opts.Host)
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("broker: the NATS server did not start listening on %s within 30 s (is the port in use?)", net.JoinHostPort(opts.Host, strconv.Itoa(opts.Port)))
	}
	return &Broker{srv: srv}, nil
}

// hasAuth reports whether the server options require clients to
// authenticate.
func hasAuth(o *server.Options) bool {
	return o.Authorization != "" || o.Username != "" || len(o.Users) > 0 || len(o.Nkeys) > 0 ||
		len(o.TrustedOperators) > 0 || len(o.TrustedKeys) > 0 || o.TLSVerify
}

// loopback reports whether host names only this machine.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// URL returns the address clients connect to, e.g. nats://127.0.0.1:4222.
func (b *Broker) URL() string { return b.srv.ClientURL() }

// Shutdown stops the server and waits until it is down.
func (b *Broker) Shutdown() {
	b.srv.Shutdown()
	b.srv.WaitForShutdown()
}

// WaitForShutdown blocks until the server stops.
func (b *Broker) WaitForShutdown() { b.srv.WaitForShutdown() }
