package server

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/session"
)

// httpError is an error with the status to send.
type httpError struct {
	status int
	err    error
}

// Error returns the wrapped error's message.
func (e *httpError) Error() string { return e.err.Error() }

// Unwrap returns the wrapped error.
func (e *httpError) Unwrap() error { return e.err }

// withStatus marks err to be sent with status.
func withStatus(status int, err error) error { return &httpError{status: status, err: err} }

// statusOf picks the HTTP status of an error.
func statusOf(err error) int {
	var he *httpError
	var se *interact.SyntaxError
	var mb *http.MaxBytesError
	var le *llm.Error
	switch {
	case errors.As(err, &he):
		return he.status
	case errors.As(err, &mb):
		return http.StatusRequestEntityTooLarge
	case errors.As(err, &le):
		return http.StatusBadGateway
	case errors.Is(err, errNoSession):
		return http.StatusNotFound
	case errors.Is(err, session.ErrNotAsked), errors.Is(err, interact.ErrFinished), errors.Is(err, interact.ErrNoCandidate):
		return http.StatusConflict
	case errors.As(err, &se), errors.Is(err, session.ErrBadAnswer), errors.Is(err, session.ErrBadValue),
		errors.Is(err, session.ErrNothingToUndo), errors.Is(err, demo.ErrUnknown), errors.Is(err, interact.ErrNoModel),
		errors.Is(err, interact.ErrBadCandidate), errors.Is(err, interact.ErrEmptyValue), errors.Is(err, interact.ErrNotLiteral),
		errors.Is(err, interact.ErrBadSource), errors.Is(err, dataset.ErrUnknown):
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

// advice returns the web server's own words for what to do about err (the
// shared packages' errors name no command-line flags), or "".
func advice(err error) string {
	switch {
	case errors.Is(err, interact.ErrNoModel):
		return "; this server was started without a model, so only the demos work here: choose a demo, or restart it with ticoder serve --model MODEL"
	case errors.Is(err, interact.ErrNeedsOutputMode):
		return "; to give outputs, start a new session in Output mode"
	case errors.Is(err, interact.ErrNoSignature):
		return "; send the signature with the prompt"
	case errors.Is(err, interact.ErrNoCandidates), errors.Is(err, interact.ErrNoTests):
		return "; try again: a new session asks the model for new samples"
	}
	return ""
}

// maxErrorText bounds the message of an error response: errors may quote
// what the sandbox said, which a program or a value can make long.
const maxErrorText = 2 << 10

// capText shortens s to at most n bytes, on a rune boundary, saying how
// much was cut.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + itoa(int64(len(s)-cut)) + " more bytes cut)"
}

// writeError sends err as an api.Error, its message capped at
// maxErrorText.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status := statusOf(err)
	msg := capText(err.Error()+advice(err), maxErrorText)
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		msg = "the request is too large (limit " + humanBytes(mb.Limit) + "); send a shorter spec or value"
	}
	switch {
	case status == http.StatusBadGateway:
		s.log.Warn("model failed", "method", r.Method, "path", r.URL.Path, "err", err)
	case status >= 500:
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	default:
		s.log.Debug("request refused", "method", r.Method, "path", r.URL.Path, "status", status, "err", err)
	}
	writeJSON(w, status, api.Error{Error: msg})
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return itoa(n>>20) + " MiB"
	case n >= 1<<10:
		return itoa(n>>10) + " KiB"
	}
	return itoa(n) + " bytes"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// writeJSON sends v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		slog.Debug("write response", "err", err)
	}
}
