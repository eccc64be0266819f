package natsexec

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// BrokerOptions configure an embedded NATS server.
type BrokerOptions struct {
	// Listen is HOST:PORT (default 127.0.0.1:4222; port 0 picks a free one).
	Listen string
	// StoreDir holds JetStream's files (the queue survives a restart).
	StoreDir string
	// Token, if set, is the secret from which clients derive the password
	// of their role (see Role); without WorkerToken it grants both roles.
	Token string
	// WorkerToken, if set, is the secret of the worker role alone; Token
	// then grants only the coordinator role.
	WorkerToken string
	// Config, if set, is a NATS server configuration file (users, nkeys,
	// accounts, TLS, clustering); Listen and Token then override its
	// listen address and token only when set. A configuration with
	// authentication of its own manages users itself: the broker adds no
	// role users to it and creates no streams.
	Config string
	// TLSCert and TLSKey, if set, make the server speak TLS only.
	TLSCert, TLSKey string
	// TLSClientCA, if set, requires client certificates signed by it.
	TLSClientCA string
	// Settings are the rules of the streams the broker creates.
	Settings Settings
}

// ErrOpenListener is returned by StartBroker for a configuration that would
// listen beyond loopback without authentication and TLS, or serve
// monitoring beyond loopback.
var ErrOpenListener = errors.New("refusing to listen beyond loopback without authentication and TLS")

// Broker is a running embedded NATS server with JetStream.
type Broker struct {
	srv *server.Server
}

