package server

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/rank"
)

// Request size limits.
const (
	// maxBody bounds a request body (a JSON spec file fits easily).
	maxBody = 256 << 10
	// maxValue bounds an `output` value.
	maxValue = 16 << 10
)

// Options configure a Server.
type Options struct {
	// Builder prepares sessions; its Generator may be nil (demos only).
	Builder *interact.Builder
	// Runner runs sandboxed checks (output values, exports).
	Runner execute.Runner
	// DB stores the sessions (opened with store.Open).
	DB *sql.DB
	// Model names the model in the page; empty when there is none.
	Model string
	// Defaults are the settings of a new session that the request leaves out.
	Defaults interact.Options
	// Logger receives logs; nil means slog.Default().
	Logger *slog.Logger
	// MaxLive bounds the sessions kept in memory (default 256); the least
	// recently used are dropped and reload from the database when asked for.
	MaxLive int
	// MaxBuilding bounds the sessions being created at once (default 2):
	// each one may call the model and runs a whole test matrix, so more
	// requests wait for a turn instead of piling onto the sandbox.
	MaxBuilding int
	// Keep, if positive, deletes the stored sessions not touched for this
	// long when the server starts; zero keeps every session.
	Keep time.Duration
	// Token, if not empty, is the access token every API request must
	// carry (see ValidToken and NewToken): as the header Authorization:
	// Bearer TOKEN, the cookie the page gets when opened with ?token=TOKEN,
	// or a ?token= parameter. Empty means no token, and then the server
	// answers only connections to a loopback address.
	Token string
	// AllowHosts are host names (NAME, answered on the server's port) or
	// NAME:PORT pairs that the Host header may name besides the address the
	// connection came in on, localhost, 127.0.0.1 and [::1]; for a server
	// reached by a DNS name or through a forwarded port.
	AllowHosts []string
	// Projects, if not nil, offers the functions of a project (serve
	// --project) and writes sessions' results into it.
	Projects Projects
}

// Server serves the API and the page. It is safe for concurrent use.
type Server struct {
	opts  Options
	store *sessionStore
	log   *slog.Logger
	guard *guard

	mu    sync.Mutex
	live  map[string]*entry
	clock uint64

	// building holds one token per session being created.
	building chan struct{}
}

// defaultMaxLive is the default of Options.MaxLive.
const defaultMaxLive = 256

// entry is one session in memory; mu orders the requests on it.
type entry struct {
	mu   sync.Mutex
	conv *interact.Conversation
	used uint64 // s.clock when last requested; guarded by Server.mu
	refs int    // requests holding the entry; guarded by Server.mu
}

// New returns a server whose sessions are stored in opts.DB.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.Builder == nil || opts.Runner == nil || opts.DB == nil {
		return nil, errors.New("server: Builder, Runner and DB are required")
	}
	g, err := newGuard(opts.Token, opts.AllowHosts)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	st, err := newSessionStore(ctx, opts.DB)
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	if opts.Keep > 0 {
		n, err := st.prune(ctx, time.Now().Add(-opts.Keep))
		if err != nil {
			return nil, err
		}
		log.Info("pruned old sessions", "deleted", n, "older than", opts.Keep)
	}
	if opts.MaxLive <= 0 {
		opts.MaxLive = defaultMaxLive
	}
	if opts.MaxBuilding <= 0 {
		opts.MaxBuilding = 2
	}
	return &Server{opts: opts, store: st, log: log, guard: g, live: map[string]*entry{},
		building: make(chan struct{}, opts.MaxBuilding)}, nil
}

