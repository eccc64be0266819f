package natsexec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	neturl "net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/ticoder/ticoder/internal/clip"
	"github.com/ticoder/ticoder/internal/execute"
)

// Names of the streams, subjects and consumer ticoder uses on a NATS server.
const (
	// JobsStream is the WorkQueue stream of jobs.
	JobsStream = "TICODER_JOBS"
	// JobsSubject is the subject jobs are published on.
	JobsSubject = "ticoder.jobs"
	// ResultsStream keeps results for coordinators that were away.
	ResultsStream = "TICODER_RESULTS"
	// resultsPrefix starts a result part's subject: PREFIX.KEY.PART.
	resultsPrefix = "ticoder.results."
	// StatusSubject carries workers' status reports (core NATS).
	StatusSubject = "ticoder.workers.status"
	// ConsumerName is the durable pull consumer every worker shares.
	ConsumerName = "ticoder-workers"
	// keyHeader names the result key a job's results are published under.
	keyHeader = "Ticoder-Result-Key"
	// wireVersion is the version of the job and result messages; 2 signs
	// results.
	wireVersion = 2
)

// Settings are the delivery rules of the job queue.
type Settings struct {
	// AckWait is how long a job may go without an ack or a heartbeat before
	// it goes to another worker (default 30 s; heartbeats come every third
	// of it).
	AckWait time.Duration
	// MaxDeliver is how often a job is delivered; on the last delivery it is
	// reported as a crash instead of run (default 4: three tries).
	MaxDeliver int
	// Duplicates is the window in which a job published twice is stored
	// once (default 2 min).
	Duplicates time.Duration
	// ResultsAge is how long results stay on the results stream (default 24 h).
	ResultsAge time.Duration
	// ResultsBytes caps the results stream; the oldest go first (default 1 GiB).
	ResultsBytes int64
}

func (s Settings) withDefaults() Settings {
	if s.AckWait <= 0 {
		s.AckWait = 30 * time.Second
	}
	if s.MaxDeliver <= 1 {
		s.MaxDeliver = 4
	}
	if s.Duplicates <= 0 {
		s.Duplicates = 2 * time.Minute
	}
	if s.ResultsAge <= 0 {
		s.ResultsAge = 24 * time.Hour
	}
	if s.ResultsBytes <= 0 {
		s.ResultsBytes = 1 << 30
	}
	return s
}

// ensureStreams returns the jobs and results streams, creating with s those
// that do not exist. Streams that exist are left as they are: coordinators
// and workers of `ticoder broker` may not change them (the broker creates
// them itself).
func ensureStreams(ctx context.Context, js jetstream.JetStream, s Settings) (jobs, results jetstream.Stream, err error) {
	if jobs, err = ensureStream(ctx, js, jobsStreamConfig(s)); err != nil {
		return nil, nil, err
	}
	if results, err = ensureStream(ctx, js, resultsStreamConfig(s)); err != nil {
		return nil, nil, err
	}
	return jobs, results, nil
}

// ensureStream returns the stream cfg names, creating it if need be.
func ensureStream(ctx context.Context, js jetstream.JetStream, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	st, err := js.Stream(ctx, cfg.Name)
	if err == nil {
		return st, nil
	}
	if !errors.Is(err, jetstream.ErrStreamNotFound) {
		return nil, fmt.Errorf("nats: stream %s: %w", cfg.Name, err)
	}
	st, err = js.CreateStream(ctx, cfg)
	if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		st, err = js.Stream(ctx, cfg.Name)
	}
	if err != nil {
		return nil, fmt.Errorf("nats: create stream %s: %w", cfg.Name, err)
	}
	return st, nil
}

// jobsStreamConfig is the configuration of the jobs stream.
func jobsStreamConfig(s Settings) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        JobsStream,
		Description: "ticoder: sandboxed jobs for ticoder workers",
		Subjects:    []string{JobsSubject},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Duplicates:  s.Duplicates,
	}
}

// resultsStreamConfig is the configuration of the results stream.
func resultsStreamConfig(s Settings) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:              ResultsStream,
		Description:       "ticoder: results of sandboxed jobs",
		Subjects:          []string{resultsPrefix + ">"},
		Retention:         jetstream.LimitsPolicy,
		Storage:           jetstream.FileStorage,
		MaxAge:            s.ResultsAge,
		MaxMsgsPerSubject: 1,
		MaxBytes:          s.ResultsBytes,
		AllowDirect:       true,
	}
}

// ConnectOptions say how to reach a NATS server.
type ConnectOptions struct {
	// URL is the server's address, e.g. nats://127.0.0.1:4222; a token may
	// be given as nats://TOKEN@host:4222. Several may be comma-separated.
	URL string
	// Token, if set, authenticates with a token (TICODER_NATS_TOKEN).
	Token string
	// Creds is a NATS credentials file (JWT and nkey seed).
	Creds string
	// CA is a PEM file of the certificate authorities to trust for TLS.
	CA string
	// Cert and Key are a client certificate for mutual TLS.
	Cert, Key string
	// Name is the connection's name, shown in the server's monitoring.
	Name string
	// Role, if set, is the part the client plays: with a token, it logs in
	// as that role's user of `ticoder broker`, with a password derived from
	// the token (and with the plain token if the server refuses that: a
	// NATS server with a single token of its own).
	Role Role
}

