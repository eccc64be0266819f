package execute

import (
	"encoding/json"
)

// The requests and replies that cross between the Go supervisor and the
// Python worker (pyworker/), one frame each (see worker.send and
// worker.recv). The docstrings of pyworker/worker.py's handle_run and
// handle_call name the same fields; a field added here must be read there.

// harnessOp names a request to the Python worker.
type harnessOp string

// The requests the Python worker answers.
const (
	opRun  harnessOp = "run"
	opCall harnessOp = "call"
)

// wireProgram is one distinct program of a run request; ID is its index in
// the request, echoed in its result reply.
type wireProgram struct {
	ID   int    `json:"id"`
	Code string `json:"code"`
}

// runRequest asks the harness to run every program against every test. Its
// replies are a runReply per program, then one with Type "done".
type runRequest struct {
	Op           harnessOp     `json:"op"`
	Tests        []Test        `json:"tests"`
	Timeouts     []float64     `json:"timeouts"`
	Programs     []wireProgram `json:"programs"`
	Limits       Limits        `json:"limits"`
	AllowObjects bool          `json:"allow_objects"`
	// DegradeAfter and DegradeLimit: after DegradeAfter timeouts of one
	// program, its later tests run under DegradeLimit seconds at most; 0
	// means never.
	DegradeAfter int     `json:"degrade_after,omitempty"`
	DegradeLimit float64 `json:"degrade_limit,omitempty"`
	// Reduced is the Exception a timeout under such a lowered limit carries
	// (ReducedLimit: the constant is defined here only, the harness takes
	// it from the request).
	Reduced string `json:"reduced"`
	// SkipAfter, SkipFrom and NotRun: after SkipAfter timeouts among the
	// tests from index SkipFrom on, the later ones are reported as timeouts
	// with Exception NotRun without running; 0 means never.
	SkipAfter int    `json:"skip_after,omitempty"`
	SkipFrom  int    `json:"skip_from,omitempty"`
	NotRun    string `json:"not_run"`
}

// runReply is one reply to a runRequest: Type "result" carries Program's
// results in test order; Type "done" ends the request, with Dirty set when
// the rest must run on a fresh sandbox.
type runReply struct {
	Type    string        `json:"type"`
	Program int           `json:"program"`
	Results []*wireResult `json:"results"`
	Dirty   bool          `json:"dirty"`
}

// callRequest asks the harness to run Function(Arg) from Source in a
// sandboxed child with a wall-clock limit of Timeout seconds.
type callRequest struct {
	Op       harnessOp `json:"op"`
	Source   string    `json:"source"`
	Function string    `json:"function"`
	Arg      any       `json:"arg"`
	Timeout  float64   `json:"timeout"`
	Limits   Limits    `json:"limits"`
}

// callReply is the reply to a callRequest: Result when OK, else Error.
type callReply struct {
	Type   string          `json:"type"`
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result"`
	Error  string          `json:"error"`
}

// newRunRequest builds a run request for job's settings.
func newRunRequest(job *Job, tests []Test, timeouts []float64, progs []wireProgram, limits Limits) runRequest {
	req := runRequest{Op: opRun, Tests: tests, Timeouts: timeouts, Programs: progs, Limits: limits,
		AllowObjects: job.AllowObjects, Reduced: ReducedLimit, NotRun: NotRun}
	if limit := job.reducedLimit(); limit > 0 {
		req.DegradeAfter = job.DegradeAfter
		req.DegradeLimit = limit.Seconds()
	}
	return req
}
