package execute

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ticoder/ticoder/internal/store"
)

// Cache stores execution results in SQLite, keyed by content: the hash of
// the program, the hash of the test and the test's time limit. A result
// found there is never computed again, across runs and processes. Crashes
// caused by a dying worker are not stored. A Run writes its results in
// batches (see cacheBatch), so another Run sees them once they are written.
// A Cache is safe for concurrent use.
type Cache struct {
	db *sql.DB
	// The statements of lookup and store, prepared once: parsing their SQL
	// for every program cost more than running them.
	get, put *sql.Stmt
	// batchRows is how many rows a Run's batch gathers before it is
	// written (cacheBatchRows; tests lower it).
	batchRows int

	// pending holds the rows that Runs have gathered and not yet written,
	// by program hash, so that lookups see a result as soon as it is
	// known, as they did when every result was written at once: a Run
	// that starts meanwhile gets the same values (a program returning
	// random numbers, a timeout near its limit), not ones of its own.
	mu      sync.Mutex
	pending map[string]map[resultKey]string
}

// CacheSchema returns the execution cache's tables, for store.Migrate.
// Append migrations; never edit released ones.
func CacheSchema() store.Schema {
	return store.Schema{Component: "execute", Migrations: []store.Migration{
		{Name: "create exec_results", SQL: `CREATE TABLE IF NOT EXISTS exec_results (
		program BLOB NOT NULL,
		test BLOB NOT NULL,
		timeout_ms INTEGER NOT NULL,
		result TEXT NOT NULL,
		PRIMARY KEY (program, test, timeout_ms)
	) WITHOUT ROWID`},
	}}
}

// NewCache creates or upgrades the cache's table in db if needed.
func NewCache(ctx context.Context, db *sql.DB) (*Cache, error) {
	if err := store.Migrate(ctx, db, CacheSchema()); err != nil {
		return nil, fmt.Errorf("execution cache: %w", err)
	}
	get, err := db.PrepareContext(ctx, `SELECT test, timeout_ms, result FROM exec_results WHERE program = ?`)
	if err != nil {
		return nil, fmt.Errorf("execution cache: %w", err)
	}
	put, err := db.PrepareContext(ctx, `INSERT OR REPLACE INTO exec_results (program, test, timeout_ms, result) VALUES (?, ?, ?, ?)`)
	if err != nil {
		get.Close()
		return nil, fmt.Errorf("execution cache: %w", err)
	}
	return &Cache{db: db, get: get, put: put, batchRows: cacheBatchRows, pending: map[string]map[resultKey]string{}}, nil
}

// cacheKeys holds the hashes of one Run's programs and tests.
type cacheKeys struct {
	programs [][]byte
	tests    [][]byte
	ms       []int64
}

// harnessVersion names the rules by which results are decided and timed.
// Results stored under an earlier version are never reused: v1 let a
// program report its own verdicts; v2 timed a test from the fork of its
// process, so under load its times (and the limits scaled from a
// reference's time) grew with the scheduling delays; v3 ran a program in
// /tmp/run, v4 in /tmp itself (a program that looks at its working
// directory may answer differently); v5 gives a test only the names of
// the program it uses, and the real builtins (a program's own abs or len
// reached the tests before).
const harnessVersion = "harness-v6"

func newCacheKeys(programs []string, tests []Test, timeouts []float64, allowObjects bool) *cacheKeys {
	k := &cacheKeys{}
	mode := "plain"
	if allowObjects {
		mode = "objects"
	}
	for _, p := range programs {
		h := hashOf(p)
		k.programs = append(k.programs, h[:16])
	}
	for j, t := range tests {
		parts := []string{harnessVersion, mode, t.Setup, t.Code, t.Input, t.Expected, fmt.Sprint(t.Trusted), t.Entry}
		if t.Suite != nil {
			parts = append(parts, "suite", t.Suite.ID)
		}
		h := hashOf(parts...)
		ms := int64(timeouts[j]*1000 + 0.5)
		k.tests = append(k.tests, h[:16])
		k.ms = append(k.ms, ms)
	}
	return k
}

// resultKey identifies a cached result of one program: the test's hash and
// its time limit.
type resultKey struct {
	test [16]byte
	ms   int64
}

