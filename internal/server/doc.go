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
// every error is a JSON {"error": "..."} written for a person (capped at
// 2 KiB, as it may quote the sandbox), which the page shows.
//
// Only the user's own clients may use the server. A request whose Host does
// not name the server (DNS rebinding) is refused, as is one that a browser
// sends from another site's page (its Origin or Sec-Fetch-Site says so); an
// API request that changes something must be JSON, which another site's page
// cannot send without a CORS preflight, and no CORS header is ever sent. A
// server with an access token (Options.Token; ticoder serve makes one when it
// listens off loopback) requires it on every API request. Every response has
// a strict Content-Security-Policy and forbids framing and MIME sniffing.
// Output-mode values must be Python literals (interact.CheckValue), or in a
// Java session Java values (lang/java's ReadValue): code typed as a value is
// refused before anything runs.
//
// server must not hold TiCoder's rules: it serves interact's conversations.
package server
