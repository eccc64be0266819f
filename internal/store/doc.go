// Package store opens the SQLite database that ticoder keeps its caches,
// sessions and benchmark state in.
//
// One file holds everything (the LLM response cache, the execution cache, web
// sessions, the quality-estimation pool). It is opened in WAL mode with a busy
// timeout so that several ticoder processes can share it, and each package
// creates the tables it owns with CREATE TABLE IF NOT EXISTS. SQLite is
// modernc.org/sqlite, a pure-Go translation: no cgo, one static binary.
package store
