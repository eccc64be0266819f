package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/ticoder/ticoder/internal/store"
)

// errNoSession is returned for an unknown session id.
var errNoSession = errors.New("no such session")

// sessionStore keeps conversations in the web_sessions table. It is safe
// for concurrent use.
type sessionStore struct{ db *sql.DB }

// SessionSchema returns the web sessions' tables, for store.Migrate.
// Append migrations; never edit released ones.
func SessionSchema() store.Schema {
	return store.Schema{Component: "server", Migrations: []store.Migration{
		{Name: "create web_sessions", SQL: `CREATE TABLE IF NOT EXISTS web_sessions (
		id      TEXT PRIMARY KEY,
		created INTEGER NOT NULL,
		updated INTEGER NOT NULL,
		data    BLOB NOT NULL
	)`},
	}}
}

func newSessionStore(ctx context.Context, db *sql.DB) (*sessionStore, error) {
	if err := store.Migrate(ctx, db, SessionSchema()); err != nil {
		return nil, fmt.Errorf("web sessions: %w", err)
	}
	return &sessionStore{db: db}, nil
}

func (s *sessionStore) save(ctx context.Context, id string, data []byte) error {
	now := time.Now().Unix()
	_, err := s.db.ExecContext(ctx, `INSERT INTO web_sessions (id, created, updated, data) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET updated = excluded.updated, data = excluded.data`, id, now, now, data)
	if err != nil {
		return fmt.Errorf("save session %s: %w", id, err)
	}
	return nil
}

func (s *sessionStore) load(ctx context.Context, id string) ([]byte, error) {
	var data []byte
	err := s.db.QueryRowContext(ctx, `SELECT data FROM web_sessions WHERE id = ?`, id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoSession
	}
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	return data, nil
}

// prune deletes the sessions not updated since before, and returns how many
// it deleted.
func (s *sessionStore) prune(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM web_sessions WHERE updated < ?`, before.Unix())
	if err != nil {
		return 0, fmt.Errorf("prune sessions: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("prune sessions: %w", err)
	}
	return n, nil
}
