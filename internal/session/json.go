package session

import (
	"encoding/json"
	"fmt"
	"slices"
)

// stateVersion is the version of the JSON form of a session.
const stateVersion = 1

// state is the JSON form of a session.
type state struct {
	Version int       `json:"version"`
	Spec    Spec      `json:"spec"`
	Alive   []int     `json:"alive"`
	Pending *Question `json:"pending,omitempty"`
	History []Step    `json:"history"`
}

// MarshalJSON encodes everything needed to resume the session: its spec
// (candidates, tests, results, strategies), the remaining candidates, the
// answers so far and the pending question.
func (s *Session) MarshalJSON() ([]byte, error) {
	return json.Marshal(state{Version: stateVersion, Spec: s.spec, Alive: s.alive, Pending: s.pending, History: s.history})
}

// Load resumes a session encoded by MarshalJSON. cmp decides later `output`
// answers (nil in PassFail mode).
func Load(data []byte, cmp Comparer) (*Session, error) {
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("load session: %w", err)
	}
	if st.Version != stateVersion {
		return nil, fmt.Errorf("load session: version %d, this ticoder reads version %d; start a new session", st.Version, stateVersion)
	}
	s, err := New(st.Spec, cmp)
	if err != nil {
		return nil, fmt.Errorf("load session: %w", err)
	}
	nc, nt := len(st.Spec.Candidates), len(st.Spec.Tests)
	valid := func(set []int, n int) bool {
		return slices.IsSorted(set) && (len(set) == 0 || (set[0] >= 0 && set[len(set)-1] < n))
	}
	asked := map[int]bool{}
	for i, h := range st.History {
		if h.Test < 0 || h.Test >= nt || asked[h.Test] || !valid(h.Before, nc) || !valid(h.Agree, nc) {
			return nil, fmt.Errorf("load session: corrupt history (test %d)", h.Test)
		}
		asked[h.Test] = true
		if h.Agree == nil {
			// Written before answers were kept as evidence: what the
			// answer left is what it is known to agree with.
			if i+1 < len(st.History) {
				st.History[i].Agree = st.History[i+1].Before
			} else {
				st.History[i].Agree = st.Alive
			}
		}
	}
	if !valid(st.Alive, nc) {
		return nil, fmt.Errorf("load session: corrupt set of remaining candidates")
	}
	if st.Pending != nil && (st.Pending.Test < 0 || st.Pending.Test >= nt || asked[st.Pending.Test]) {
		return nil, fmt.Errorf("load session: corrupt pending question (test %d)", st.Pending.Test)
	}
	s.history = st.History
	if s.history == nil {
		s.history = []Step{}
	}
	s.alive = st.Alive
	if s.alive == nil {
		s.alive = []int{}
	}
	s.pending = st.Pending
	s.unasked = s.unasked[:0]
	for j := range nt {
		if !asked[j] {
			s.unasked = append(s.unasked, j)
		}
	}
	return s, nil
}
