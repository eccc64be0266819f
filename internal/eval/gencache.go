package eval

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ticoder/ticoder/internal/store"
)

// GenCache stores extracted generations (Generated) in the SQLite database,
// so that a rerun skips extraction as the execution cache skips execution.
// Keys should cover everything the extraction depends on (see GenKey). It
// is safe for concurrent use.
type GenCache struct {
	db *sql.DB
}

// GenCacheSchema returns the generation cache's tables, for store.Migrate.
// Append migrations; never edit released ones.
func GenCacheSchema() store.Schema {
	return store.Schema{Component: "eval", Migrations: []store.Migration{
		{Name: "create eval_generated", SQL: `CREATE TABLE IF NOT EXISTS eval_generated (
		key TEXT PRIMARY KEY,
		value BLOB NOT NULL
	)`},
	}}
}

// NewGenCache creates or upgrades the cache's table if needed.
func NewGenCache(ctx context.Context, db *sql.DB) (*GenCache, error) {
	if err := store.Migrate(ctx, db, GenCacheSchema()); err != nil {
		return nil, fmt.Errorf("generation cache: %w", err)
	}
	return &GenCache{db: db}, nil
}

// Get returns the entry under key, if any.
func (c *GenCache) Get(ctx context.Context, key string) (Generated, bool, error) {
	var b []byte
	err := c.db.QueryRowContext(ctx, `SELECT value FROM eval_generated WHERE key = ?`, key).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return Generated{}, false, nil
	}
	if err != nil {
		return Generated{}, false, fmt.Errorf("read generation cache: %w", err)
	}
	var g Generated
	if err := json.Unmarshal(b, &g); err != nil {
		return Generated{}, false, nil // a stale format: regenerate
	}
	return g, true, nil
}

// Put stores an entry.
func (c *GenCache) Put(ctx context.Context, key string, g Generated) error {
	b, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("encode generation: %w", err)
	}
	if _, err := c.db.ExecContext(ctx, `INSERT OR REPLACE INTO eval_generated (key, value) VALUES (?, ?)`, key, b); err != nil {
		return fmt.Errorf("write generation cache: %w", err)
	}
	return nil
}

// GenKey hashes its parts (the versions of the generation and extraction
// rules, the model, the generation options and the problem) into a cache
// key.
func GenKey(parts ...any) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, p := range parts {
		_ = enc.Encode(p)
	}
	return hex.EncodeToString(h.Sum(nil))
}
