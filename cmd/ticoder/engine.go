package main

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/store"
)

// engine bundles the execution pool and the database behind it.
type engine struct {
	Pool *execute.Pool
	// Java runs Java programs; nil unless opened with javaEngine.
	Java *execute.JavaPool
	DB   *sql.DB
}

// Close stops the workers and closes the database.
func (e *engine) Close() error {
	e.Pool.Close()
	if e.Java != nil {
		e.Java.Close()
	}
	return e.DB.Close()
}

// Runner returns the pool that runs programs of language lang ("" is
// Python, "java").
func (e *engine) Runner(lang string) execute.Runner {
	if lang == "java" && e.Java != nil {
		return e.Java
	}
	return e.Pool
}

// withJava adds a Java pool of the given number of JVMs to the engine,
// sharing its cache.
func (e *engine) withJava(ctx context.Context, g *globalOptions, workers int) error {
	cache, err := execute.NewCache(ctx, e.DB)
	if err == nil {
		e.Java, err = execute.NewJavaPool(ctx, execute.Options{Workers: workers, Sandbox: sandbox.Config{Unsafe: g.unsafe}, Cache: cache})
	}
	if err != nil {
		return fmt.Errorf("java: %w", err)
	}
	return nil
}

// cachePath returns the SQLite file from --cache or the default.
func (g *globalOptions) cacheFile() string {
	if g.cachePath != "" {
		return g.cachePath
	}
	return store.DefaultPath()
}

// openEngine opens the cache database and starts an execution pool with it.
// With --unsafe-no-sandbox it warns that untrusted code runs unisolated.
func openEngine(ctx context.Context, g *globalOptions, workers int) (*engine, error) {
	db, err := store.Open(g.cacheFile())
	if err != nil {
		return nil, err
	}
	cache, err := execute.NewCache(ctx, db)
	if err != nil {
		db.Close()
		return nil, err
	}
	if g.unsafe {
		fmt.Fprintln(os.Stderr, "ticoder: WARNING: --unsafe-no-sandbox: generated code runs WITHOUT isolation, with your user's access to files and network")
	}
	pool, err := execute.NewPool(ctx, execute.Options{
		Workers: workers,
		Sandbox: sandbox.Config{Unsafe: g.unsafe},
		Cache:   cache,
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	slog.Debug("execution engine ready", "workers", pool.Workers(), "cache", g.cacheFile(), "sandbox", !g.unsafe)
	return &engine{Pool: pool, DB: db}, nil
}
