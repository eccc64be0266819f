package qestore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/store"
)

// ErrNoExamples means an example set name is not in the database.
var ErrNoExamples = errors.New("no such quality-estimation pool")

// StoreSchema returns the quality-estimation tables, for store.Migrate.
// Append migrations; never edit released ones.
func StoreSchema() store.Schema {
	return store.Schema{Component: "qe", Migrations: []store.Migration{
		{Name: "create qe_text, qe_pool, qe_task, qe_pair, qe_embedding", SQL: createTables},
	}}
}

// createTables is version 1 of StoreSchema: the tables as created before
// versions were recorded.
const createTables = `
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
`

// Store keeps labelled example sets and cached embeddings in the ticoder SQLite
// database (opened with store.Open). It is safe for concurrent use.
type Store struct {
	db *sql.DB
}

// OpenStore creates or upgrades the quality-estimation tables if needed.
func OpenStore(ctx context.Context, db *sql.DB) (*Store, error) {
	if err := store.Migrate(ctx, db, StoreSchema()); err != nil {
		return nil, fmt.Errorf("quality-estimation tables: %w", err)
	}
	return &Store{db: db}, nil
}

// textHash is the content hash texts and embeddings are keyed by.
func textHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// ExampleSetInfo describes a stored example set.
type ExampleSetInfo struct {
	Name      string    `json:"name"`
	Source    string    `json:"source"`
	Created   time.Time `json:"created"`
	Problems  int       `json:"problems"`
	Pairs     int       `json:"pairs"`
	Positives int       `json:"positives"`
}

// SaveExamples stores p under its name, replacing an example set of that name. source
// says where the labels came from (a file, a samples run).
func (s *Store) SaveExamples(ctx context.Context, p *qe.ExampleSet, source string) error {
	if err := p.Validate(); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save pool %s: %w", p.Name, err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	if err := saveExamplesTx(ctx, tx, p, source); err != nil {
		return fmt.Errorf("save pool %s: %w", p.Name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save pool %s: %w", p.Name, err)
	}
	return nil
}

func saveExamplesTx(ctx context.Context, tx *sql.Tx, p *qe.ExampleSet, source string) error {
	for _, q := range []string{"DELETE FROM qe_pair WHERE pool = ?", "DELETE FROM qe_task WHERE pool = ?", "DELETE FROM qe_pool WHERE name = ?"} {
		if _, err := tx.ExecContext(ctx, q, p.Name); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO qe_pool(name, source, created) VALUES (?, ?, ?)",
		p.Name, source, time.Now().UTC().Format(time.RFC3339)); err != nil {
		return err
	}
	text, err := tx.PrepareContext(ctx, "INSERT OR IGNORE INTO qe_text(hash, text) VALUES (?, ?)")
	if err != nil {
		return err
	}
	defer text.Close()
	putText := func(s string) (string, error) {
		h := textHash(s)
		_, err := text.ExecContext(ctx, h, s)
		return h, err
	}
	for ti, t := range p.Tasks {
		ph, err := putText(t.Prompt)
		if err != nil {
			return err
		}
		var rh any
		if t.Reference != "" {
			if rh, err = putText(t.Reference); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO qe_task(pool, task, dataset, task_id, entry_point, prompt, reference) VALUES (?, ?, ?, ?, ?, ?, ?)",
			p.Name, ti, t.Dataset, t.TaskID, t.EntryPoint, ph, rh); err != nil {
			return err
		}
		for si, sol := range t.Solutions {
			ch, err := putText(sol.Code)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, "INSERT INTO qe_pair(pool, task, idx, code, correct) VALUES (?, ?, ?, ?, ?)",
				p.Name, ti, si, ch, sol.Correct); err != nil {
				return err
			}
		}
	}
	return nil
}

