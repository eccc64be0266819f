package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/ticoder/ticoder/api"
)

func (s *Server) handleGet(w http.ResponseWriter, r *http.Request, id string, e *entry) {
	writeJSON(w, http.StatusOK, e.conv.State(id))
}

// change applies a change to a session and stores it; if storing fails the
// session is reloaded from the database, so memory never holds an answer
// the database lost.
func (s *Server) change(w http.ResponseWriter, r *http.Request, id string, e *entry, apply func(ctx context.Context) error) {
	if err := apply(r.Context()); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.persist(r.Context(), id, e); err != nil {
		s.forget(id)
		s.writeError(w, r, fmt.Errorf("could not save the change, so it was not made; try again: %w", err))
		return
	}
	writeJSON(w, http.StatusOK, e.conv.State(id))
}

func (s *Server) handleAnswer(w http.ResponseWriter, r *http.Request, id string, e *entry) {
	var a api.Answer
	if err := decode(w, r, &a); err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(a.Value) > maxValue {
		s.writeError(w, r, withStatus(http.StatusRequestEntityTooLarge, fmt.Errorf("the value is %d bytes; the limit is %s", len(a.Value), humanBytes(maxValue))))
		return
	}
	s.change(w, r, id, e, func(ctx context.Context) error {
		return e.conv.Answer(ctx, a.Test, a.Verdict, a.Value)
	})
}

func (s *Server) handleUndo(w http.ResponseWriter, r *http.Request, id string, e *entry) {
	s.change(w, r, id, e, func(context.Context) error { return e.conv.Undo() })
}

func (s *Server) handleStop(w http.ResponseWriter, r *http.Request, id string, e *entry) {
	s.change(w, r, id, e, func(context.Context) error { e.conv.Stop(); return nil })
}

func (s *Server) handleCandidates(w http.ResponseWriter, r *http.Request, id string, e *entry) {
	writeJSON(w, http.StatusOK, e.conv.Candidates())
}

func (s *Server) handleExport(w http.ResponseWriter, r *http.Request, id string, e *entry) {
	cand := -1
	if v := r.URL.Query().Get("candidate"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			s.writeError(w, r, withStatus(http.StatusBadRequest, fmt.Errorf("candidate %q: want the index of a remaining candidate", v)))
			return
		}
		cand = n
	}
	download := r.URL.Query().Get("download")
	if download != "" && download != "code" && download != "tests" && download != "patch" {
		s.writeError(w, r, withStatus(http.StatusBadRequest, fmt.Errorf("download %q: want code, tests or patch", download)))
		return
	}
	ex, err := e.conv.Export(r.Context(), cand, download == "")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	for i, f := range ex.Failures { // what the sandbox said
		ex.Failures[i] = capText(f, maxErrorText)
	}
	if download != "" {
		name, body := ex.CodeFile, ex.Code
		ctype := "text/x-python; charset=utf-8"
		switch download {
		case "tests":
			name, body = ex.TestFile, ex.Tests
		case "patch":
			if ex.PatchFile == "" {
				s.writeError(w, r, withStatus(http.StatusBadRequest, errors.New("download patch: only a session on a project's function has a patch")))
				return
			}
			name, body, ctype = ex.PatchFile, ex.Patch, "text/x-diff; charset=utf-8"
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
		_, _ = io.WriteString(w, body)
		return
	}
	writeJSON(w, http.StatusOK, ex)
}
