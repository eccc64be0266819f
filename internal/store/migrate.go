package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Migration is one step of a component's schema: SQL text, or a function for
// a step that SQL alone cannot express. Exactly one of SQL and Func is set.
// A step runs inside the transaction that records it, so it is applied whole
// or not at all.
type Migration struct {
	// Name says what the step does, e.g. "create llm_responses". It is
	// recorded beside the version.
	Name string
	// SQL is run with ExecContext; it may hold several statements.
	SQL string
	// Func, if SQL is empty, makes the change itself.
	Func func(ctx context.Context, tx *sql.Tx) error
}

// Schema is the ordered list of migrations of one component (a package that
// keeps tables in the database). Its version is the number of migrations;
// migration i (from 0) brings the component to version i+1. Append new
// steps; never edit or reorder released ones.
//
// The first step of a component that predates versioning must be the
// CREATE TABLE IF NOT EXISTS statements it ran before, so that a database
// written then is taken over as version 1 with its rows.
type Schema struct {
	// Component names the owner, e.g. "llm"; it is the key in
	// schema_migrations.
	Component string
	// Migrations are the steps, oldest first.
	Migrations []Migration
}

// Version returns the version this build of the component knows.
func (s Schema) Version() int { return len(s.Migrations) }

// ErrNewerSchema means the database was written by a newer ticoder than
// this one: it has migrations this build does not know.
var ErrNewerSchema = errors.New("database written by a newer ticoder")

// NewerSchemaError says which component of the database is ahead of this
// build. It matches ErrNewerSchema with errors.Is.
type NewerSchemaError struct {
	// Component is the schema's owner.
	Component string
	// Have is the version recorded in the database.
	Have int
	// Know is the newest version this build knows.
	Know int
}

func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("%s: the %s tables are at schema version %d, this ticoder knows only up to %d: "+
		"use a newer ticoder with this database, or another database file", ErrNewerSchema, e.Component, e.Have, e.Know)
}

// Unwrap returns ErrNewerSchema.
func (e *NewerSchemaError) Unwrap() error { return ErrNewerSchema }

// migrationsTable records every applied step, one row per component and
// version.
const migrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	component TEXT NOT NULL,
	version   INTEGER NOT NULL,
	name      TEXT NOT NULL,
	applied   INTEGER NOT NULL,
	PRIMARY KEY (component, version)
)`

// Migrate brings each schema in db up to date: in one transaction per
// schema it applies the migrations not yet recorded in schema_migrations,
// in order, and records them. A database already at the newest version is
// left alone; one with a version above what s knows is refused with a
// *NewerSchemaError. Several processes may migrate the same file at once
// (store.Open makes transactions take the write lock when they begin).
func Migrate(ctx context.Context, db *sql.DB, schemas ...Schema) error {
	for _, s := range schemas {
		if err := migrate(ctx, db, s); err != nil {
			return err
		}
	}
	return nil
}

func migrate(ctx context.Context, db *sql.DB, s Schema) error {
	if s.Component == "" {
		return errors.New("migrate: a schema with no component name")
	}
	// Fast path, without the write lock: nothing to do.
	have, err := currentVersion(ctx, db, s.Component)
	if err == nil && have == s.Version() {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate %s tables: %w", s.Component, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, migrationsTable); err != nil {
		return fmt.Errorf("migrate %s tables: create schema_migrations: %w", s.Component, err)
	}
	if have, err = currentVersion(ctx, tx, s.Component); err != nil {
		return fmt.Errorf("migrate %s tables: %w", s.Component, err)
	}
	if have > s.Version() {
		return &NewerSchemaError{Component: s.Component, Have: have, Know: s.Version()}
	}
	now := time.Now().Unix()
	for i := have; i < s.Version(); i++ {
		m := s.Migrations[i]
		switch {
		case m.SQL != "":
			_, err = tx.ExecContext(ctx, m.SQL)
		case m.Func != nil:
			err = m.Func(ctx, tx)
		default:
			err = errors.New("neither SQL nor Func")
		}
		if err != nil {
			return fmt.Errorf("migrate %s tables to version %d (%s): %w", s.Component, i+1, m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (component, version, name, applied) VALUES (?, ?, ?, ?)`,
			s.Component, i+1, m.Name, now); err != nil {
			return fmt.Errorf("record %s migration %d: %w", s.Component, i+1, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate %s tables: %w", s.Component, err)
	}
	return nil
}

// querier is what currentVersion needs of a *sql.DB or *sql.Tx.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// currentVersion returns the highest version recorded for component; an
// error when schema_migrations does not exist yet.
func currentVersion(ctx context.Context, q querier, component string) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations WHERE component = ?`, component).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}
