package execute

import (
	"encoding/json"
	"fmt"

	"github.com/ticoder/ticoder/internal/clip"
)

// Suite is a test made of many calls of one function, each output compared
// with the reference's as evalplus judges HumanEval+ and MBPP+ (see
// pyworker/suite.py): exact equality first, then the float rules (the task's atol;
// 1e-6 for an output that is a float or a list of floats; numpy.allclose
// with rtol 1e-7) and the dataset's special oracles. The inputs are in two
// parts, base then plus; each part has its own atol state and its own
// whole-run limit (min(60 s, the sum of its inputs' limits) + 2 s), and
// every input its own limit. Unless All is set, a run stops at its first
// failing input.
//
// A Suite without Expected records the reference's outputs instead: run it
// on the reference program and read Result.Suite.Table.
//
// The worker compares outputs itself, on plain data: the program's process
// never sees an expected output, and a return value that is not plain data
// (an object whose __eq__ always says True) fails.
//
// A Suite is sent to each worker once; after that a request names it by
// ID. Call Seal after the last change to a Suite and before running it;
// treat a sealed Suite as read-only.
type Suite struct {
	// ID is the content hash of the rest, set by Seal.
	ID string `json:"id"`
	// Entry names the function called.
	Entry string `json:"entry,omitempty"`
	// Base and Plus are JSON arrays of argument lists, as the dataset gives
	// them; the function is called as Entry(*args). A JSON object (MBPP+'s
	// empty plus_input of Mbpp/793) counts as no inputs.
	Base json.RawMessage `json:"base,omitempty"`
	Plus json.RawMessage `json:"plus,omitempty"`
	// Restore names the type restoration the inputs need ("mbpp": evalplus's
	// tuples, sets and complex numbers for some MBPP+ tasks, by Task); ""
	// for none.
	Restore string `json:"restore,omitempty"`
	Task    int    `json:"task,omitempty"`
	// Oracle is the special comparison (see OracleFor); "" for none.
	Oracle string `json:"oracle,omitempty"`
	// Atol is the task's absolute tolerance (0: exact, but see above).
	Atol float64 `json:"atol,omitempty"`
	// Expected holds the reference's output per input (base then plus), as
	// recorded; nil to record them.
	Expected []Expected `json:"expected,omitempty"`
	// Limits are the per-input time limits in seconds (base then plus).
	Limits []float64 `json:"limits,omitempty"`
	// All runs every input, listing every failing one, instead of stopping
	// at the first (evalplus's --test-details).
	All bool `json:"all,omitempty"`
}

// Expected is the reference's output on one input, as recorded.
type Expected struct {
	// Value is the output in the harness's plain-data encoding; absent
	// where it is too large, and only Digest compares.
	Value json.RawMessage `json:"v,omitempty"`
	// Digest is the hash of the output's canonical form.
	Digest string `json:"d"`
	// Floats reports that the output is a float or a list of floats (the
	// 1e-6 rule).
	Floats bool `json:"f,omitempty"`
	// Shown is a bounded repr of the output.
	Shown string `json:"r,omitempty"`
	// Seconds is how long the reference took on the input.
	Seconds float64 `json:"s"`
}

// SuiteResult is what a Suite test's Result adds.
type SuiteResult struct {
	// First is the first failing input (base then plus), -1 if none.
	First int `json:"first"`
	// Expected is a bounded repr of the expected output of First.
	Expected string `json:"expected,omitempty"`
	// Failed lists every failing input when the suite ran them All.
	Failed []int `json:"failed,omitempty"`
	// Ran is how many inputs were run (from the first on).
	Ran int `json:"ran"`
	// WholeRun reports that a part's whole-run limit ran out (evalplus's
	// status "timeout"; a per-input limit is a "fail" there).
	WholeRun bool `json:"whole_run,omitempty"`
	// Table holds the reference's outputs of a recording Suite.
	Table []Expected `json:"table,omitempty"`
}

// OracleFor returns the special oracle evalplus applies to a task of
// dataset ("humaneval" or "mbpp") whose function is entry, "" for none.
// TestOracleTable keeps it equal to suite.py's.
func OracleFor(dataset, entry string) string {
	switch dataset {
	case "humaneval":
		if entry == "find_zero" {
			return "find_zero"
		}
	case "mbpp":
		return mbppOracles[entry]
	}
	return ""
}