// Handler returns the HTTP handler of the API and the page. Every request
// is checked first (see Options.Token and AllowHosts): its Host must name
// this server, a browser's request must come from this server's own page
// (Origin, Sec-Fetch-Site), API requests must carry the token if there is
// one, and requests that change something must be JSON. Every response has
// security headers (a strict Content-Security-Policy, no framing, no
// sniffing, no referrer) and none allows cross-origin reads (no CORS).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/info", s.handleInfo)
	mux.HandleFunc("GET /api/demos", s.handleDemos)
	mux.HandleFunc("POST /api/sessions", s.handleCreate)
	mux.HandleFunc("GET /api/sessions/{id}", s.withSession(s.handleGet))
	mux.HandleFunc("POST /api/sessions/{id}/answer", s.withSession(s.handleAnswer))
	mux.HandleFunc("POST /api/sessions/{id}/undo", s.withSession(s.handleUndo))
	mux.HandleFunc("POST /api/sessions/{id}/stop", s.withSession(s.handleStop))
	mux.HandleFunc("GET /api/sessions/{id}/candidates", s.withSession(s.handleCandidates))
	mux.HandleFunc("GET /api/sessions/{id}/export", s.withSession(s.handleExport))
	mux.HandleFunc("GET /api/project", s.handleProject)
	mux.HandleFunc("POST /api/sessions/{id}/write", s.withSession(s.handleWrite))
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, withStatus(http.StatusNotFound, fmt.Errorf("no API endpoint %s %s", r.Method, r.URL.Path)))
	})
	mux.Handle("/", pageHandler())
	return securityHeaders(s.protect(mux))
}

// csp is the page's Content-Security-Policy: its own scripts, styles and
// API only, no inline script or style, no plugins, no framing.
const csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// securityHeaders sets the security headers of every response.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

func (s *Server) demos() []api.Demo {
	ps, err := demo.List()
	if err != nil {
		s.log.Error("load demos", "err", err)
		return nil
	}
	out := make([]api.Demo, len(ps))
	for i, p := range ps {
		out[i] = api.Demo{Name: p.Name, Title: p.Title, Summary: p.Summary}
	}
	return out
}

func (s *Server) handleInfo(w http.ResponseWriter, r *http.Request) {
	info := api.Info{
		Model: s.opts.Model, Demos: s.demos(), Mode: s.opts.Defaults.Mode.String(), MaxQuestions: s.opts.Defaults.MaxQuestions,
	}
	if s.opts.Projects != nil {
		info.Project = s.opts.Projects.Root()
	}
	writeJSON(w, http.StatusOK, info)
}

func (s *Server) handleDemos(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.demos())
}

// decode reads a size-limited JSON body into v.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return err
		}
		if errors.Is(err, io.EOF) {
			return withStatus(http.StatusBadRequest, errors.New("the request has no JSON body"))
		}
		return withStatus(http.StatusBadRequest, fmt.Errorf("the request is not valid JSON for this endpoint: %v", err))
	}
	if dec.More() {
		return withStatus(http.StatusBadRequest, errors.New("the request has more than one JSON value"))
	}
	return nil
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	var req api.CreateSession
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	opts := s.opts.Defaults
	if req.Mode != "" {
		m, err := rank.ParseMode(req.Mode)
		if err != nil {
			s.writeError(w, r, withStatus(http.StatusBadRequest, err))
			return
		}
		opts.Mode = m
	}
	for _, n := range []int{req.Codes, req.Tests, req.MaxQuestions} {
		if n < 0 || n > 1000 {
			s.writeError(w, r, withStatus(http.StatusBadRequest, fmt.Errorf("codes, tests and max_questions must be between 0 and 1000 (got %d)", n)))
			return
		}
	}
	if req.Codes > 0 {
		opts.Codes = req.Codes
	}
	if req.Tests > 0 {
		opts.Tests = req.Tests
	}
	if req.MaxQuestions > 0 {
		opts.MaxQuestions = req.MaxQuestions
	}
	src := interact.Source{Demo: req.Demo, Spec: req.Spec, Prompt: req.Prompt, Signature: req.Signature, Task: req.Task, Language: req.Language}
	b, runner := s.opts.Builder, execute.Runner(nil)
	if req.File != "" || req.Function != "" {
		var err error
		if src, b, runner, err = s.projectSource(r.Context(), req); err != nil {
			s.writeError(w, r, err)
			return
		}
	} else if _, err := src.Kind(); err != nil {
		s.writeError(w, r, withStatus(http.StatusBadRequest, err))
		return
	}
	select {
	case s.building <- struct{}{}:
		defer func() { <-s.building }()
	case <-r.Context().Done():
		s.writeError(w, r, withStatus(http.StatusServiceUnavailable, errors.New("the server is busy preparing other sessions; try again")))
		return
	}
	prep, err := b.Build(r.Context(), src, opts, nil)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if runner == nil {
		runner = s.runnerFor(prep.Task.Language)
	}
	conv, err := interact.Start(prep, runner)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	conv.UseBuilder(b, nil)
	id := newID()
	e := &entry{conv: conv}
	if err := s.persist(r.Context(), id, e); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.mu.Lock()
	s.clock++
	e.used = s.clock
	s.live[id] = e
	s.evict()
	s.mu.Unlock()
	s.log.Debug("session created", "id", id, "task", prep.Task.Name, "mode", opts.Mode)
	writeJSON(w, http.StatusCreated, conv.State(id))
}

