package session

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/rank"
)

// Errors of the question loop, checked with errors.Is.
var (
	// ErrNotAsked: the answer is for a test that is not the pending question.
	ErrNotAsked = errors.New("that test was not asked")
	// ErrNothingToUndo: no answer has been given yet.
	ErrNothingToUndo = errors.New("nothing to undo")
	// ErrBadAnswer: the answer does not fit the mode or the test.
	ErrBadAnswer = errors.New("answer does not fit the question")
)

// Task is what the user asked for.
type Task struct {
	// ID names the task (a dataset's task id, or one the caller makes up).
	ID string `json:"id,omitempty"`
	// Prompt is the text the code was generated from.
	Prompt string `json:"prompt,omitempty"`
	// Description is the natural-language description.
	Description string `json:"description,omitempty"`
	// Signature is the function's def line.
	Signature string `json:"signature,omitempty"`
	// EntryPoint is the function's name.
	EntryPoint string `json:"entry_point,omitempty"`
}

// Spec is everything a session is built from.
type Spec struct {
	// Task is what the user asked for.
	Task Task `json:"task"`
	// Candidates are the distinct programs with their multiplicities.
	Candidates []extract.Candidate `json:"candidates"`
	// Tests are the distinct generated tests.
	Tests []extract.Test `json:"tests"`
	// Results[c][t] is the result of Tests[t] on Candidates[c].
	Results [][]execute.Result `json:"results"`
	// Mode is PassFail or Output.
	Mode rank.Mode `json:"mode"`
	// Select names the test selection strategy (rank.ParseSelector).
	Select string `json:"select"`
	// Rank names the code ranking strategy (rank.ParseRanker).
	Rank string `json:"rank"`
	// MaxQuestions stops the session after that many answers; 0 means no limit.
	MaxQuestions int `json:"max_questions,omitempty"`
	// Seed seeds the random selector.
	Seed uint64 `json:"seed,omitempty"`
	// Prior optionally scores each candidate (e.g. a quality estimate): it
	// orders candidates before any answer and breaks ranking ties.
	Prior []float64 `json:"prior,omitempty"`
	// Correct, for evaluation only, tells which candidates pass the hidden
	// tests (the ideal selector and ProtectCorrect read it).
	Correct []bool `json:"correct,omitempty"`
	// ProtectCorrect never prunes a candidate that passes the hidden tests
	// (the official implementation's flattering rule; evaluation only).
	ProtectCorrect bool `json:"protect_correct,omitempty"`
}

// Question is a test put to the user.
type Question struct {
	// Number counts questions from 1.
	Number int `json:"number"`
	// Test indexes Spec.Tests.
	Test int `json:"test"`
	// Code is the test's source (setup and assertion).
	Code string `json:"code"`
	// Input and Expected split a CALL == EXPECTED test; Input is empty for
	// other tests, which take only pass, fail or undefined.
	Input    string `json:"input,omitempty"`
	Expected string `json:"expected,omitempty"`
	// Score is the selection strategy's score of the test.
	Score float64 `json:"score"`
}

// Step is one answered question.
type Step struct {
	// Test indexes Spec.Tests.
	Test int `json:"test"`
	// Answer is the answer given.
	Answer Answer `json:"answer"`
	// Before lists the candidates that remained before the answer.
	Before []int `json:"before"`
	// Score is the selection score the question had.
	Score float64 `json:"score"`
}

// Stop says why a session asks nothing more.
type Stop uint8

const (
	// Running: there is a question to ask.
	Running Stop = iota
	// MaxQuestions: the maximum number of questions was answered.
	MaxQuestions
	// OneClass: at most one behaviour class remains.
	OneClass
	// NoSplit: no unasked test splits the remaining candidates.
	NoSplit
)

var stopNames = [...]string{"running", "max-questions", "one-class", "no-split"}

// String names the stop reason.
func (s Stop) String() string {
	if int(s) < len(stopNames) {
		return stopNames[s]
	}
	return fmt.Sprintf("stop(%d)", s)
}

// MarshalText encodes the stop reason as its name.
func (s Stop) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Session is one TiCoder interaction: questions, answers, pruning, ranking.
// It is not safe for concurrent use.
type Session struct {
	spec    Spec
	pool    *rank.Pool
	sel     rank.Selector
	ranker  rank.Ranker
	cmp     Comparer
	alive   []int
	unasked []int
	pending *Question
	history []Step
}

