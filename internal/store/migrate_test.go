package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// openTemp opens a fresh database file in a temporary directory.
func openTemp(t *testing.T) (*sql.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

func count(t *testing.T, db *sql.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

var (
	v1 = Migration{Name: "create t", SQL: `CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY)`}
	v2 = Migration{Name: "add t.n", SQL: `ALTER TABLE t ADD COLUMN n INTEGER NOT NULL DEFAULT 7`}
	v3 = Migration{Name: "copy to u", Func: func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE u (k TEXT, n INTEGER)`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO u SELECT k, n FROM t`)
		return err
	}}
	bad = Migration{Name: "broken", SQL: `CREATE TABLE w (x); SELECT * FROM no_such_table`}
)

func TestMigrate(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		steps   [][]Migration // schemas applied one after the other, as successive builds would
		wantErr error         // of the last step; nil means success
		version int           // recorded afterwards
		check   func(t *testing.T, db *sql.DB)
	}{
		{name: "fresh", steps: [][]Migration{{v1, v2}}, version: 2},
		{name: "idempotent", steps: [][]Migration{{v1, v2}, {v1, v2}}, version: 2},
		{name: "upgrade keeps rows", steps: [][]Migration{{v1}, {v1, v2, v3}}, version: 3,
			check: func(t *testing.T, db *sql.DB) {
				if n := count(t, db, `SELECT COUNT(*) FROM u WHERE k = 'row' AND n = 7`); n != 1 {
					t.Errorf("row after upgrade: %d, want 1", n)
				}
			}},
		{name: "newer database refused", steps: [][]Migration{{v1, v2}, {v1}}, wantErr: ErrNewerSchema, version: 2},
		{name: "failed step rolls back", steps: [][]Migration{{v1}, {v1, v2, bad}}, wantErr: errAny, version: 1,
			check: func(t *testing.T, db *sql.DB) {
				if n := count(t, db, `SELECT COUNT(*) FROM pragma_table_info('t') WHERE name = 'n'`); n != 0 {
					t.Error("column n added although a later step of the same migration failed")
				}
				if n := count(t, db, `SELECT COUNT(*) FROM sqlite_master WHERE name = 'w'`); n != 0 {
					t.Error("table w created although its step failed")
				}
			}},
		{name: "empty step", steps: [][]Migration{{v1}, {v1, {Name: "nothing"}}}, wantErr: errAny, version: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, _ := openTemp(t)
			var err error
			for i, steps := range tt.steps {
				err = Migrate(ctx, db, Schema{Component: "c", Migrations: steps})
				if i == 0 && err == nil {
					if _, err := db.Exec(`INSERT INTO t (k) VALUES ('row')`); err != nil {
						t.Fatal(err)
					}
				}
				if i < len(tt.steps)-1 && err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
			}
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("Migrate: %v", err)
			case tt.wantErr == errAny && err == nil, tt.wantErr != nil && tt.wantErr != errAny && !errors.Is(err, tt.wantErr):
				t.Fatalf("Migrate error = %v, want %v", err, tt.wantErr)
			}
			if got := count(t, db, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations WHERE component = 'c'`); got != tt.version {
				t.Errorf("recorded version %d, want %d", got, tt.version)
			}
			if tt.check != nil {
				tt.check(t, db)
			}
		})
	}
}

// errAny stands for "some error" in TestMigrate's table.
var errAny = errors.New("any error")

func TestNewerSchemaErrorSaysWhatToDo(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	if err := Migrate(ctx, db, Schema{Component: "llm", Migrations: []Migration{v1, v2}}); err != nil {
		t.Fatal(err)
	}
	err := Migrate(ctx, db, Schema{Component: "llm", Migrations: []Migration{v1}})
	var newer *NewerSchemaError
	if !errors.As(err, &newer) || newer.Component != "llm" || newer.Have != 2 || newer.Know != 1 {
		t.Fatalf("err = %#v, want a NewerSchemaError for llm 2 > 1", err)
	}
	want := "database written by a newer ticoder: the llm tables are at schema version 2, this ticoder knows only up to 1: use a newer ticoder with this database, or another database file"
	if err.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", err, want)
	}
}

// TestMigrateComponentsIndependent checks that components keep their own
// versions in one database.
func TestMigrateComponentsIndependent(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	a := Schema{Component: "a", Migrations: []Migration{{Name: "a1", SQL: `CREATE TABLE a (x)`}}}
	b := Schema{Component: "b", Migrations: []Migration{{Name: "b1", SQL: `CREATE TABLE b (x)`}, {Name: "b2", SQL: `CREATE TABLE b2 (x)`}}}
	if err := Migrate(ctx, db, a, b); err != nil {
		t.Fatal(err)
	}
	if err := Migrate(ctx, db, b, a); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, `SELECT COUNT(*) FROM schema_migrations`); n != 3 {
		t.Errorf("%d migrations recorded, want 3", n)
	}
}

// TestMigrateConcurrent migrates one file from several connections at once,
// as several ticoder processes starting together would.
func TestMigrateConcurrent(t *testing.T) {
	_, path := openTemp(t)
	ctx := context.Background()
	s := Schema{Component: "c", Migrations: []Migration{v1, v2}}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			db, err := Open(path)
			if err != nil {
				errs <- err
				return
			}
			defer db.Close()
			errs <- Migrate(ctx, db, s)
		}()
	}
	for range 4 {
		select {
		case err := <-errs:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(time.Minute):
			t.Fatal("concurrent migrations did not finish within a minute")
		}
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := count(t, db, `SELECT COUNT(*) FROM schema_migrations`); n != 2 {
		t.Errorf("%d migrations recorded, want 2", n)
	}
}
