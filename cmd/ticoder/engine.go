package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/lang/langs"
	"github.com/ticoder/ticoder/internal/natsexec"
	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/store"
)

// engine bundles the executor and the database behind it.
type engine struct {
	// Pool runs every piece of untrusted Python: the local sandbox pool,
	// or, with --nats, ticoder workers reached through NATS.
	Pool execute.Executor
	DB   *sql.DB
	// nc and coord are the NATS connection and coordinator with --nats.
	nc    *nats.Conn
	coord *natsexec.Coordinator
	// ownMu guards own and ownErr.
	ownMu sync.Mutex
	// own holds, by language name, the executors of the languages whose
	// programs run on workers of their own (langs.Starter: Java's JVMs;
	// always local), once withLanguage has started them.
	own map[string]execute.Executor
	// ownErr holds why a language's executor could not start (runners).
	ownErr map[string]error
}

// runners returns, for interactive sessions, the runner of each language's
// programs: a language's own executor is started when a session first
// needs it (a machine without a JDK can still run Python sessions); a
// failure to start it is returned by every run of the runner it gives
// instead.
func (e *engine) runners(ctx context.Context, g *globalOptions) func(language string) execute.Runner {
	return func(language string) execute.Runner {
		if _, ok := langs.Starter(language); !ok {
			return e.Pool
		}
		e.ownMu.Lock()
		defer e.ownMu.Unlock()
		if e.own[language] == nil && e.ownErr[language] == nil {
			if err := e.startLocked(context.WithoutCancel(ctx), g, language, 0); err != nil {
				if e.ownErr == nil {
					e.ownErr = map[string]error{}
				}
				e.ownErr[language] = err
			}
		}
		if x := e.own[language]; x != nil {
			return x
		}
		return unavailable{e.ownErr[language]}
	}
}

// unavailable is a runner that could not be started.
type unavailable struct{ err error }

// Run returns the error.
func (u unavailable) Run(context.Context, execute.Job, func(int, []execute.Result)) (*execute.Matrix, error) {
	return nil, u.err
}

// Call returns the error.
func (u unavailable) Call(context.Context, string, string, any, any) error { return u.err }

// progress returns r, showing the workers connected and their jobs in its
// labels with --nats.
func (e *engine) progress(r progress.Reporter) progress.Reporter {
	if e.coord == nil || r == nil {
		return r
	}
	return progress.WithNote(r, func() string { return natsNote(len(e.coord.Workers()), e.coord.Waiting()) })
}

// natsNote describes the scale-out for a progress label: the workers heard
// from and the jobs this run waits for. Workers report every few seconds,
// so none may be known yet while jobs already run; the jobs are counted
// here, not from the workers' reports, which lag.
func natsNote(workers, waiting int) string {
	who := "no worker status yet"
	if workers > 0 {
		who = plural(workers, "worker")
	}
	return fmt.Sprintf("%s, %s", who, plural(waiting, "job")+" in flight")
}

// Close stops the workers or the connection and closes the database.
func (e *engine) Close() error {
	e.Pool.Close()
	if e.nc != nil {
		e.nc.Close()
	}
	e.ownMu.Lock()
	for _, x := range e.own {
		x.Close()
	}
	e.ownMu.Unlock()
	return e.DB.Close()
}

// Runner returns the runner of the programs of language lang: its own
// executor once withLanguage has started it, else the pool.
func (e *engine) Runner(lang string) execute.Runner {
	if r := e.started(lang); r != nil {
		return r
	}
	return e.Pool
}

// started returns the executor withLanguage started for language, nil if
// none.
func (e *engine) started(language string) execute.Executor {
	e.ownMu.Lock()
	defer e.ownMu.Unlock()
	return e.own[language]
}

// use makes x the executor of language's programs.
func (e *engine) use(language string, x execute.Executor) {
	e.ownMu.Lock()
	defer e.ownMu.Unlock()
	if e.own == nil {
		e.own = map[string]execute.Executor{}
	}
	e.own[language] = x
}

// withLanguage starts the executor of language's programs with the given
// number of workers (0: one per CPU), sharing the engine's cache, where
// they run on workers of their own (langs.Starter) and it is not started
// yet; for other languages it does nothing.
func (e *engine) withLanguage(ctx context.Context, g *globalOptions, language string, workers int) error {
	e.ownMu.Lock()
	defer e.ownMu.Unlock()
	return e.startLocked(ctx, g, language, workers)
}

// startLocked is withLanguage with ownMu held.
func (e *engine) startLocked(ctx context.Context, g *globalOptions, language string, workers int) error {
	start, ok := langs.Starter(language)
	if !ok || e.own[language] != nil {
		return nil
	}
	cache, err := execute.NewCache(ctx, e.DB)
	var x execute.Executor
	if err == nil {
		x, err = start(ctx, execute.Options{Workers: workers, Sandbox: sandbox.Config{Unsafe: g.unsafe}, Cache: cache})
	}
	if err != nil {
		return fmt.Errorf("%s: %w", language, err)
	}
	if e.own == nil {
		e.own = map[string]execute.Executor{}
	}
	e.own[language] = x
	return nil
}

