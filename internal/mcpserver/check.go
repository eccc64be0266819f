package mcpserver

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/estimate"
	"github.com/ticoder/ticoder/internal/srcscan"
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
	entry := in.Entry
	if entry == "" {
		var err error
		if entry, err = onlyDef(in.Code); err != nil {
			return api.Export{}, err
		}
	}
	if !identifier.MatchString(entry) {
		return api.Export{}, fmt.Errorf("entry_point %q: give the function's name (a Python identifier) with tests", clipID(entry))
	}
	tests := make([]execute.Test, len(in.Tests))
	for i, t := range in.Tests {
		if len(t) > maxTestCode {
			return api.Export{}, fmt.Errorf("test %d has %d characters; the limit is %d", i+1, len(t), maxTestCode)
		}
		tests[i] = execute.Test{Code: t}
	}
	ex := api.Export{CodeFile: "solution.py", Code: in.Code, TestFile: "test_solution.py"}
	ex.Tests, ex.TestCount = interact.PytestFile("solution", entry, tests, nil)
	return ex, nil
}

// onlyDef returns the name of the one function code defines at the top
// level (def or async def; a name defined twice counts once): the entry
// point check_code assumes when none is given. With none or several it
// says to give entry_point.
func onlyDef(code string) (string, error) {
	toks := srcscan.Tokens(code)
	var names []string
	for i, t := range toks {
		if t.Kind != srcscan.Name || t.Depth != 0 || t.Text(code) != "def" || i+1 == len(toks) || toks[i+1].Kind != srcscan.Name {
			continue
		}
		name := clipID(toks[i+1].Text(code))
		if (t.First && srcscan.Column(code, t.Start) == 0 || asyncDef(code, toks, i)) && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	switch len(names) {
	case 1:
		return names[0], nil
	case 0:
		return "", fmt.Errorf("the code defines no top-level function: give entry_point, the name of the function the tests call")
	}
	shown := names
	if len(shown) > 5 {
		shown = append(shown[:5:5], "…")
	}
	return "", fmt.Errorf("the code defines %d top-level functions (%s): give entry_point, the one the tests call", len(names), strings.Join(shown, ", "))
}

// asyncDef reports whether toks[i], a def, follows an async that starts a
// top-level line.
func asyncDef(code string, toks []srcscan.Token, i int) bool {
	return i > 0 && toks[i-1].First && toks[i-1].Text(code) == "async" && srcscan.Column(code, toks[i-1].Start) == 0
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
