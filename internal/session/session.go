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
	// tests (the oracle selector and ProtectCorrect read it).
	Correct []bool `json:"correct,omitempty"`
	// ProtectCorrect never prunes a candidate that passes the hidden tests
	// (the official implementation's flattering rule; evaluation only).
	ProtectCorrect bool `json:"protect_correct,omitempty"`
	// Synthesized[t] reports whether Tests[t] is a synthesized question: a
	// call (Input, after Setup) that nobody wrote an expected value for
	// (package inputs); Results hold what each candidate's call returned.
	// nil means none is. See AddSynthesized.
	Synthesized []bool `json:"synthesized,omitempty"`
	// ValueClass numbers returned values by Python's == (inputs.Classes),
	// so that values such as 1 and 1.0 are one answer; nil compares reprs.
	ValueClass map[string]int32 `json:"value_class,omitempty"`
	// Atypical[t] reports that synthesized question t asks about an input
	// unlike every written example (rank.OutcomesInput.Atypical); nil means
	// none is.
	Atypical []bool `json:"atypical,omitempty"`
	// Traits[t] are the ways test t's call differs from the written
	// examples (inputs.Input.Traits, e.g. "1:-nonneg"): once the user has
	// called a question undefined, the others that share one of its traits
	// are likely undefined too (see undefinedChances). nil means none has.
	Traits [][]string `json:"traits,omitempty"`
	// Questions says what may be asked: generated tests, synthesized
	// questions, or both (the zero value).
	Questions Questions `json:"questions,omitempty"`
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
	// Synthesized marks a synthesized question: "what should Input
	// return?". Expected is then the value the selector chose to show
	// (rank.Scored.Pivot; by default the one the best-ranked remaining
	// candidate returns), shown for a yes/no answer, and Code is
	// `assert INPUT == EXPECTED`.
	Synthesized bool `json:"synthesized,omitempty"`
	// Choices are, for a synthesized question, the distinct values the
	// remaining candidates return (equal values once), best-ranked first,
	// at most MaxChoices.
	Choices []string `json:"choices,omitempty"`
}

// MaxChoices bounds Question.Choices.
const MaxChoices = 12

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
	// Expected is, for a synthesized question, the value it showed.
	Expected string `json:"expected,omitempty"`
	// Agree lists the candidates (of all, in increasing order) whose
	// behaviour agrees with the answer: an answer is evidence about every
	// candidate, not only those that remained (see Session.Alive).
	Agree []int `json:"agree"`
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
	// NoSplit: no unasked test splits the remaining candidates (for
	// infogain: none is expected to gain anything, see rank.Scores).
	NoSplit
	// NoTests: there is nothing to ask about at all (no test, no
	// synthesized question).
	NoTests
)

var stopNames = [...]string{"running", "max-questions", "one-class", "no-split", "no-tests"}

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
	pool    *rank.Outcomes
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
	if spec.Traits != nil && len(spec.Traits) != len(spec.Tests) {
		return nil, fmt.Errorf("new session: %d trait lists for %d tests", len(spec.Traits), len(spec.Tests))
	}
	if spec.Synthesized != nil {
		if len(spec.Synthesized) != len(spec.Tests) {
			return nil, fmt.Errorf("new session: %d synthesized flags for %d tests", len(spec.Synthesized), len(spec.Tests))
		}
		if spec.Atypical != nil && len(spec.Atypical) != len(spec.Tests) {
			return nil, fmt.Errorf("new session: %d atypical flags for %d tests", len(spec.Atypical), len(spec.Tests))
		}
		for j, syn := range spec.Synthesized {
			if syn && spec.Tests[j].Input == "" {
				return nil, fmt.Errorf("new session: synthesized question %d has no call", j)
			}
		}
	}
	pool, err := rank.NewOutcomes(spec.OutcomesInput())
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

// OutcomesInput returns what the session's rank.Outcomes is built from.
func (spec *Spec) OutcomesInput() rank.OutcomesInput {
	in := rank.OutcomesInput{
		Results:     spec.Results,
		Counts:      make([]int, len(spec.Candidates)),
		First:       make([]int, len(spec.Candidates)),
		Prior:       spec.Prior,
		Calls:       make([]bool, len(spec.Tests)),
		Correct:     spec.Correct,
		Synthesized: spec.Synthesized,
		ValueClass:  spec.ValueClass,
		Atypical:    spec.Atypical,
	}
	for i, c := range spec.Candidates {
		in.Counts[i], in.First[i] = max(c.Count, 1), c.First
	}
	for j, t := range spec.Tests {
		in.Calls[j] = t.Input != ""
	}
	return in
}

// Spec returns what the session was built from. The caller must not modify it.
func (s *Session) Spec() *Spec { return &s.spec }

// Outcomes returns the session's result pool.
func (s *Session) Outcomes() *rank.Outcomes { return s.pool }

// Alive returns the remaining candidates (indexes into Spec.Candidates), in
// increasing order. The caller must not modify it.
func (s *Session) Alive() []int { return s.alive }

// Unasked returns the tests not asked yet, in increasing order.
func (s *Session) Unasked() []int { return s.unasked }

