package llm

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/ticoder/ticoder/internal/store"
)

// CacheSchema returns the response cache's tables, for store.Migrate.
// llm_responses holds one row per exact request; the response is JSON (a
// Generation, a list of TokenLogprob, or one embedding). Append migrations;
// never edit released ones.
func CacheSchema() store.Schema {
	return store.Schema{Component: "llm", Migrations: []store.Migration{
		{Name: "create llm_responses", SQL: `CREATE TABLE IF NOT EXISTS llm_responses (
	key      TEXT PRIMARY KEY,
	op       TEXT NOT NULL,
	model    TEXT NOT NULL,
	summary  TEXT NOT NULL,
	request  TEXT NOT NULL,
	response TEXT NOT NULL,
	created  INTEGER NOT NULL
)`},
	}}
}

// cacheVersion is part of every key; bump it when the key's content changes.
const cacheVersion = 1

// CacheOptions configure a Cache.
type CacheOptions struct {
	// Offline makes a miss an ErrCacheMiss error instead of a request.
	Offline bool
	// Logger receives debug logs; nil means slog.Default().
	Logger *slog.Logger
}

// CacheStats counts cache lookups.
type CacheStats struct {
	// Hits is the number of answers served from the cache.
	Hits int64 `json:"hits"`
	// Misses is the number of answers that had to be asked for (or, offline,
	// were missing).
	Misses int64 `json:"misses"`
}

// Cache is a Provider that answers from a SQLite table when it can and asks
// the provider it wraps otherwise, storing the answer. Keys are the SHA-256 of
// the exact prepared request: provider kind, base URL, model, messages or
// prompt, every sampling parameter and n. Several processes may share one
// database (store.Open sets WAL and a busy timeout); every answer is written
// in its own transaction, so a crash loses at most the answer in flight. It is
// safe for concurrent use.
type Cache struct {
	db      *sql.DB
	inner   Provider
	offline bool
	log     *slog.Logger
	hits    atomic.Int64
	misses  atomic.Int64
}