// cachePath returns the SQLite file from --cache or the default.
func (g *globalOptions) cacheFile() string {
	if g.cachePath != "" {
		return g.cachePath
	}
	return store.DefaultPath()
}

// openStore opens the cache database. A --cache whose directory does not
// exist is refused (a mistyped path would otherwise create a directory
// tree); the default location is created as needed.
func (g *globalOptions) openStore() (*sql.DB, error) {
	if g.cachePath != "" {
		dir := filepath.Dir(g.cachePath)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("--cache %s: the directory %s does not exist (create it first, or fix the path): %w", g.cachePath, dir, fs.ErrNotExist)
		}
	}
	return store.Open(g.cacheFile())
}

// openCache opens the cache database and the execution cache in it.
func (g *globalOptions) openCache(ctx context.Context) (*sql.DB, *execute.Cache, error) {
	db, err := g.openStore()
	if err != nil {
		return nil, nil, err
	}
	cache, err := execute.NewCache(ctx, db)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return db, cache, nil
}

// openEngine opens the cache database and starts an execution pool with it.
// With --unsafe-no-sandbox it warns that untrusted code runs unisolated.
func openEngine(ctx context.Context, g *globalOptions, workers int) (*engine, error) {
	return openEngineLimits(ctx, g, workers, execute.Limits{})
}

// openEngineLimits is openEngine with the sandbox's limits for each program
// (zero fields: the defaults).
func openEngineLimits(ctx context.Context, g *globalOptions, workers int, limits execute.Limits) (*engine, error) {
	db, cache, err := g.openCache(ctx)
	if err != nil {
		return nil, err
	}
	if g.natsURL() != "" {
		return openRemote(ctx, g, db, cache)
	}
	if g.unsafe {
		fmt.Fprintln(os.Stderr, "ticoder: WARNING: --unsafe-no-sandbox: generated code runs WITHOUT isolation, with your user's access to files and network")
	}
	pool, err := execute.NewPool(ctx, execute.Options{
		Workers: workers,
		Sandbox: sandbox.Config{Unsafe: g.unsafe},
		Cache:   cache,
		Limits:  limits,
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	slog.Debug("execution engine ready", "workers", pool.Workers(), "cache", g.cacheFile(), "sandbox", !g.unsafe)
	return &engine{Pool: pool, DB: db}, nil
}

// openRemote connects to --nats and returns an engine whose work runs on
// ticoder workers; results still land in the cache in db.
func openRemote(ctx context.Context, g *globalOptions, db *sql.DB, cache *execute.Cache) (*engine, error) {
	o := g.nats
	o.URL = g.natsURL()
	o.Name, o.Role = "ticoder coordinator", natsexec.RoleCoordinator
	if o.Token == "" {
		o.Token = natsexec.TokenFromEnv()
	}
	trust, err := g.workerTrust()
	if err == nil && trust.Len() == 0 {
		err = fmt.Errorf("nats: %w: a coordinator accepts only results signed by a worker key it trusts, and it trusts none", natsexec.ErrNoTrust)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	nc, err := natsexec.Connect(o)
	if err != nil {
		db.Close()
		return nil, err
	}
	setup, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	coord, err := natsexec.NewCoordinator(setup, nc, natsexec.CoordinatorOptions{Trust: trust})
	if err != nil {
		nc.Close()
		db.Close()
		return nil, err
	}
	slog.Info("running sandboxed work on ticoder workers through NATS", "server", nc.ConnectedAddr(), "cache", g.cacheFile())
	return &engine{Pool: execute.NewRemote(execute.RemoteOptions{Dispatcher: coord, Cache: cache}), DB: db, nc: nc, coord: coord}, nil
}

// workerTrust returns the worker keys a coordinator trusts: the public key
// of this user's own worker key, if it exists, and those in --nats-trust
// (else $TICODER_NATS_TRUST).
func (g *globalOptions) workerTrust() (natsexec.Trust, error) {
	var trust natsexec.Trust
	if own, err := defaultWorkerKey(); err == nil {
		pub, err := natsexec.WorkerPublicKey(own)
		switch {
		case err == nil:
			if trust, err = natsexec.NewTrust(pub); err != nil {
				return natsexec.Trust{}, err
			}
		case !errors.Is(err, fs.ErrNotExist):
			return natsexec.Trust{}, err
		}
	}
	file := g.natsTrust
	if file == "" {
		file = os.Getenv("TICODER_NATS_TRUST")
	}
	if file != "" {
		more, err := natsexec.ReadTrust(file)
		if err != nil {
			return natsexec.Trust{}, err
		}
		trust = trust.Union(more)
	}
	return trust, nil
}

// natsURL returns --nats, else $TICODER_NATS.
func (g *globalOptions) natsURL() string {
	if g.nats.URL != "" {
		return g.nats.URL
	}
	return os.Getenv("TICODER_NATS")
}
