package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
)

// Limits on tool arguments.
const (
	maxStub        = 64 << 10
	maxDescription = 16 << 10
	maxSignature   = 2 << 10
	maxTask        = 200
	maxSamples     = 100
	maxRanked      = 5
)

// addTools registers the tools.
func (s *Server) addTools() {
	no := false
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  "clarify",
		Title: "Clarify a function with the human",
		Description: `Clarify what a Python or Java function should do before trusting code for it. Give a stub (def line and docstring), or a description with a signature, or a demo name, or a benchmark task.
ticoder generates candidate implementations and tests, runs them in a sandbox and asks the human, through the client, the few yes/no questions that split the candidates best.
It returns ranked code, the approved tests as a pytest file, and what each answer ruled out.
If the client cannot ask the human, it returns "pending": relay pending.question to the human, then call answer_question and finish.`,
		Annotations: &mcp.ToolAnnotations{Title: "Clarify a function", OpenWorldHint: &no},
	}, s.clarify)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  "start_clarification",
		Title: "Start a clarification session",
		Description: `Start clarifying a Python or Java function (same input as clarify) and return the first question, for agents that ask the human themselves.
Relay question.prompt to the human, then call answer_question with the session_id, the question's test id and the answer; repeat until done, then call finish.`,
		Annotations: &mcp.ToolAnnotations{Title: "Start a clarification", OpenWorldHint: &no},
	}, s.startTool)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "answer_question",
		Title:       "Answer the pending question",
		Description: `Give the human's answer to the pending question of a session: yes, no, invalid (the input is not valid, or the human does not know), or output with the value the call should return (mode output). Returns the next question, or done.`,
		Annotations: &mcp.ToolAnnotations{Title: "Answer a question", OpenWorldHint: &no},
	}, s.answerTool)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "undo",
		Title:       "Take back the last answer",
		Description: `Take back the last answer of a session (or resume a stopped one) and return the question again.`,
		Annotations: &mcp.ToolAnnotations{Title: "Undo an answer", OpenWorldHint: &no},
	}, s.undoTool)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "finish",
		Title:       "Finish a session",
		Description: `End the questions of a session and return the best-ranked code (or the chosen candidate), the approved tests as a pytest file (checked against the code in the sandbox), and what each answer ruled out.`,
		Annotations: &mcp.ToolAnnotations{Title: "Finish a clarification", OpenWorldHint: &no},
	}, s.finishTool)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "check_code",
		Title:       "Check code against approved tests",
		Description: `Run Python code against the tests approved in a session, or against given assert statements, in ticoder's sandbox, and report which pass.`,
		Annotations: &mcp.ToolAnnotations{Title: "Check code", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, s.checkTool)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "estimate_quality",
		Title:       "Rank candidates by estimated correctness",
		Description: `Rank candidate implementations of a Python function by estimated functional correctness, without tests: each candidate runs (in the sandbox) on the docstring's examples and on inputs derived from them, and scores by the examples it passes and how much it agrees with the others.`,
		Annotations: &mcp.ToolAnnotations{Title: "Estimate quality", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, s.qualityTool)
}

// clarify runs the whole loop, asking through elicitation when it can.
func (s *Server) clarify(ctx context.Context, req *mcp.CallToolRequest, in SourceInput) (*mcp.CallToolResult, ClarifyOutput, error) {
	n := newNotifier(ctx, req)
	cv, err := s.start(ctx, req, in, n)
	if err != nil {
		return nil, ClarifyOutput{}, err
	}
	defer cv.mu.Unlock()
	if !canElicit(req.Session) {
		return nil, ClarifyOutput{Pending: s.state(cv)}, nil
	}
	if err := s.askAll(ctx, req.Session, cv, n); err != nil {
		if ctx.Err() != nil {
			return nil, ClarifyOutput{}, ctx.Err()
		}
		return nil, ClarifyOutput{}, fmt.Errorf("%w (the answers so far are kept in session %s: continue with answer_question or finish)", err, cv.id)
	}
	r, err := s.finish(ctx, req, cv, -1)
	if err != nil {
		return nil, ClarifyOutput{}, err
	}
	return nil, ClarifyOutput{Result: r}, nil
}