// persist stores a session's state.
func (s *Server) persist(ctx context.Context, id string, e *entry) error {
	data, err := json.Marshal(e.conv)
	if err != nil {
		return fmt.Errorf("encode session %s: %w", id, err)
	}
	// The answer must be stored even if the client went away meanwhile.
	return s.store.save(context.WithoutCancel(ctx), id, data)
}

// get returns a session, loading it from the database if needed. The
// database is read without holding s.mu, so other sessions' requests do not
// wait for a reload; if two requests reload the same session at once, the
// first to finish wins and the other uses its entry.
func (s *Server) get(ctx context.Context, id string) (*entry, error) {
	if len(id) != 32 || strings.Trim(id, "0123456789abcdef") != "" {
		return nil, fmt.Errorf("%w %q: the link may be wrong; start a new session", errNoSession, id)
	}
	if e := s.hold(id); e != nil {
		return e, nil
	}
	data, err := s.store.load(ctx, id)
	if err != nil {
		if errors.Is(err, errNoSession) {
			return nil, fmt.Errorf("%w %s: it may have been made by another server; start a new session", errNoSession, id)
		}
		return nil, err
	}
	b, runners := s.opts.Builder, s.runnerFor
	if mt, err := interact.ModuleOf(data); err != nil || mt != nil {
		if b, runners, err = s.projectRunners(ctx, mt, err); err != nil {
			return nil, fmt.Errorf("resume session %s: %w", id, err)
		}
	}
	conv, err := interact.LoadFor(data, runners)
	if err != nil {
		return nil, fmt.Errorf("resume session %s: %w", id, err)
	}
	conv.UseBuilder(b, nil)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock++
	if e, ok := s.live[id]; ok { // reloaded meanwhile by another request
		e.used = s.clock
		e.refs++
		return e, nil
	}
	e := &entry{conv: conv, used: s.clock, refs: 1}
	s.live[id] = e
	s.evict()
	return e, nil
}

// hold returns the in-memory entry of id with one more reference, or nil.
func (s *Server) hold(id string) *entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock++
	e, ok := s.live[id]
	if !ok {
		return nil
	}
	e.used = s.clock
	e.refs++
	return e
}

// release ends a request's hold on an entry from get.
func (s *Server) release(e *entry) {
	s.mu.Lock()
	e.refs--
	s.mu.Unlock()
}

// evict drops the least recently used sessions that no request holds,
// beyond MaxLive. s.mu must be held.
func (s *Server) evict() {
	for len(s.live) > s.opts.MaxLive {
		oldest, id := ^uint64(0), ""
		for k, e := range s.live {
			if e.refs == 0 && e.used < oldest {
				oldest, id = e.used, k
			}
		}
		if id == "" {
			return // every session is busy
		}
		delete(s.live, id)
	}
}

// forget drops a session from memory, so the next request reloads the
// stored state.
func (s *Server) forget(id string) {
	s.mu.Lock()
	delete(s.live, id)
	s.mu.Unlock()
}

// withSession runs h with the session of the request locked.
func (s *Server) withSession(h func(w http.ResponseWriter, r *http.Request, id string, e *entry)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		e, err := s.get(r.Context(), id)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		defer s.release(e)
		e.mu.Lock()
		defer e.mu.Unlock()
		h(w, r, id, e)
	}
}

// runnerFor returns the runner of a session in language: the builder's own
// runner for that language (Java's pool), else Options.Runner.
func (s *Server) runnerFor(language string) execute.Runner {
	return s.opts.Builder.RunnerOr(language, s.opts.Runner)
}