// History returns the answered questions, oldest first.
func (s *Session) History() []Step { return s.history }

// Asked returns the number of answered questions.
func (s *Session) Asked() int { return len(s.history) }

// query is the state the selector chooses in: only the tests that may be
// asked are offered, synthesized questions get their pivots, and after the
// first answer the chance of an undefined answer is estimated from the
// answers so far (see undefinedChances).
func (s *Session) query() rank.Query {
	q := rank.Query{Outcomes: s.pool, Mode: s.spec.Mode, Alive: s.alive, Unasked: s.askable(s.unasked), Step: len(s.history), Seed: s.spec.Seed}
	q.Undefined = s.undefinedChances(q.Unasked)
	if _, ok := s.sel.(rank.InfoGain); ok && s.spec.Mode == rank.PassFail {
		// A yes or no tells one shown value from the rest, and the ranker
		// picks among what is left by the generated tests' agreement: weigh
		// the candidates by that agreement too (rank.Outcomes.Agreement), so
		// that questions tell apart the candidates the ranking would put
		// first. An Output answer names the value, which tells every value
		// apart at once; there the weights are sqrt(multiplicity).
		q.Outcomes = s.pool.Agreement(s.alive, s.RankingTests())
	}
	if s.spec.Synthesized != nil {
		q.Pivot, q.BestPivot = s.pool.Pivots(s.Ranking()), true
	}
	return q
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
	case len(s.history) == 0 && len(s.askable(s.unasked)) == 0:
		return NoTests
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
	expected := ""
	if best := scores[0]; s.pool.Synthesized(best.Test) && best.Pivot >= 0 {
		for _, c := range s.alive {
			if s.pool.Value(c, best.Test) == best.Pivot {
				expected = s.spec.Results[c][best.Test].Value
				break
			}
		}
	}
	q = s.question(scores[0].Test, scores[0].Score, expected)
	s.pending = &q
	return q, true
}

// question builds the question about test t. A synthesized question shows
// expected, or when that is empty the value of the best-ranked remaining
// candidate whose call returned one.
func (s *Session) question(t int, score float64, expected string) Question {
	test := s.spec.Tests[t]
	q := Question{Number: len(s.history) + 1, Test: t, Code: test.String(), Input: test.Input, Expected: test.Expected, Score: score}
	if !s.pool.Synthesized(t) {
		return q
	}
	q.Synthesized = true
	seen := map[int32]bool{}
	for _, c := range s.Ranking().Order {
		v := s.pool.Value(c, t)
		if v < 0 || seen[v] {
			continue
		}
		seen[v] = true
		if len(q.Choices) < MaxChoices {
			q.Choices = append(q.Choices, s.spec.Results[c][t].Value)
		}
		if len(seen) == 1 && expected == "" {
			expected = s.spec.Results[c][t].Value
		}
	}
	q.Expected = expected
	q.Code = EqualTest(test.Test, expected).String()
	return q
}

// Answer records the answer to the pending question (test must be its test)
// and prunes the candidates: pass keeps those that pass the test, fail drops
// them, `output v` keeps those whose call returns a value == v (decided by
// the Comparer), undefined keeps all. With ProtectCorrect, candidates that
// pass the hidden tests are always kept. On error nothing changes.
//
// An answer is evidence, not a guillotine: the remaining candidates are
// those that agree with the most answers so far (Step.Agree). While some
// candidate agrees with every answer that is exactly pruning; an answer
// that no remaining candidate agrees with leaves those that disagree with
// the fewest answers, and Conflict says so.
func (s *Session) Answer(ctx context.Context, test int, a Answer) error {
	if s.pending == nil || s.pending.Test != test {
		return fmt.Errorf("answer test %d: %w; ask Next for the question", test, ErrNotAsked)
	}
	agree, err := s.agree(ctx, test, a, s.pending.Expected, s.all())
	if err != nil {
		return fmt.Errorf("answer test %d: %w", test, err)
	}
	st := Step{Test: test, Answer: a, Before: s.alive, Score: s.pending.Score, Agree: agree}
	if s.pending.Synthesized {
		st.Expected = s.pending.Expected
	}
	s.history = append(s.history, st)
	s.alive = s.consistent()
	i, _ := slices.BinarySearch(s.unasked, test)
	s.unasked = slices.Delete(slices.Clone(s.unasked), i, i+1)
	s.pending = nil
	return nil
}

// all returns every candidate, in increasing order.
func (s *Session) all() []int {
	out := make([]int, len(s.spec.Candidates))
	for i := range out {
		out[i] = i
	}
	return out
}

// agree returns the candidates of set that agree with answer a to test;
// with ProtectCorrect, a candidate that passes the hidden tests agrees with
// every answer.
func (s *Session) agree(ctx context.Context, test int, a Answer, shown string, set []int) ([]int, error) {
	kept, err := s.prune(ctx, test, a, shown, set)
	if err != nil {
		return nil, err
	}
	if s.spec.ProtectCorrect {
		for _, c := range set {
			if s.spec.Correct[c] && !slices.Contains(kept, c) {
				kept = append(kept, c)
			}
		}
		slices.Sort(kept)
	}
	return kept, nil
}

