// Package store opens the SQLite database that ticoder keeps its caches,
// sessions and benchmark state in.
//
// One file holds everything (the LLM response cache, the execution cache, web
// sessions, the quality-estimation pool). It is opened in WAL mode with a busy
// timeout so that several ticoder processes can share it. SQLite is
// modernc.org/sqlite, a pure-Go translation: no cgo, one static binary.
//
// Schema: store owns how tables change, each package owns its SQL. A package
// that keeps tables declares a Schema (its component name and ordered
// migrations, each a name and SQL text or a function) and calls Migrate with
// it when it opens its part of the database. Migrate applies the pending
// steps in one transaction and records them in the schema_migrations table
// (component, version, name, applied). An older database is upgraded in
// place; one written by a newer ticoder (a version above what this build
// knows) is refused with a *NewerSchemaError. Version 1 of every component
// is the CREATE TABLE IF NOT EXISTS text it ran before versions existed, so
// databases from then are taken over with their rows. store imports none of
// the packages that use it.
//
// It must not know what a table means: each package owns its SQL.
package store