// Connect connects to the NATS server of o and keeps reconnecting if the
// connection drops. It fails at once if the server cannot be reached.
func Connect(o ConnectOptions) (*nats.Conn, error) {
	if o.URL == "" {
		return nil, errors.New("nats: no server URL (give --nats nats://HOST:4222, or start one with `ticoder broker`)")
	}
	opts := []nats.Option{
		nats.Name(o.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(time.Second),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				slog.Warn("nats: disconnected", "error", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) { slog.Info("nats: reconnected", "server", nc.ConnectedAddr()) }),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { slog.Warn("nats: server error", "error", err) }),
	}
	if o.Creds != "" {
		opts = append(opts, nats.UserCredentials(o.Creds))
	}
	if o.CA != "" {
		opts = append(opts, nats.RootCAs(o.CA))
	}
	if o.Cert != "" || o.Key != "" {
		if o.Cert == "" || o.Key == "" {
			return nil, errors.New("nats: a client certificate needs both a certificate and a key file")
		}
		opts = append(opts, nats.ClientCert(o.Cert, o.Key))
	}
	url, token := o.URL, o.Token
	if o.Role != "" {
		var inURL string
		if url, inURL = splitURLToken(url); token == "" {
			token = inURL
		}
	}
	var nc *nats.Conn
	var err error
	switch {
	case o.Role != "" && token != "":
		nc, err = nats.Connect(url, append(opts, nats.UserInfo(string(o.Role), rolePassword(token, o.Role)))...)
		if errors.Is(err, nats.ErrAuthorization) {
			nc, err = nats.Connect(url, append(opts, nats.Token(token))...)
		}
	case token != "":
		nc, err = nats.Connect(url, append(opts, nats.Token(token))...)
	default:
		nc, err = nats.Connect(url, opts...)
	}
	if err != nil {
		return nil, fmt.Errorf("nats: connect to %s: %w (is a broker running? start one with `ticoder broker`)", redact(o.URL), err)
	}
	return nc, nil
}

// splitURLToken takes a token (user info without a password,
// nats://TOKEN@host) out of the comma-separated URLs in urls, and returns
// them without it, and the token.
func splitURLToken(urls string) (rest, token string) {
	var out []string
	for _, one := range strings.Split(urls, ",") {
		u, err := neturl.Parse(strings.TrimSpace(one))
		if err == nil && u.User != nil {
			if _, hasPass := u.User.Password(); !hasPass {
				if token == "" {
					token = u.User.Username()
				}
				u.User = nil
				one = u.String()
			}
		}
		out = append(out, one)
	}
	return strings.Join(out, ","), token
}

// TokenFromEnv returns $TICODER_NATS_TOKEN.
func TokenFromEnv() string { return os.Getenv("TICODER_NATS_TOKEN") }

// redact hides a token or password in a URL.
func redact(u string) string {
	var out []string
	for _, one := range strings.Split(u, ",") {
		if at := strings.LastIndex(one, "@"); at >= 0 {
			scheme := ""
			if i := strings.Index(one, "://"); i >= 0 && i < at {
				scheme = one[:i+3]
			}
			one = scheme + "***@" + one[at+1:]
		}
		out = append(out, one)
	}
	return strings.Join(out, ",")
}

// jobMsg is a job on the queue: a batch to run, or a call.
type jobMsg struct {
	V    int          `json:"v"`
	Run  *execute.Job `json:"run,omitempty"`
	Call *callJob     `json:"call,omitempty"`
}

// callJob is a Runner.Call to make.
type callJob struct {
	Source   string          `json:"source"`
	Function string          `json:"function"`
	Arg      json.RawMessage `json:"arg"`
}

// resultMsg is one part of a job's result.
type resultMsg struct {
	V     int    `json:"v"`
	Key   string `json:"key"`
	Part  int    `json:"part"`
	Parts int    `json:"parts"`
	// First is the index of the program of Rows[0].
	First int                `json:"first"`
	Rows  [][]execute.Result `json:"rows,omitempty"`
	// Poison, when set, says the job was delivered MaxDeliver times without
	// finishing: it kills its workers, and none of its programs has a result.
	Poison string `json:"poison,omitempty"`
	// Call is the result of a call job.
	Call *callResult `json:"call,omitempty"`
	// Worker names the worker that sent it.
	Worker string `json:"worker,omitempty"`
	// signer is the public key that signed it (set by openResult).
	signer string
}

// callResult is the outcome of a call job.
type callResult struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// Bounds on what a job or a result may hold.
const (
	maxParts      = 4096
	maxJobTimeout = 10 * time.Minute
	maxErrorBytes = 4000
	maxPrograms   = 4096
	maxTests      = 1 << 16
)