// NewCache wraps inner with the response cache in db (opened with
// store.Open), creating or upgrading its table if needed.
func NewCache(db *sql.DB, inner Provider, opts CacheOptions) (*Cache, error) {
	if err := store.Migrate(context.Background(), db, CacheSchema()); err != nil {
		return nil, fmt.Errorf("response cache: %w", err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Cache{db: db, inner: inner, offline: opts.Offline, log: log}, nil
}

// Stats returns the hit and miss counts so far.
func (c *Cache) Stats() CacheStats {
	return CacheStats{Hits: c.hits.Load(), Misses: c.misses.Load()}
}

// Endpoint returns the wrapped provider's endpoint.
func (c *Cache) Endpoint() Endpoint { return c.inner.Endpoint() }

// Prepare returns the wrapped provider's preparation of req.
func (c *Cache) Prepare(req Request) (Request, error) { return c.inner.Prepare(req) }

// cacheKey is what a key hashes; its JSON encoding is stored beside the
// answer so that a person can see what a row was for.
type cacheKey struct {
	V       int      `json:"v"`
	Op      string   `json:"op"`
	Kind    Kind     `json:"kind"`
	BaseURL string   `json:"base_url"`
	Model   string   `json:"model"`
	Request *Request `json:"request,omitempty"`
	TopK    int      `json:"top_k,omitempty"`
	Text    *string  `json:"text,omitempty"`
}

func (c *Cache) key(op string, req *Request, topK int, text *string) (hash, canonical string) {
	e := c.inner.Endpoint()
	k := cacheKey{V: cacheVersion, Op: op, Kind: e.Kind, BaseURL: e.BaseURL, Model: e.Model, Request: req, TopK: topK, Text: text}
	b, _ := json.Marshal(k) // plain structs of strings and numbers: cannot fail
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), string(b)
}

// Generate answers from the cache or asks the wrapped provider.
func (c *Cache) Generate(ctx context.Context, req Request) (*Generation, error) {
	req, err := c.inner.Prepare(req)
	if err != nil {
		return nil, err
	}
	key, canonical := c.key("generate", &req, 0, nil)
	var g Generation
	if hit, err := c.lookup(ctx, key, &g); err != nil {
		return nil, err
	} else if hit {
		g.Cached = true
		return &g, nil
	}
	if err := c.missAllowed(key, req.summary()); err != nil {
		return nil, err
	}
	got, err := c.inner.Generate(ctx, req)
	if err != nil {
		return nil, err
	}
	if err := c.store(ctx, key, "generate", req.summary(), canonical, got, &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// TopLogprobs answers from the cache or asks the wrapped provider.
func (c *Cache) TopLogprobs(ctx context.Context, req Request, k int) ([]TokenLogprob, error) {
	req.Params.N, req.Params.MaxTokens = 1, 1
	req, err := c.inner.Prepare(req)
	if err != nil {
		return nil, err
	}
	key, canonical := c.key("logprobs", &req, k, nil)
	var out []TokenLogprob
	if hit, err := c.lookup(ctx, key, &out); err != nil || hit {
		return out, err
	}
	if err := c.missAllowed(key, req.summary()); err != nil {
		return nil, err
	}
	got, err := c.inner.TopLogprobs(ctx, req, k)
	if err != nil {
		return nil, err
	}
	if err := c.store(ctx, key, "logprobs", req.summary(), canonical, got, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Embed answers each text from the cache where it can and asks the wrapped
// provider for the others in one call.
func (c *Cache) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	keys := make([]string, len(texts))
	canon := make([]string, len(texts))
	var missing []int
	for i := range texts {
		keys[i], canon[i] = c.key("embed", nil, 0, &texts[i])
		hit, err := c.lookup(ctx, keys[i], &out[i])
		if err != nil {
			return nil, err
		}
		if !hit {
			if err := c.missAllowed(keys[i], fmt.Sprintf("embedding of %q", firstLine(texts[i]))); err != nil {
				return nil, err
			}
			missing = append(missing, i)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	ask := make([]string, len(missing))
	for j, i := range missing {
		ask[j] = texts[i]
	}
	got, err := c.inner.Embed(ctx, ask)
	if err != nil {
		return nil, err
	}
	for j, i := range missing {
		if err := c.store(ctx, keys[i], "embed", firstLine(texts[i]), canon[i], got[j], &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// missAllowed counts a miss and, offline, turns it into an error that names
// the request.
func (c *Cache) missAllowed(key, summary string) error {
	c.misses.Add(1)
	if !c.offline {
		return nil
	}
	e := c.inner.Endpoint()
	return newError(ErrCacheMiss, nil,
		"offline: no cached response for model %s, request %s (key %s): run once online to fill the cache, with the same model, prompts and sampling options",
		e.String(), summary, key[:16])
}

// lookup reads key into v; hit is false when there is no row.
func (c *Cache) lookup(ctx context.Context, key string, v any) (hit bool, err error) {
	var raw string
	err = c.db.QueryRowContext(ctx, `SELECT response FROM llm_responses WHERE key = ?`, key).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read response cache: %w", err)
	}
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		c.log.Warn("llm cache: ignoring unreadable row", "key", key, "err", err)
		return false, nil
	}
	c.hits.Add(1)
	return true, nil
}

// store writes answer under key in one transaction. When another process
// wrote the key first, its answer wins and is read into v, so that every
// process sharing the cache sees the same answer; otherwise answer is
// copied into v.
func (c *Cache) store(ctx context.Context, key, op, summary, canonical string, answer, v any) error {
	b, err := json.Marshal(answer)
	if err != nil {
		return fmt.Errorf("encode response for the cache: %w", err)
	}
	res, err := c.db.ExecContext(ctx,
		`INSERT INTO llm_responses (key, op, model, summary, request, response, created)
		 VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO NOTHING`,
		key, op, c.inner.Endpoint().String(), summary, canonical, string(b), time.Now().Unix())
	if err != nil {
		return fmt.Errorf("write response cache: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		var raw string
		if err := c.db.QueryRowContext(ctx, `SELECT response FROM llm_responses WHERE key = ?`, key).Scan(&raw); err == nil {
			b = []byte(raw)
		}
	}
	return json.Unmarshal(b, v)
}
