package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/ticoder/ticoder/internal/eval"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/qe/qestore"
	"github.com/ticoder/ticoder/internal/server"
	"github.com/ticoder/ticoder/internal/store"
)

// oldSchema is what ticoder ran before schema versions were recorded (as of
// commit 6b97e95), copied verbatim from the five packages, with one row per
// table.
const oldSchema = `
CREATE TABLE IF NOT EXISTS web_sessions (
		id      TEXT PRIMARY KEY,
		created INTEGER NOT NULL,
		updated INTEGER NOT NULL,
		data    BLOB NOT NULL
	);
CREATE TABLE IF NOT EXISTS llm_responses (
	key      TEXT PRIMARY KEY,
	op       TEXT NOT NULL,
	model    TEXT NOT NULL,
	summary  TEXT NOT NULL,
	request  TEXT NOT NULL,
	response TEXT NOT NULL,
	created  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS exec_results (
		program BLOB NOT NULL,
		test BLOB NOT NULL,
		timeout_ms INTEGER NOT NULL,
		result TEXT NOT NULL,
		PRIMARY KEY (program, test, timeout_ms)
	) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS eval_generated (
		key TEXT PRIMARY KEY,
		value BLOB NOT NULL
	);
CREATE TABLE IF NOT EXISTS qe_text (
	hash TEXT PRIMARY KEY,
	text TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS qe_pool (
	name    TEXT PRIMARY KEY,
	source  TEXT NOT NULL,
	created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS qe_task (
	pool        TEXT NOT NULL REFERENCES qe_pool(name) ON DELETE CASCADE,
	task        INTEGER NOT NULL,
	dataset     TEXT NOT NULL,
	task_id     TEXT NOT NULL,
	entry_point TEXT NOT NULL,
	prompt      TEXT NOT NULL REFERENCES qe_text(hash),
	reference   TEXT REFERENCES qe_text(hash),
	PRIMARY KEY (pool, task)
);
CREATE TABLE IF NOT EXISTS qe_pair (
	pool    TEXT NOT NULL,
	task    INTEGER NOT NULL,
	idx     INTEGER NOT NULL,
	code    TEXT NOT NULL REFERENCES qe_text(hash),
	correct INTEGER NOT NULL,
	PRIMARY KEY (pool, task, idx),
	FOREIGN KEY (pool, task) REFERENCES qe_task(pool, task) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS qe_embedding (
	embedder TEXT NOT NULL,
	field    INTEGER NOT NULL,
	hash     TEXT NOT NULL,
	vec      BLOB NOT NULL,
	PRIMARY KEY (embedder, field, hash)
);
INSERT INTO web_sessions VALUES ('s1', 1, 2, x'7b7d');
INSERT INTO llm_responses VALUES ('k1', 'generate', 'm', 'sum', '{}', '{}', 3);
INSERT INTO exec_results VALUES (x'01', x'02', 1000, '{}');
INSERT INTO eval_generated VALUES ('g1', '{"samples":4}');
INSERT INTO qe_text VALUES ('h', 'def f(): pass');
INSERT INTO qe_pool VALUES ('p1', 'file.jsonl', '2026-11-01T00:00:00Z');
INSERT INTO qe_embedding VALUES ('e', 0, 'h', x'00');
`

// TestOldDatabaseKeepsRows opens a database written by the code before
// schema versions with today's code: every package takes its tables over as
// version 1 and every row is still there.
func TestOldDatabaseKeepsRows(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.ExecContext(ctx, oldSchema); err != nil {
		t.Fatal(err)
	}
	old.Close()

	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := llm.NewCache(db, nil, llm.CacheOptions{Offline: true}); err != nil {
		t.Fatalf("llm: %v", err)
	}
	if _, err := execute.NewCache(ctx, db); err != nil {
		t.Fatalf("execute: %v", err)
	}
	gc, err := eval.NewGenCache(ctx, db)
	if err != nil {
		t.Fatalf("eval: %v", err)
	}
	qs, err := qestore.OpenStore(ctx, db)
	if err != nil {
		t.Fatalf("qe: %v", err)
	}
	if err := store.Migrate(ctx, db, server.SessionSchema()); err != nil {
		t.Fatalf("server: %v", err)
	}

	if g, ok, err := gc.Get(ctx, "g1"); err != nil || !ok || g.Samples != 4 {
		t.Errorf("eval_generated row g1 = %+v, %v, %v; want 4 samples", g, ok, err)
	}
	if pools, err := qs.ExampleSets(ctx); err != nil || len(pools) != 1 || pools[0].Name != "p1" {
		t.Errorf("qe pools = %+v, %v; want p1", pools, err)
	}
	for _, table := range []string{"web_sessions", "llm_responses", "exec_results", "eval_generated", "qe_text", "qe_pool", "qe_embedding"} {
		if n := rows(t, db, `SELECT COUNT(*) FROM `+table); n != 1 {
			t.Errorf("%s has %d rows after the upgrade, want 1", table, n)
		}
	}
	for _, c := range []string{"server", "llm", "execute", "eval", "qe"} {
		if v := rows(t, db, `SELECT MAX(version) FROM schema_migrations WHERE component = ?`, c); v != 1 {
			t.Errorf("%s recorded at version %d, want 1", c, v)
		}
	}
}

func rows(t *testing.T, db *sql.DB, query string, args ...any) int {
	t.Helper()
	var n sql.NullInt64
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return int(n.Int64)
}