// startTool starts a session and returns its first question.
func (s *Server) startTool(ctx context.Context, req *mcp.CallToolRequest, in SourceInput) (*mcp.CallToolResult, State, error) {
	cv, err := s.start(ctx, req, in, newNotifier(ctx, req))
	if err != nil {
		return nil, State{}, err
	}
	defer cv.mu.Unlock()
	return nil, *s.state(cv), nil
}

// answerTool answers the pending question.
func (s *Server) answerTool(ctx context.Context, req *mcp.CallToolRequest, in AnswerInput) (*mcp.CallToolResult, State, error) {
	verdict, ok := verdicts[strings.ToLower(strings.TrimSpace(in.Answer))]
	if !ok {
		return nil, State{}, fmt.Errorf("unknown answer %q: answer yes, no, invalid or output (with value)", clipID(in.Answer))
	}
	if len(in.Value) > maxValue {
		return nil, State{}, fmt.Errorf("the value has %d characters; the limit is %d", len(in.Value), maxValue)
	}
	if verdict != "output" && strings.TrimSpace(in.Value) != "" {
		return nil, State{}, fmt.Errorf("a value goes only with answer output (the call should return value instead)")
	}
	cv, err := s.store.get(in.SessionID)
	if err != nil {
		return nil, State{}, err
	}
	defer cv.mu.Unlock()
	question := in.Question
	if q, ok := cv.conv.Question(); ok && question != q.Test && question == q.Number {
		// An agent shown the question as #N passes N: only the pending
		// question can be answered, so its number names it as well.
		question = q.Test
	}
	if err := cv.conv.Answer(ctx, question, verdict, in.Value); err != nil {
		return nil, State{}, err
	}
	return nil, *s.state(cv), nil
}

// verdicts maps the answers answer_question takes to interact's verdicts.
var verdicts = map[string]string{
	"yes": "pass", "y": "pass", "pass": "pass",
	"no": "fail", "n": "fail", "fail": "fail",
	"invalid": "undefined", "invalid input": "undefined", "don't know": "undefined", "undefined": "undefined", "d": "undefined",
	"output": "output", "o": "output",
}

// undoTool takes back the last answer.
func (s *Server) undoTool(ctx context.Context, req *mcp.CallToolRequest, in SessionInput) (*mcp.CallToolResult, State, error) {
	cv, err := s.store.get(in.SessionID)
	if err != nil {
		return nil, State{}, err
	}
	defer cv.mu.Unlock()
	if err := cv.conv.Undo(); err != nil {
		return nil, State{}, err
	}
	return nil, *s.state(cv), nil
}

// finishTool ends a session and returns its result.
func (s *Server) finishTool(ctx context.Context, req *mcp.CallToolRequest, in FinishInput) (*mcp.CallToolResult, Result, error) {
	cv, err := s.store.get(in.SessionID)
	if err != nil {
		return nil, Result{}, err
	}
	defer cv.mu.Unlock()
	cand := -1
	if in.Candidate != nil {
		cand = *in.Candidate
		if cand < 0 {
			return nil, Result{}, fmt.Errorf("candidate %d: give the index of one of the ranked candidates", cand)
		}
	}
	r, err := s.finish(ctx, req, cv, cand)
	if err != nil {
		return nil, Result{}, err // the session goes on as it was
	}
	cv.conv.Stop()
	return nil, *r, nil
}