// agreements counts, for every candidate, the answers it agrees with.
func (s *Session) agreements() []int {
	n := make([]int, len(s.spec.Candidates))
	for _, st := range s.history {
		for _, c := range st.Agree {
			n[c]++
		}
	}
	return n
}

// consistent returns the candidates that agree with the most answers so far,
// in increasing order: all candidates before any answer.
func (s *Session) consistent() []int {
	n := s.agreements()
	best := 0
	for _, k := range n {
		best = max(best, k)
	}
	out := []int{}
	for c, k := range n {
		if k == best {
			out = append(out, c)
		}
	}
	return out
}

// Conflict returns how many of the answers so far the remaining candidates
// disagree with: 0 while some candidate agrees with every answer. Above 0,
// no candidate does what the user said, and the remaining ones are those
// that come closest; the approved tests (Approved) say what the code must
// still do, and new candidates (say, from the model, with the approved
// tests in the prompt) are what the user needs.
func (s *Session) Conflict() int {
	if len(s.alive) == 0 || len(s.history) == 0 {
		return 0
	}
	return len(s.history) - s.agreements()[s.alive[0]]
}

// prune returns the candidates of set that an answer keeps, without
// changing s; shown is the value a synthesized question showed.
func (s *Session) prune(ctx context.Context, test int, a Answer, shown string, set []int) ([]int, error) {
	kept := []int{}
	switch a.Verdict {
	case Pass, Fail:
		passes := func(c int) bool { return s.pool.Passes(c, test) }
		if s.pool.Synthesized(test) {
			// The shown value came from a candidate, so it has a number.
			pivot := s.pool.ValueOf(test, shown)
			passes = func(c int) bool { return pivot >= 0 && s.pool.Value(c, test) == pivot }
		}
		for _, c := range set {
			if passes(c) == (a.Verdict == Pass) {
				kept = append(kept, c)
			}
		}
	case Undefined:
		kept = slices.Clone(set)
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
		programs := make([]string, len(set))
		for i, c := range set {
			programs[i] = s.spec.Candidates[c].Program
		}
		eq, err := s.cmp.Equal(ctx, programs, t.Test, a.Value)
		if err != nil {
			return nil, err
		}
		if len(eq) != len(programs) {
			return nil, fmt.Errorf("comparer returned %d verdicts for %d programs", len(eq), len(programs))
		}
		for i, c := range set {
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
	s.alive = s.consistent()
	s.unasked = slices.Clone(s.unasked)
	i, _ := slices.BinarySearch(s.unasked, last.Test)
	s.unasked = slices.Insert(s.unasked, i, last.Test)
	q := s.question(last.Test, last.Score, last.Expected)
	s.pending = &q
	return nil
}

// AddCandidates adds candidates, with their results on every test
// (results[i] for cands[i], one per Spec.Tests entry), to the session: say,
// new programs from the model after no candidate agreed with the answers.
// Each answer so far is evidence about them as about the others (an
// `output` answer is decided by the Comparer), and the remaining candidates
// are those that agree with the most answers. classes, when not nil,
// replaces Spec.ValueClass (it must number the new candidates' values
// too). A pending question is dropped: Next chooses again among the new
// pool. Undo still restores the state before each answer, with the new
// candidates kept. On error nothing changes.
func (s *Session) AddCandidates(ctx context.Context, cands []extract.Candidate, results [][]execute.Result, classes map[string]int32) error {
	if len(results) != len(cands) {
		return fmt.Errorf("add candidates: %d result rows for %d candidates", len(results), len(cands))
	}
	for i, row := range results {
		if len(row) != len(s.spec.Tests) {
			return fmt.Errorf("add candidates: candidate %d has %d results for %d tests", i, len(row), len(s.spec.Tests))
		}
	}
	if len(s.spec.Correct) != 0 {
		return fmt.Errorf("add candidates: the session knows hidden verdicts, which new candidates lack")
	}
	spec := s.spec
	spec.Candidates = append(slices.Clone(s.spec.Candidates), cands...)
	spec.Results = append(slices.Clone(s.spec.Results), results...)
	if classes != nil {
		spec.ValueClass = classes
	}
	pool, err := rank.NewOutcomes(spec.OutcomesInput())
	if err != nil {
		return fmt.Errorf("add candidates: %w", err)
	}
	grown := &Session{spec: spec, pool: pool, sel: s.sel, ranker: s.ranker, cmp: s.cmp}
	added := make([]int, len(cands))
	for i := range added {
		added[i] = len(s.spec.Candidates) + i
	}
	history := slices.Clone(s.history)
	for i, st := range history {
		agree, err := grown.agree(ctx, st.Test, st.Answer, st.Expected, added)
		if err != nil {
			return fmt.Errorf("add candidates: answer %d: %w", i+1, err)
		}
		history[i].Agree = append(slices.Clone(st.Agree), agree...)
	}
	grown.history, grown.unasked = history, s.unasked
	grown.alive = grown.consistent()
	*s = *grown
	return nil
}
