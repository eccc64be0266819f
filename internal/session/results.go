package session

import (
	"slices"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/rank"
)

// Ranking returns the remaining candidates ranked by the session's code
// ranker (one entry per candidate, with tie groups); Ranked adds the
// fallbacks.
func (s *Session) Ranking() rank.Ranking {
	return rank.Rank(s.ranker, s.pool, s.alive, s.RankingTests())
}

// RankingTests returns the tests a code ranker weighs, in increasing order:
// the unasked ones and those answered undefined. An answered test is
// settled evidence (it pruned, or decides the agreement), but "undefined"
// says nothing against any candidate, so it leaves the ranking as it was:
// the model's tests about such an input still tell which candidates agree
// with the rest of the sample.
func (s *Session) RankingTests() []int {
	out := slices.Clone(s.unasked)
	for _, st := range s.history {
		if st.Answer.Verdict == Undefined {
			out = append(out, st.Test)
		}
	}
	slices.Sort(out)
	return out
}

// Suggestion is one behaviour class of the remaining candidates, shown by its
// best-ranked member.
type Suggestion struct {
	// Candidate indexes Spec.Candidates: the class's representative.
	Candidate int `json:"candidate"`
	// Program is the representative's code.
	Program string `json:"program"`
	// Count is the number of samples in the class.
	Count int `json:"count"`
	// Members is the number of distinct candidates in the class.
	Members int `json:"members"`
	// Score is the ranker's score.
	Score float64 `json:"score"`
	// Tie numbers tie groups: equal Tie means equal score and prior.
	Tie int `json:"tie"`
	// Crashes is 0 for remaining candidates. Above 0 the class is a
	// fallback (Session.Fallbacks): it disagrees with that many more of the
	// answers than the remaining candidates, each time by raising, timing
	// out or crashing on the input.
	Crashes int `json:"crashes,omitempty"`
}

// Suggestions returns the ranked behaviour classes of the remaining
// candidates, best first, then those of the fallbacks (see Ranked).
func (s *Session) Suggestions() []Suggestion {
	fb, extra := s.fallbacks()
	classes := s.rankedWith(s.ranker, s.pool, fb, extra).Classes(s.pool)
	out := make([]Suggestion, len(classes))
	for i, c := range classes {
		out[i] = Suggestion{
			Candidate: c.Rep, Program: s.spec.Candidates[c.Rep].Program,
			Count: c.Count, Members: len(c.Members), Score: c.Score, Tie: c.Tie,
		}
		if extra != nil {
			out[i].Crashes = extra[c.Rep]
		}
	}
	return out
}

// Approved returns the tests the user approved, in the order answered: those
// answered pass, and for each `output v` answer the corrected test
// `assert CALL == v`.
func (s *Session) Approved() []execute.Test {
	var out []execute.Test
	for _, st := range s.history {
		switch st.Answer.Verdict {
		case Pass:
			out = append(out, s.Shown(st))
		case Output:
			out = append(out, EqualTest(s.spec.Tests[st.Test].Test, st.Answer.Value))
		}
	}
	return out
}

// Shown returns the test as an answered question showed it: the test
// itself, or for a synthesized question `assert CALL == SHOWN VALUE`.
func (s *Session) Shown(st Step) execute.Test {
	t := s.spec.Tests[st.Test].Test
	if s.pool.Synthesized(st.Test) {
		return EqualTest(t, st.Expected)
	}
	return t
}

// Rejected returns the tests answered fail or corrected with `output`, in
// the order answered.
func (s *Session) Rejected() []execute.Test {
	return s.answered(func(v Verdict) bool { return v == Fail || v == Output })
}

// Undefined returns the tests answered undefined, in the order answered.
func (s *Session) Undefined() []execute.Test {
	return s.answered(func(v Verdict) bool { return v == Undefined })
}

func (s *Session) answered(keep func(Verdict) bool) []execute.Test {
	var out []execute.Test
	for _, st := range s.history {
		if keep(st.Answer.Verdict) {
			out = append(out, s.Shown(st))
		}
	}
	return out
}