// New starts a session. cmp decides `output` answers; it may be nil in
// PassFail mode.
func New(spec Spec, cmp Comparer) (*Session, error) {
	if len(spec.Results) != len(spec.Candidates) {
		return nil, fmt.Errorf("new session: %d result rows for %d candidates", len(spec.Results), len(spec.Candidates))
	}
	for c, row := range spec.Results {
		if len(row) != len(spec.Tests) {
			return nil, fmt.Errorf("new session: candidate %d has %d results for %d tests", c, len(row), len(spec.Tests))
		}
	}
	sel, err := rank.ParseSelector(spec.Select)
	if err != nil {
		return nil, fmt.Errorf("new session: %w", err)
	}
	ranker, err := rank.ParseRanker(spec.Rank)
	if err != nil {
		return nil, fmt.Errorf("new session: %w", err)
	}
	if len(spec.Correct) != 0 && len(spec.Correct) != len(spec.Candidates) {
		return nil, fmt.Errorf("new session: %d hidden verdicts for %d candidates", len(spec.Correct), len(spec.Candidates))
	}
	if spec.ProtectCorrect && spec.Correct == nil {
		return nil, fmt.Errorf("new session: protect-correct needs the hidden verdicts (Spec.Correct)")
	}
	in := rank.PoolInput{
		Results: spec.Results,
		Counts:  make([]int, len(spec.Candidates)),
		First:   make([]int, len(spec.Candidates)),
		Prior:   spec.Prior,
		Calls:   make([]bool, len(spec.Tests)),
		Correct: spec.Correct,
	}
	for i, c := range spec.Candidates {
		in.Counts[i], in.First[i] = max(c.Count, 1), c.First
	}
	for j, t := range spec.Tests {
		in.Calls[j] = t.Input != ""
	}
	pool, err := rank.NewPool(in)
	if err != nil {
		return nil, fmt.Errorf("new session: %w", err)
	}
	s := &Session{spec: spec, pool: pool, sel: sel, ranker: ranker, cmp: cmp, history: []Step{}}
	s.alive = make([]int, len(spec.Candidates))
	for i := range s.alive {
		s.alive[i] = i
	}
	s.unasked = make([]int, len(spec.Tests))
	for j := range s.unasked {
		s.unasked[j] = j
	}
	return s, nil
}

// Spec returns what the session was built from. The caller must not modify it.
func (s *Session) Spec() *Spec { return &s.spec }

// Pool returns the session's result pool.
func (s *Session) Pool() *rank.Pool { return s.pool }

// Alive returns the remaining candidates (indexes into Spec.Candidates), in
// increasing order. The caller must not modify it.
func (s *Session) Alive() []int { return s.alive }

// Unasked returns the tests not asked yet, in increasing order.
func (s *Session) Unasked() []int { return s.unasked }

// History returns the answered questions, oldest first.
func (s *Session) History() []Step { return s.history }

// Asked returns the number of answered questions.
func (s *Session) Asked() int { return len(s.history) }

func (s *Session) query() rank.Query {
	return rank.Query{Pool: s.pool, Mode: s.spec.Mode, Alive: s.alive, Unasked: s.unasked, Step: len(s.history), Seed: s.spec.Seed}
}

// Status says whether there is a question to ask and, if not, why. A pending
// question keeps the session running.
func (s *Session) Status() Stop {
	if s.pending != nil {
		return Running
	}
	if st := s.stopped(); st != Running {
		return st
	}
	if _, ok := rank.Select(s.sel, s.query()); !ok {
		return NoSplit
	}
	return Running
}

// stopped checks the stop conditions that need no test selection.
func (s *Session) stopped() Stop {
	switch {
	case s.spec.MaxQuestions > 0 && len(s.history) >= s.spec.MaxQuestions:
		return MaxQuestions
	case s.pool.NumClasses(s.alive) <= 1:
		return OneClass
	}
	return Running
}

