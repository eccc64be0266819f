package store

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Open opens (creating it if needed) the SQLite database at path, with WAL
// journaling, a 10 s busy timeout and foreign keys on. The returned *sql.DB is
// safe for concurrent use.
func Open(path string) (*sql.DB, error) {
	if path == "" {
		return nil, fmt.Errorf("open database: empty path")
	}
	if path != ":memory:" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("open database %s: %w", path, err)
		}
	}
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return db, nil
}

// DefaultPath returns the database used when --cache is not given:
// $TICODER_CACHE if set, else ticoder/cache.db under the user's cache
// directory (e.g. ~/.cache/ticoder/cache.db).
func DefaultPath() string {
	if p := os.Getenv("TICODER_CACHE"); p != "" {
		return p
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "ticoder", "cache.db")
}
