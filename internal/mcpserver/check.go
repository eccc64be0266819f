package mcpserver

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/estimate"
)

// Limits on check_code and estimate_quality.
const (
	maxCode     = 256 << 10
	maxTests    = 200
	maxTestCode = 4 << 10
	maxCands    = 100
	maxCand     = 64 << 10
)

// identifier matches a Python identifier (ASCII).
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,99}$`)

// checkTool runs code against a session's approved tests or given asserts.
func (s *Server) checkTool(ctx context.Context, req *mcp.CallToolRequest, in CheckInput) (*mcp.CallToolResult, CheckOutput, error) {
	ex, err := s.checkExport(in)
	if err != nil {
		return nil, CheckOutput{}, err
	}
	n := newNotifier(ctx, req)
	n.Start("run the tests in the sandbox", 1)
	err = interact.CheckExport(ctx, s.opts.Runner, &ex)
	n.Finish()
	if err != nil {
		return nil, CheckOutput{}, err
	}
	return nil, CheckOutput{Passed: ex.Passed, TestCount: ex.TestCount, Failures: ex.Failures}, nil
}

// checkExport returns in's code with the tests to run as a pytest file.
func (s *Server) checkExport(in CheckInput) (api.Export, error) {
	switch {
	case len(in.Code) > maxCode:
		return api.Export{}, fmt.Errorf("code has %d characters; the limit is %d", len(in.Code), maxCode)
	case in.Code == "":
		return api.Export{}, fmt.Errorf("give the code to check")
	case (in.SessionID == "") == (len(in.Tests) == 0):
		return api.Export{}, fmt.Errorf("give either session_id (its approved tests) or tests (assert statements), not both or neither")
	case len(in.Tests) > maxTests:
		return api.Export{}, fmt.Errorf("%d tests; the limit is %d", len(in.Tests), maxTests)
	}
	if in.SessionID != "" {
		cv, err := s.store.get(in.SessionID)
		if err != nil {
			return api.Export{}, err
		}
		defer cv.mu.Unlock()
		ex, err := cv.conv.Export(context.Background(), -1, false)
		if err != nil {
			return api.Export{}, err
		}
		ex.Code = in.Code
		return ex, nil
	}
	if !identifier.MatchString(in.Entry) {
		return api.Export{}, fmt.Errorf("entry_point %q: give the function's name (a Python identifier) with tests", clipID(in.Entry))
	}
	tests := make([]execute.Test, len(in.Tests))
	for i, t := range in.Tests {
		if len(t) > maxTestCode {
			return api.Export{}, fmt.Errorf("test %d has %d characters; the limit is %d", i+1, len(t), maxTestCode)
		}
		tests[i] = execute.Test{Code: t}
	}
	ex := api.Export{CodeFile: "solution.py", Code: in.Code, TestFile: "test_solution.py"}
	ex.Tests, ex.TestCount = interact.PytestFile("solution", in.Entry, tests, nil)
	return ex, nil
}

// qualityTool ranks candidates with the execution-based estimator.
func (s *Server) qualityTool(ctx context.Context, req *mcp.CallToolRequest, in QualityInput) (*mcp.CallToolResult, QualityOutput, error) {
	switch {
	case in.Prompt == "" || len(in.Prompt) > maxStub:
		return nil, QualityOutput{}, fmt.Errorf("prompt: give the function's stub (def line and docstring), at most %d characters", maxStub)
	case len(in.Candidates) == 0 || len(in.Candidates) > maxCands:
		return nil, QualityOutput{}, fmt.Errorf("give 1 to %d candidates (got %d)", maxCands, len(in.Candidates))
	case in.Entry != "" && !identifier.MatchString(in.Entry):
		return nil, QualityOutput{}, fmt.Errorf("entry_point %q is not a Python identifier", clipID(in.Entry))
	}
	for i, c := range in.Candidates {
		if len(c) > maxCand {
			return nil, QualityOutput{}, fmt.Errorf("candidate %d has %d characters; the limit is %d", i, len(c), maxCand)
		}
	}
	est := &estimate.Agree{Runner: s.opts.Runner, Timeout: time.Second}
	n := newNotifier(ctx, req)
	n.Start("run the candidates in the sandbox", 1)
	scores, err := est.Score(ctx, qe.Problem{Dataset: "mcp", TaskID: "estimate_quality", Prompt: in.Prompt, EntryPoint: in.Entry}, in.Candidates)
	n.Finish()
	if err != nil {
		return nil, QualityOutput{}, err
	}
	out := QualityOutput{Estimator: est.Name(), Ranked: make([]Scored, len(scores))}
	for i, sc := range scores {
		out.Ranked[i] = Scored{Index: i, Score: sc}
	}
	sort.SliceStable(out.Ranked, func(a, b int) bool { return out.Ranked[a].Score > out.Ranked[b].Score })
	return nil, out, nil
}