// keyPattern is what a result key looks like: a hex content address, maybe
// with a retry or split suffix.
var keyPattern = regexp.MustCompile(`^[0-9a-f]{16,64}(-[a-z0-9]{1,16}){0,4}$`)

// resultSubject is the subject of part of the result under key.
func resultSubject(key string, part int) string {
	return resultsPrefix + key + "." + strconv.Itoa(part)
}

// parseResultSubject splits a result subject into key and part.
func parseResultSubject(subj string) (string, int, bool) {
	rest, ok := strings.CutPrefix(subj, resultsPrefix)
	if !ok {
		return "", 0, false
	}
	dot := strings.LastIndexByte(rest, '.')
	if dot < 0 {
		return "", 0, false
	}
	part, err := strconv.Atoi(rest[dot+1:])
	if err != nil || part < 0 || part >= maxParts || !keyPattern.MatchString(rest[:dot]) {
		return "", 0, false
	}
	return rest[:dot], part, true
}

// ErrUnverified marks a result part that is not signed, for the job the
// coordinator queued, by a worker it trusts; it is never used.
var ErrUnverified = errors.New("result not signed by a trusted worker for this job")

// openResult checks that data, received on subject subj, is a result part
// signed by a worker that trust trusts, for the job whose queued message
// has SHA-256 jobDigest, and decodes and checks its shape. Anything else is
// an error (never a panic): ErrUnverified if the signature does not hold.
func openResult(trust Trust, jobDigest [32]byte, subj string, data []byte) (*resultMsg, error) {
	key, part, ok := parseResultSubject(subj)
	if !ok {
		return nil, fmt.Errorf("result on unexpected subject %q", subj)
	}
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("result %s: %w: %v", subj, ErrUnverified, err)
	}
	if env.V != wireVersion {
		return nil, fmt.Errorf("result %s: %w: version %d, want %d (are the workers' and coordinator's ticoder the same version?)", subj, ErrUnverified, env.V, wireVersion)
	}
	if err := trust.verify(env.Signer, signedBytes(jobDigest, key, part, env.Body), env.Sig); err != nil {
		return nil, fmt.Errorf("result %s: %w: %v", subj, ErrUnverified, err)
	}
	var m resultMsg
	if err := json.Unmarshal(env.Body, &m); err != nil {
		return nil, fmt.Errorf("result %s: %w", subj, err)
	}
	switch {
	case m.V != wireVersion:
		return nil, fmt.Errorf("result %s: version %d, want %d (are the workers' and coordinator's ticoder the same version?)", subj, m.V, wireVersion)
	case m.Key != key || m.Part != part:
		return nil, fmt.Errorf("result %s: says it is %s part %d", subj, m.Key, m.Part)
	case m.Parts < 1 || m.Parts > maxParts || m.Part >= m.Parts:
		return nil, fmt.Errorf("result %s: part %d of %d", subj, m.Part, m.Parts)
	case m.First < 0 || m.First > maxPrograms || len(m.Rows) > maxPrograms:
		return nil, fmt.Errorf("result %s: rows %d+%d out of range", subj, m.First, len(m.Rows))
	}
	if m.Call != nil {
		m.Call.Error = clip.Text(m.Call.Error, maxErrorBytes)
	}
	m.Poison = clip.Text(m.Poison, maxErrorBytes)
	m.Worker = clip.Text(m.Worker, 200)
	m.signer = env.Signer
	return &m, nil
}

// checkJob checks the shape of a job taken off the queue.
func checkJob(m *jobMsg) error {
	switch {
	case m.V != wireVersion:
		return fmt.Errorf("job version %d, want %d (are the workers' and coordinator's ticoder the same version?)", m.V, wireVersion)
	case (m.Run == nil) == (m.Call == nil):
		return errors.New("job is neither a run nor a call")
	case m.Call != nil:
		if m.Call.Function == "" {
			return errors.New("call job without a function")
		}
		return nil
	}
	j := m.Run
	switch {
	case len(j.Programs) == 0 || len(j.Programs) > maxPrograms:
		return fmt.Errorf("job with %d programs", len(j.Programs))
	case len(j.Tests) == 0 || len(j.Tests) > maxTests:
		return fmt.Errorf("job with %d tests", len(j.Tests))
	case len(j.Timeouts) != len(j.Tests):
		return fmt.Errorf("job with %d limits for %d tests", len(j.Timeouts), len(j.Tests))
	case j.DegradeLimit < 0 || j.DegradeLimit > maxJobTimeout || j.DegradeAfter < 0:
		return errors.New("job with a bad reduced limit")
	case j.SkipAfter < 0 || j.SkipFrom < 0 || j.SkipFrom > len(j.Tests):
		return errors.New("job with a bad skip rule")
	}
	for _, t := range j.Timeouts {
		if t <= 0 || t > maxJobTimeout {
			return fmt.Errorf("job with a time limit of %s (want 0 < limit ≤ %s)", t, maxJobTimeout)
		}
	}
	return nil
}