// lookup returns the cached results of distinct program d, by test index.
// Only the rows of the tests asked for are decoded: a program's rows hold
// every test it ever ran (a matrix, its hidden tests, its calls).
func (c *Cache) lookup(ctx context.Context, k *cacheKeys, d int) (map[int]Result, error) {
	want := make(map[resultKey][]int, len(k.tests))
	for j, t := range k.tests {
		var key resultKey
		copy(key.test[:], t)
		key.ms = k.ms[j]
		want[key] = append(want[key], j)
	}
	rows, err := c.get.QueryContext(ctx, k.programs[d])
	if err != nil {
		return nil, fmt.Errorf("read execution cache: %w", err)
	}
	defer rows.Close()
	out := make(map[int]Result, len(k.tests))
	for rows.Next() {
		var (
			test []byte
			key  resultKey
			js   []byte
		)
		if err := rows.Scan(&test, &key.ms, &js); err != nil {
			return nil, fmt.Errorf("read execution cache: %w", err)
		}
		if len(test) != len(key.test) {
			continue
		}
		copy(key.test[:], test)
		idx, ok := want[key]
		if !ok {
			continue
		}
		var r Result
		if err := json.Unmarshal(js, &r); err != nil {
			continue // an unreadable entry is simply recomputed
		}
		for _, j := range idx {
			out[j] = r
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read execution cache: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, js := range c.pending[string(k.programs[d])] {
		idx, ok := want[key]
		if !ok {
			continue
		}
		var r Result
		if err := json.Unmarshal([]byte(js), &r); err != nil {
			continue
		}
		for _, j := range idx {
			out[j] = r
		}
	}
	return out, nil
}

// cacheRow is one result on its way into the cache.
type cacheRow struct {
	program, test []byte
	ms            int64
	result        string
}

// rows returns the fresh results of distinct program d that may be stored,
// encoded.
func (c *Cache) rows(k *cacheKeys, d int, fresh map[int]Result) ([]cacheRow, error) {
	rows := make([]cacheRow, 0, len(fresh))
	for j, r := range fresh {
		if r.Outcome == Crash && strings.HasPrefix(r.Exception, "sandbox worker") ||
			r.Outcome == Timeout && r.Exception == ReducedLimit {
			continue // not a property of the program and the test alone
		}
		js, err := json.Marshal(r)
		if err != nil {
			return nil, fmt.Errorf("write execution cache: %w", err)
		}
		rows = append(rows, cacheRow{program: k.programs[d], test: k.tests[j], ms: k.ms[j], result: string(js)})
	}
	return rows, nil
}

// hold makes rows visible to lookups until they are written.
func (c *Cache) hold(rows []cacheRow) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range rows {
		m := c.pending[string(r.program)]
		if m == nil {
			m = map[resultKey]string{}
			c.pending[string(r.program)] = m
		}
		m[r.key()] = r.result
	}
}

// release forgets rows that were written, or failed to be (a later Run
// then computes them again), unless a newer result has replaced them.
func (c *Cache) release(rows []cacheRow) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range rows {
		m := c.pending[string(r.program)]
		if k := r.key(); m != nil && m[k] == r.result {
			delete(m, k)
			if len(m) == 0 {
				delete(c.pending, string(r.program))
			}
		}
	}
}

func (r cacheRow) key() resultKey {
	k := resultKey{ms: r.ms}
	copy(k.test[:], r.test)
	return k
}

// write stores rows, all or none: one row by itself, more in one
// transaction. Held rows are released either way.
func (c *Cache) write(ctx context.Context, rows []cacheRow) error {
	defer c.release(rows)
	switch len(rows) {
	case 0:
		return nil
	case 1: // one statement is atomic by itself: no BEGIN and COMMIT to parse and run
		r := rows[0]
		if _, err := c.put.ExecContext(ctx, r.program, r.test, r.ms, r.result); err != nil {
			return fmt.Errorf("write execution cache: %w", err)
		}
		return nil
	}
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("write execution cache: %w", err)
	}
	defer tx.Rollback()
	put := tx.StmtContext(ctx, c.put)
	for _, r := range rows {
		if _, err := put.ExecContext(ctx, r.program, r.test, r.ms, r.result); err != nil {
			return fmt.Errorf("write execution cache: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("write execution cache: %w", err)
	}
	return nil
}

// A Run's results go into the cache in batches: a commit costs more than
// the rows it writes (a Go profile of the full check had half of the Go
// side's CPU in committing one program's results at a time; batched, the
// Go side's CPU halved). A batch is written when a program's results
// arrive and it then holds cacheBatchRows rows or has held its oldest for
// cacheBatchAge, and whatever is left when the Run ends, even a cancelled
// one. A process killed outright loses what
// its local Runs had not written yet (computed again next time); results
// that are dear to compute again, a remote batch's and a JVM program's,
// are written as they arrive (runState.writeSaved).
const (
	cacheBatchRows = 256
	cacheBatchAge  = time.Second
)

// cacheBatch gathers the fresh results of one Run for the cache. It is safe
// for concurrent use.
type cacheBatch struct {
	cache *Cache
	keys  *cacheKeys

	mu    sync.Mutex
	rows  []cacheRow
	since time.Time // when the oldest of rows arrived
}

func (c *Cache) batch(keys *cacheKeys) *cacheBatch {
	return &cacheBatch{cache: c, keys: keys}
}

// add queues the fresh results of distinct program d (all of them go into
// the same transaction) and writes the batch if it is due.
func (b *cacheBatch) add(ctx context.Context, d int, fresh map[int]Result) error {
	rows, err := b.cache.rows(b.keys, d, fresh)
	if err != nil || len(rows) == 0 {
		return err
	}
	b.cache.hold(rows)
	b.mu.Lock()
	if len(b.rows) == 0 {
		b.since = time.Now()
	}
	b.rows = append(b.rows, rows...)
	var due []cacheRow
	if len(b.rows) >= b.cache.batchRows || time.Since(b.since) >= cacheBatchAge {
		due, b.rows = b.rows, nil
	}
	b.mu.Unlock()
	if due == nil {
		return nil
	}
	// (Taken out of the batch, the rows are written even if ctx ends now:
	// results computed are not thrown away.)
	return b.cache.write(context.WithoutCancel(ctx), due)
}

// flush writes what the batch holds, even when ctx has ended.
func (b *cacheBatch) flush(ctx context.Context) error {
	b.mu.Lock()
	due := b.rows
	b.rows = nil
	b.mu.Unlock()
	return b.cache.write(context.WithoutCancel(ctx), due)
}