// start builds a session for in and keeps it; the session is returned
// locked.
func (s *Server) start(ctx context.Context, req *mcp.CallToolRequest, in SourceInput, n *notifier) (*convo, error) {
	src, err := sourceOf(in)
	if err != nil {
		return nil, err
	}
	b := s.opts.Builder
	runner := s.opts.Builder.RunnerOr(src.Language, s.opts.Runner)
	if in.File != "" || in.Function != "" {
		if src, runner, err = s.moduleSource(ctx, req, in); err != nil {
			return nil, err
		}
		bb := *b
		bb.Runner, bb.Runners = runner, nil // every program runs as the module
		b = &bb
	}
	sampling := false
	if kind, _ := src.Kind(); kind != "demo" && b.Generator == nil && canSample(req.Session) {
		bb := *b
		bb.Generator = &interact.ModelGenerator{Provider: &SamplingProvider{Sampler: req.Session, Client: clientName(req.Session)}, Caller: s.opts.Runner}
		b, sampling = &bb, true
	}
	opts, err := s.options(in, sampling)
	if err != nil {
		return nil, err
	}
	p, err := b.Build(ctx, src, opts, n)
	if errors.Is(err, interact.ErrNoModel) {
		return nil, fmt.Errorf("this needs a model to write candidates and tests: start ticoder mcp with --model (e.g. openai:gpt-4o-mini), or use a client that supports sampling; the demos (demo: text_match, median, …) need none")
	}
	if err != nil {
		return nil, err
	}
	if src.Module == nil {
		runner = s.opts.Builder.RunnerOr(p.Task.Language, s.opts.Runner)
	}
	conv, err := interact.Start(p, runner)
	if err != nil {
		return nil, err
	}
	// When no candidate agrees with all the answers, the same model (the
	// client's, through sampling) writes new ones.
	conv.UseBuilder(b, nil)
	cv := s.store.add(conv)
	cv.mu.Lock()
	s.log.Debug("clarification started", "session", cv.id, "task", p.Task.Name, "sampling", sampling)
	return cv, nil
}

// sourceOf checks the sizes of in and returns its source.
func sourceOf(in SourceInput) (interact.Source, error) {
	for _, f := range []struct {
		name string
		v    string
		max  int
	}{{"stub", in.Stub, maxStub}, {"description", in.Description, maxDescription}, {"signature", in.Signature, maxSignature}, {"task", in.Task, maxTask}, {"demo", in.Demo, maxTask}} {
		if len(f.v) > f.max {
			return interact.Source{}, fmt.Errorf("%s has %d characters; the limit is %d", f.name, len(f.v), f.max)
		}
	}
	if in.File != "" || in.Function != "" {
		if in.Demo != "" || in.Task != "" || in.Stub != "" || in.Description != "" || in.Signature != "" {
			return interact.Source{}, fmt.Errorf("give file and function alone, not with demo, stub, description or task")
		}
		return interact.Source{}, nil // the module is resolved by start
	}
	src := interact.Source{Demo: in.Demo, Task: in.Task, Prompt: in.Description, Signature: in.Signature}
	if in.Stub != "" {
		src.Spec, src.SpecName = in.Stub, "stub"
	}
	if _, err := src.Kind(); err != nil {
		return src, fmt.Errorf("%s (as arguments: demo, stub, description with signature, or task)", strings.NewReplacer("--signature", "signature", "a spec file", "a stub").Replace(err.Error()))
	}
	return src, nil
}

// options returns the session options of in over the server's defaults.
func (s *Server) options(in SourceInput, sampling bool) (interact.Options, error) {
	o := s.opts.Defaults
	if sampling {
		o.Codes, o.Tests = s.opts.SamplingCodes, s.opts.SamplingTests
	}
	if in.Mode != "" {
		m, err := rank.ParseMode(in.Mode)
		if err != nil {
			return o, err
		}
		o.Mode = m
	}
	if in.Questions != "" {
		q, err := session.ParseQuestions(in.Questions)
		if err != nil {
			return o, err
		}
		o.Questions = q
	}
	for _, f := range []struct {
		name string
		v    int
		dst  *int
	}{{"codes", in.Codes, &o.Codes}, {"tests", in.Tests, &o.Tests}, {"max_questions", in.MaxQuestions, &o.MaxQuestions}} {
		switch {
		case f.v < 0 || f.v > maxSamples:
			return o, fmt.Errorf("%s is %d; give 1 to %d, or leave it out for the default", f.name, f.v, maxSamples)
		case f.v > 0:
			*f.dst = f.v
		}
	}
	return o, nil
}

