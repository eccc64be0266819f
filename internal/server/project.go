package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
)

// Projects gives the server the functions of one project (serve
// --project) and opens sessions on them as `run --spec FILE::NAME` does.
// Its methods must be safe for concurrent use. Paths come from the
// browser: an implementation takes only a file it listed.
type Projects interface {
	// Root returns the project's directory.
	Root() string
	// Functions lists the project's functions.
	Functions(ctx context.Context) (api.Project, error)
	// Open prepares a session on function in file, exactly as Functions
	// listed them: the source, and the builder and runner that run its
	// candidates as the project's module. Anything else is refused with
	// an error that matches interact.ErrBadSource.
	Open(ctx context.Context, file, function string) (interact.Source, *interact.Builder, execute.Runner, error)
	// Reopen returns the builder and runner of a stored session on one of
	// the project's functions (after a restart).
	Reopen(ctx context.Context, t *interact.ModuleTarget) (*interact.Builder, execute.Runner, error)
	// Write puts conv's candidate into the project's file in place and
	// appends the approved tests to the project's tests, then runs them
	// once; it reports what it did. A file changed since the session began
	// is not written: the error matches ErrFileChanged.
	Write(ctx context.Context, conv *interact.Conversation, candidate int) (string, error)
}

// ErrFileChanged matches (with errors.Is) an error of Projects.Write when
// the project's file changed since the session began.
var ErrFileChanged = errors.New("the file changed since the session began")

// errNoProject: the server has no project.
var errNoProject = errors.New("this server offers no project's functions: start it with ticoder serve --project DIR")

func (s *Server) handleProject(w http.ResponseWriter, r *http.Request) {
	if s.opts.Projects == nil {
		s.writeError(w, r, withStatus(http.StatusNotFound, errNoProject))
		return
	}
	p, err := s.opts.Projects.Functions(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// projectSource returns the source, builder and runner of a session on a
// project's function that req names.
func (s *Server) projectSource(ctx context.Context, req api.CreateSession) (interact.Source, *interact.Builder, execute.Runner, error) {
	if s.opts.Projects == nil {
		return interact.Source{}, nil, nil, withStatus(http.StatusBadRequest, errNoProject)
	}
	if req.File == "" || req.Function == "" || req.Demo != "" || req.Spec != "" || req.Prompt != "" || req.Task != "" {
		return interact.Source{}, nil, nil, withStatus(http.StatusBadRequest,
			errors.New("a session on a project's function takes file and function, and nothing else to say what the code is for"))
	}
	return s.opts.Projects.Open(ctx, req.File, req.Function)
}

func (s *Server) handleWrite(w http.ResponseWriter, r *http.Request, id string, e *entry) {
	var req api.WriteRequest
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if s.opts.Projects == nil || e.conv.Module() == nil {
		s.writeError(w, r, withStatus(http.StatusBadRequest, errors.New("only a session on a function of the server's project can be written in place")))
		return
	}
	if req.Candidate < -1 {
		s.writeError(w, r, withStatus(http.StatusBadRequest, fmt.Errorf("candidate %d: want the index of a remaining candidate, or -1", req.Candidate)))
		return
	}
	report, err := s.opts.Projects.Write(r.Context(), e.conv, req.Candidate)
	if errors.Is(err, ErrFileChanged) {
		err = withStatus(http.StatusConflict, err)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, api.Written{Report: capText(report, 16<<10)})
}

// projectRunners returns the builder and runners of a stored session on
// the project's function t (err: t could not be read).
func (s *Server) projectRunners(ctx context.Context, t *interact.ModuleTarget, err error) (*interact.Builder, func(string) execute.Runner, error) {
	if err != nil {
		return nil, nil, err
	}
	if s.opts.Projects == nil {
		return nil, nil, withStatus(http.StatusConflict, fmt.Errorf("it works on %s::%s in a project: %w", t.Rel, t.Name, errNoProject))
	}
	b, r, err := s.opts.Projects.Reopen(ctx, t)
	if err != nil {
		return nil, nil, err
	}
	return b, func(string) execute.Runner { return r }, nil
}