var mbppOracles = map[string]string{
	"are_equivalent": "always", "sum_div": "sum_div", "surface_Area": "surface_area",
	"digit_distance_nums": "digit_distance", "check_str": "not_none", "text_match_three": "not_none",
	"text_starta_endb": "not_none", "similar_elements": "set_eq", "find_char_long": "set_eq",
	"common_in_nested_lists": "set_eq", "extract_singly": "set_eq", "larg_nnum": "set_eq",
	"intersection_array": "set_eq", "find_dissimilar": "set_eq", "Diff": "set_eq",
}

// Seal sets s.ID to the hash of its content and of the rules it is judged
// by (suite-v2: numpy's numbers inside a returned tuple, list, dict or set
// read as Python's, as evalplus reads them), so that a cached result is
// reused only under the same rules.
func (s *Suite) Seal() {
	s.ID = ""
	b, err := json.Marshal(s)
	if err != nil { // only a NaN or infinite limit or atol: never sealed twice alike
		b = []byte(fmt.Sprintf("%p", s))
	}
	h := hashOf("suite-v2", string(b))
	s.ID = fmt.Sprintf("%x", h[:16])
}

// Budget returns the time a suite's run may take in all, in seconds: each
// part's whole-run limit, and a margin for starting the process.
func (s *Suite) Budget() float64 {
	n := len(s.Limits)
	base := min(n, s.baseCount())
	if s.Expected == nil { // a reference's run: its limits only
		return sum(s.Limits) + 5
	}
	return min(60, sum(s.Limits[:base])) + min(60, sum(s.Limits[base:])) + 6
}

// BaseCount returns how many of the inputs are base inputs.
func (s *Suite) BaseCount() int { return s.baseCount() }

func (s *Suite) baseCount() int {
	var args []json.RawMessage
	if json.Unmarshal(s.Base, &args) != nil {
		return 0
	}
	return len(args)
}

// Inputs returns the JSON of each input's argument list, base then plus.
func (s *Suite) Inputs() []json.RawMessage {
	var out []json.RawMessage
	for _, part := range []json.RawMessage{s.Base, s.Plus} {
		var args []json.RawMessage
		if json.Unmarshal(part, &args) == nil {
			out = append(out, args...)
		}
	}
	return out
}

func sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}

// stub is what a worker that has the suite already is sent.
func (s *Suite) stub() *Suite { return &Suite{ID: s.ID} }

// suiteSlots is how many suites a worker keeps, oldest out first
// (pyworker/suiterun.py's SUITE_SLOTS).
const suiteSlots = 64

// suiteMirror follows which suites a worker keeps: the same first-in,
// first-out order as the Python worker, so that a request names a suite only to a
// worker that has it.
type suiteMirror struct {
	order []string
	have  map[string]bool
}

// send returns what a request to the worker carries of s, and notes that
// the worker keeps it.
func (m *suiteMirror) send(s *Suite) *Suite {
	if m.have[s.ID] {
		return s.stub()
	}
	if m.have == nil {
		m.have = map[string]bool{}
	}
	m.have[s.ID] = true
	m.order = append(m.order, s.ID)
	for len(m.order) > suiteSlots {
		delete(m.have, m.order[0])
		m.order = m.order[1:]
	}
	return s
}

// suiteWire is what a Suite test's result adds on the wire.
type suiteWire struct {
	First    *int       `json:"fi"`
	Expected string     `json:"fx"`
	Failed   []int      `json:"fa"`
	Ran      int        `json:"n"`
	WholeRun bool       `json:"tt"`
	Table    []Expected `json:"tb"`
}

// result checks and bounds what the worker reported for a suite of n
// inputs.
func (w *suiteWire) result(n int) *SuiteResult {
	r := &SuiteResult{First: -1, Expected: clip.Text(w.Expected, maxValueBytes), WholeRun: w.WholeRun, Ran: min(max(w.Ran, 0), n)}
	if w.First != nil && *w.First >= 0 && *w.First < n {
		r.First = *w.First
	}
	for _, i := range w.Failed {
		if i >= 0 && i < n && len(r.Failed) < n {
			r.Failed = append(r.Failed, i)
		}
	}
	if len(w.Table) == n {
		r.Table = w.Table
	}
	return r
}