// state returns the session's state for the agent.
func (s *Server) state(cv *convo) *State {
	st := cv.conv.State(cv.id)
	out := &State{
		SessionID: cv.id, Task: st.Task, Mode: st.Mode, Question: st.Question, Done: st.Done,
		Stop: st.StopMessage, Total: st.Total, Remaining: st.Remaining,
		Conflict: st.ConflictMessage,
	}
	if q := st.Question; q != nil {
		out.Answers = []string{"yes", "no", "invalid"}
		how := "yes, no or invalid"
		if q.CanOutput {
			out.Answers = append(out.Answers, "output")
			how = "yes, no, invalid, or output with the value it should return"
		}
		out.Next = fmt.Sprintf("Ask the human %s, then call answer_question with session_id %q, question %d and answer %s.", askWhat(q), cv.id, q.Test, how)
	} else {
		out.Next = fmt.Sprintf("The questions are over: call finish with session_id %q for the code and the approved tests.", cv.id)
	}
	return out
}

// askWhat says, on one line, what to ask the human about q: whether the
// call should return the expected value (with the values the candidates
// return, for a synthesized question), or else whether the test should
// hold.
func askWhat(q *api.Question) string {
	if q.Input != "" && q.Expected != "" {
		s := fmt.Sprintf("whether %s should return %s", oneLine(q.Input), oneLine(q.Expected))
		if len(q.Choices) > 1 {
			s += fmt.Sprintf(" (the candidates return %s)", oneLine(strings.Join(q.Choices, ", ")))
		}
		return s
	}
	return "whether this should hold: " + oneLine(strings.TrimSuffix(strings.TrimSpace(q.Prompt), " ?"))
}

// oneLine joins s's lines with "; ".
func oneLine(s string) string {
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, "; ")
}

// finish exports candidate (-1: the best) with the approved tests, checked
// in the sandbox, and writes the files into the client's workspace when
// allowed.
func (s *Server) finish(ctx context.Context, req *mcp.CallToolRequest, cv *convo, candidate int) (*Result, error) {
	ex, err := cv.conv.Export(ctx, candidate, true)
	if err != nil {
		return nil, err
	}
	st := cv.conv.State(cv.id)
	r := &Result{
		SessionID: cv.id, Task: st.Task, CodeFile: ex.CodeFile, Code: ex.Code, TestFile: ex.TestFile, Tests: ex.Tests,
		PatchFile: ex.PatchFile, Patch: ex.Patch,
		TestCount: ex.TestCount, Checked: ex.Checked, Passed: ex.Passed, Failures: ex.Failures,
		Ranked: st.Candidates, Explanation: explain(st), Stop: st.StopMessage,
		Conflict: st.ConflictMessage,
	}
	if len(r.Ranked) > maxRanked {
		r.Ranked = r.Ranked[:maxRanked]
	}
	if s.opts.WriteFiles {
		r.Files = s.writeFiles(ctx, req.Session, ex)
	}
	return r, nil
}

// explain says what each answer ruled out.
func explain(st api.Session) []string {
	out := []string{}
	before := st.Total.Samples
	for _, h := range st.History {
		what := map[string]string{"pass": "yes", "fail": "no", "undefined": "invalid input"}[h.Verdict]
		if h.Verdict == "output" {
			what = "it should return " + h.Value
		}
		if what == "" {
			what = h.Verdict
		}
		out = append(out, fmt.Sprintf("%d. %s — %s: ruled out %d of %d candidate samples, %d left",
			h.Number, strings.ReplaceAll(h.Code, "\n", "; "), what, before-h.Remaining, before, h.Remaining))
		before = h.Remaining
	}
	return out
}

// canElicit reports whether the client can ask the human a form.
func canElicit(ss *mcp.ServerSession) bool {
	ip := ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.Elicitation == nil {
		return false
	}
	e := ip.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil
}

// canSample reports whether the client offers its model.
func canSample(ss *mcp.ServerSession) bool {
	ip := ss.InitializeParams()
	return ip != nil && ip.Capabilities != nil && ip.Capabilities.Sampling != nil
}

// clientName names the client, for messages.
func clientName(ss *mcp.ServerSession) string {
	if ip := ss.InitializeParams(); ip != nil && ip.ClientInfo != nil {
		return clipID(ip.ClientInfo.Name)
	}
	return "client"
}