// Next returns the pending question, choosing one if none is pending, or ok
// false when the session has stopped (see Status).
func (s *Session) Next() (q Question, ok bool) {
	if s.pending != nil {
		return *s.pending, true
	}
	if s.stopped() != Running {
		return Question{}, false
	}
	scores := rank.Scores(s.sel, s.query())
	if len(scores) == 0 {
		return Question{}, false
	}
	t := s.spec.Tests[scores[0].Test]
	s.pending = &Question{
		Number:   len(s.history) + 1,
		Test:     scores[0].Test,
		Code:     t.String(),
		Input:    t.Input,
		Expected: t.Expected,
		Score:    scores[0].Score,
	}
	return *s.pending, true
}

// Answer records the answer to the pending question (test must be its test)
// and prunes the candidates: pass keeps those that pass the test, fail drops
// them, `output v` keeps those whose call returns a value == v (decided by
// the Comparer), undefined keeps all. With ProtectCorrect, candidates that
// pass the hidden tests are always kept. On error nothing changes.
func (s *Session) Answer(ctx context.Context, test int, a Answer) error {
	if s.pending == nil || s.pending.Test != test {
		return fmt.Errorf("answer test %d: %w; ask Next for the question", test, ErrNotAsked)
	}
	kept, err := s.prune(ctx, test, a)
	if err != nil {
		return fmt.Errorf("answer test %d: %w", test, err)
	}
	if s.spec.ProtectCorrect {
		for _, c := range s.alive {
			if s.spec.Correct[c] && !slices.Contains(kept, c) {
				kept = append(kept, c)
			}
		}
		slices.Sort(kept)
	}
	s.history = append(s.history, Step{Test: test, Answer: a, Before: s.alive, Score: s.pending.Score})
	s.alive = kept
	i, _ := slices.BinarySearch(s.unasked, test)
	s.unasked = slices.Delete(slices.Clone(s.unasked), i, i+1)
	s.pending = nil
	return nil
}

// prune returns the candidates an answer keeps, without changing s.
func (s *Session) prune(ctx context.Context, test int, a Answer) ([]int, error) {
	kept := []int{}
	switch a.Verdict {
	case Pass, Fail:
		for _, c := range s.alive {
			if s.pool.Passes(c, test) == (a.Verdict == Pass) {
				kept = append(kept, c)
			}
		}
	case Undefined:
		kept = slices.Clone(s.alive)
	case Output:
		t := s.spec.Tests[test]
		switch {
		case s.spec.Mode != rank.Output:
			return nil, fmt.Errorf("%w: `output` answers need Output mode; answer pass, fail or undefined", ErrBadAnswer)
		case t.Input == "":
			return nil, fmt.Errorf("%w: the test is not of the form `assert CALL == EXPECTED`; answer pass, fail or undefined", ErrBadAnswer)
		case s.cmp == nil:
			return nil, fmt.Errorf("%w: no comparer to evaluate `output` answers", ErrBadAnswer)
		}
		programs := make([]string, len(s.alive))
		for i, c := range s.alive {
			programs[i] = s.spec.Candidates[c].Program
		}
		eq, err := s.cmp.Equal(ctx, programs, t.Test, a.Value)
		if err != nil {
			return nil, err
		}
		if len(eq) != len(programs) {
			return nil, fmt.Errorf("comparer returned %d verdicts for %d programs", len(eq), len(programs))
		}
		for i, c := range s.alive {
			if eq[i] {
				kept = append(kept, c)
			}
		}
	default:
		return nil, fmt.Errorf("%w: unknown verdict %v", ErrBadAnswer, a.Verdict)
	}
	return kept, nil
}

// Undo takes back the last answer: the candidates, the unasked tests and the
// pending question become exactly what they were before it (the answered
// question is pending again; a question chosen since is dropped).
func (s *Session) Undo() error {
	if len(s.history) == 0 {
		return ErrNothingToUndo
	}
	last := s.history[len(s.history)-1]
	s.history = s.history[:len(s.history)-1]
	s.alive = last.Before
	s.unasked = slices.Clone(s.unasked)
	i, _ := slices.BinarySearch(s.unasked, last.Test)
	s.unasked = slices.Insert(s.unasked, i, last.Test)
	t := s.spec.Tests[last.Test]
	s.pending = &Question{
		Number: len(s.history) + 1, Test: last.Test, Code: t.String(),
		Input: t.Input, Expected: t.Expected, Score: last.Score,
	}
	return nil
}
