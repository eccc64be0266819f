// Package server is ticoder's web front end: a JSON API under /api/ (its
// wire types are in package api) and a single page, embedded in the binary,
// that walks a user through a TiCoder session — the task, one question at a
// time with large answer buttons and a field for the right output, the
// shrinking list of candidates, and a final view with the code, the approved
// tests and downloads.
//
// Sessions live in memory while in use and in the SQLite database (table
// web_sessions) after every change, so a restarted server resumes them. Many
// sessions run at once; each has its own lock, so answers to one session are
// applied one at a time and in order. Request bodies are size-limited, and
// every error is a JSON {"error": "..."} written for a person, which the page
// shows.
package server