// LoadExamples reads the example set called name.
func (s *Store) LoadExamples(ctx context.Context, name string) (*qe.ExampleSet, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM qe_pool WHERE name = ?", name).Scan(&n); err != nil {
		return nil, fmt.Errorf("load pool %s: %w", name, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("load pool %s: %w (see `ticoder qe pool list`)", name, ErrNoExamples)
	}
	p := &qe.ExampleSet{Name: name}
	rows, err := s.db.QueryContext(ctx, `SELECT t.dataset, t.task_id, t.entry_point, pt.text, COALESCE(rt.text, '')
		FROM qe_task t JOIN qe_text pt ON pt.hash = t.prompt LEFT JOIN qe_text rt ON rt.hash = t.reference
		WHERE t.pool = ? ORDER BY t.task`, name)
	if err != nil {
		return nil, fmt.Errorf("load pool %s: %w", name, err)
	}
	for rows.Next() {
		var t qe.Task
		if err := rows.Scan(&t.Dataset, &t.TaskID, &t.EntryPoint, &t.Prompt, &t.Reference); err != nil {
			rows.Close()
			return nil, fmt.Errorf("load pool %s: %w", name, err)
		}
		p.Tasks = append(p.Tasks, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load pool %s: %w", name, err)
	}
	rows, err = s.db.QueryContext(ctx, `SELECT p.task, c.text, p.correct FROM qe_pair p JOIN qe_text c ON c.hash = p.code
		WHERE p.pool = ? ORDER BY p.task, p.idx`, name)
	if err != nil {
		return nil, fmt.Errorf("load pool %s: %w", name, err)
	}
	defer rows.Close()
	for rows.Next() {
		var ti int
		var sol qe.Solution
		if err := rows.Scan(&ti, &sol.Code, &sol.Correct); err != nil {
			return nil, fmt.Errorf("load pool %s: %w", name, err)
		}
		if ti < 0 || ti >= len(p.Tasks) {
			return nil, fmt.Errorf("load pool %s: pair of unknown task %d", name, ti)
		}
		p.Tasks[ti].Solutions = append(p.Tasks[ti].Solutions, sol)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load pool %s: %w", name, err)
	}
	return p, nil
}

// ExampleSets lists the stored example sets.
func (s *Store) ExampleSets(ctx context.Context) ([]ExampleSetInfo, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT q.name, q.source, q.created,
		(SELECT COUNT(*) FROM qe_task t WHERE t.pool = q.name),
		(SELECT COUNT(*) FROM qe_pair p WHERE p.pool = q.name),
		(SELECT COUNT(*) FROM qe_pair p WHERE p.pool = q.name AND p.correct)
		FROM qe_pool q ORDER BY q.name`)
	if err != nil {
		return nil, fmt.Errorf("list pools: %w", err)
	}
	defer rows.Close()
	var out []ExampleSetInfo
	for rows.Next() {
		var pi ExampleSetInfo
		var created string
		if err := rows.Scan(&pi.Name, &pi.Source, &created, &pi.Problems, &pi.Pairs, &pi.Positives); err != nil {
			return nil, fmt.Errorf("list pools: %w", err)
		}
		pi.Created, _ = time.Parse(time.RFC3339, created)
		out = append(out, pi)
	}
	return out, rows.Err()
}

// CachedEmbedder returns inner with its vectors cached in the store, keyed
// by (inner.Name(), field, SHA-256 of the text).
func (s *Store) CachedEmbedder(inner qe.Embedder) qe.Embedder {
	return &cachedEmbedder{s: s, inner: inner}
}

type cachedEmbedder struct {
	s     *Store
	inner qe.Embedder
}

func (c *cachedEmbedder) Name() string { return c.inner.Name() }

func (c *cachedEmbedder) Embed(ctx context.Context, field qe.Field, texts []string) ([]qe.Vector, error) {
	out := make([]qe.Vector, len(texts))
	hashes := make([]string, len(texts))
	var missing []int
	name := c.inner.Name()
	for i, t := range texts {
		hashes[i] = textHash(t)
		var blob []byte
		err := c.s.db.QueryRowContext(ctx, "SELECT vec FROM qe_embedding WHERE embedder = ? AND field = ? AND hash = ?",
			name, int(field), hashes[i]).Scan(&blob)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			missing = append(missing, i)
		case err != nil:
			return nil, fmt.Errorf("embedding cache: %w", err)
		default:
			if err := out[i].UnmarshalBinary(blob); err != nil {
				missing = append(missing, i)
			}
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	ask := make([]string, len(missing))
	for j, i := range missing {
		ask[j] = texts[i]
	}
	got, err := c.inner.Embed(ctx, field, ask)
	if err != nil {
		return nil, err
	}
	if len(got) != len(ask) {
		return nil, fmt.Errorf("embedder %s returned %d vectors for %d texts", name, len(got), len(ask))
	}
	tx, err := c.s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("embedding cache: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	for j, i := range missing {
		out[i] = got[j]
		blob, err := got[j].MarshalBinary()
		if err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO qe_embedding(embedder, field, hash, vec) VALUES (?, ?, ?, ?)",
			name, int(field), hashes[i], blob); err != nil {
			return nil, fmt.Errorf("embedding cache: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("embedding cache: %w", err)
	}
	return out, nil
}