// StartBroker starts an embedded NATS server with JetStream, with the users
// of the coordinator and worker roles, and creates the job queue's
// streams. It refuses (ErrOpenListener) any listener beyond loopback that
// lacks authentication or TLS, and monitoring beyond loopback.
func StartBroker(o BrokerOptions) (*Broker, error) {
	opts, err := brokerServerOptions(o)
	if err != nil {
		return nil, err
	}
	if err := checkListeners(opts, hasAuth(opts) || o.Token != "" || o.WorkerToken != ""); err != nil {
		return nil, err
	}
	var admin string
	if !hasUsers(opts) {
		if admin, err = addRoleUsers(opts, o); err != nil {
			return nil, err
		}
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
	b := &Broker{srv: srv}
	if admin != "" {
		if err := b.createStreams(admin, o.Settings.withDefaults()); err != nil {
			b.Shutdown()
			return nil, err
		}
	}
	return b, nil
}

// brokerServerOptions turns o into the NATS server's options.
func brokerServerOptions(o BrokerOptions) (*server.Options, error) {
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
	if (o.Token != "" || o.WorkerToken != "") && hasUsers(opts) {
		return nil, fmt.Errorf("broker: %s has authentication of its own; a token goes with a configuration without users, accounts or a token", o.Config)
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
	return opts, nil
}

// addRoleUsers gives opts the users of the roles and the broker's own
// administrator, and returns the administrator's password. With a token,
// the coordinator and worker users' passwords derive from it (or from the
// worker token); without one, clients without credentials are the local
// user, with the rights of both roles (the broker then listens on loopback
// only, unless client certificates are required).
func addRoleUsers(opts *server.Options, o BrokerOptions) (string, error) {
	admin, err := randomSecret()
	if err != nil {
		return "", err
	}
	opts.Users = []*server.User{{
		Username: adminUser, Password: admin,
		AllowedConnectionTypes: connectionTypes(jwt.ConnectionTypeInProcess),
	}}
	if o.Token == "" && o.WorkerToken == "" {
		local, err := randomSecret()
		if err != nil {
			return "", err
		}
		opts.Users = append(opts.Users, &server.User{Username: localUser, Password: local,
			Permissions: unionPermissions(coordinatorPermissions(), workerPermissions())})
		opts.NoAuthUser = localUser
		return admin, nil
	}
	if o.Token != "" {
		opts.Users = append(opts.Users, &server.User{Username: string(RoleCoordinator),
			Password: rolePassword(o.Token, RoleCoordinator), Permissions: coordinatorPermissions()})
	}
	if wt := cmp.Or(o.WorkerToken, o.Token); wt != "" {
		opts.Users = append(opts.Users, &server.User{Username: string(RoleWorker),
			Password: rolePassword(wt, RoleWorker), Permissions: workerPermissions()})
	}
	return admin, nil
}

// randomSecret returns 32 random bytes in hex.
func randomSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("broker: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// createStreams creates the job queue's streams through an in-process
// connection as the administrator.
func (b *Broker) createStreams(password string, s Settings) error {
	nc, err := nats.Connect("", nats.InProcessServer(b.srv), nats.UserInfo(adminUser, password), nats.Name("ticoder broker"))
	if err != nil {
		return fmt.Errorf("broker: connect in process: %w", err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, cfg := range []jetstream.StreamConfig{jobsStreamConfig(s), resultsStreamConfig(s)} {
		if _, err := js.CreateOrUpdateStream(ctx, cfg); err != nil {
			return fmt.Errorf("broker: create stream %s: %w", cfg.Name, err)
		}
	}
	return nil
}

// hasAuth reports whether the server options require clients to
// authenticate: with credentials or with a client certificate.
func hasAuth(o *server.Options) bool {
	return (hasUsers(o) || o.TLSVerify) && o.NoAuthUser == ""
}

// hasUsers reports whether the server options (a configuration file's)
// have users, accounts or a token of their own.
func hasUsers(o *server.Options) bool {
	return o.Authorization != "" || o.Username != "" || len(o.Users) > 0 || len(o.Nkeys) > 0 ||
		len(o.TrustedOperators) > 0 || len(o.TrustedKeys) > 0 || o.AuthCallout != nil || o.NoAuthUser != ""
}

// loopback reports whether host names only this machine; "" (every
// interface) does not.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// listener is one port a NATS server listens on.
type listener struct {
	name string
	host string
	port int
	// auth and tls say whether a client must authenticate and speak TLS.
	auth, tls bool
	// monitor marks a monitoring port, which has no authentication.
	monitor bool
}

// listeners returns the ports opts opens; auth says whether clients must
// authenticate.
func listeners(opts *server.Options, auth bool) []listener {
	ls := []listener{{name: "client", host: opts.Host, port: opts.Port, auth: auth, tls: opts.TLSConfig != nil}}
	if ws := &opts.Websocket; ws.Port != 0 {
		ls = append(ls, listener{name: "websocket", host: ws.Host, port: ws.Port,
			auth: (auth || ws.Username != "" || ws.Token != "") && ws.NoAuthUser == "", tls: ws.TLSConfig != nil})
	}
	if mq := &opts.MQTT; mq.Port != 0 {
		ls = append(ls, listener{name: "mqtt", host: mq.Host, port: mq.Port,
			auth: (auth || mq.Username != "" || mq.Token != "") && mq.NoAuthUser == "", tls: mq.TLSConfig != nil})
	}
	if ln := &opts.LeafNode; ln.Port != 0 {
		ls = append(ls, listener{name: "leafnodes", host: ln.Host, port: ln.Port,
			auth: ln.Username != "" || len(ln.Users) > 0 || ln.Nkey != "" || len(opts.TrustedOperators) > 0, tls: ln.TLSConfig != nil})
	}
	if cl := &opts.Cluster; cl.Port != 0 {
		ls = append(ls, listener{name: "cluster", host: cl.Host, port: cl.Port, auth: cl.Username != "", tls: cl.TLSConfig != nil})
	}
	if gw := &opts.Gateway; gw.Port != 0 {
		ls = append(ls, listener{name: "gateway", host: gw.Host, port: gw.Port, auth: gw.Username != "", tls: gw.TLSConfig != nil})
	}
	httpHost := cmp.Or(opts.HTTPHost, opts.Host)
	if opts.HTTPPort != 0 {
		ls = append(ls, listener{name: "http monitoring", host: httpHost, port: opts.HTTPPort, monitor: true})
	}
	if opts.HTTPSPort != 0 {
		ls = append(ls, listener{name: "https monitoring", host: httpHost, port: opts.HTTPSPort, monitor: true})
	}
	if opts.ProfPort != 0 {
		ls = append(ls, listener{name: "profiling", host: opts.Host, port: opts.ProfPort, monitor: true})
	}
	return ls
}

// checkListeners refuses listeners beyond loopback that lack
// authentication or TLS, and monitoring beyond loopback; auth says whether
// clients must authenticate.
func checkListeners(opts *server.Options, auth bool) error {
	var bad []string
	for _, l := range listeners(opts, auth) {
		if loopback(l.host) {
			continue
		}
		where := cmp.Or(l.host, "every interface")
		port := strconv.Itoa(l.port)
		if l.port < 0 {
			port = "a random port"
		}
		switch {
		case l.monitor:
			bad = append(bad, fmt.Sprintf("%s on %s (port %s) has no authentication: give it a loopback host, e.g. 127.0.0.1", l.name, where, port))
		case !l.auth && !l.tls:
			bad = append(bad, fmt.Sprintf("%s on %s (port %s) has neither authentication nor TLS", l.name, where, port))
		case !l.auth:
			bad = append(bad, fmt.Sprintf("%s on %s (port %s) has no authentication", l.name, where, port))
		case !l.tls:
			bad = append(bad, fmt.Sprintf("%s on %s (port %s) has no TLS (credentials would cross the network in clear)", l.name, where, port))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("broker: %w: %s; anyone who can reach such a port could queue jobs that run on your workers, or read and disturb results. Listen on 127.0.0.1, or give the listener authentication (a token, users) and TLS", ErrOpenListener, strings.Join(bad, "; "))
	}
	return nil
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
