package eval

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/oracle"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
)

// Problem is one benchmark problem ready to simulate: candidates, tests, the
// matrix, the hidden verdicts and the simulated user.
type Problem struct {
	// ID is the dataset's task id.
	ID string
	// Task describes the problem for the sessions.
	Task session.Task
	// Samples is the number of raw code samples n (including those that did
	// not extract to a candidate), for pass@k.
	Samples int
	// Candidates are the distinct programs with multiplicities.
	Candidates []extract.Candidate
	// Tests are the distinct generated tests, then the synthesized
	// questions (Synthesized).
	Tests []extract.Test
	// Generated is the number of generated tests (Tests[:Generated]).
	Generated int
	// Inputs is the size of the problem's input pool (package inputs).
	Inputs int
	// Synthesized[t] reports whether Tests[t] is a synthesized question (see
	// session.Spec.Synthesized); nil means none is.
	Synthesized []bool
	// ValueClass numbers returned values by Python's == (inputs.Classes).
	ValueClass map[string]int32
	// Atypical[t] reports that synthesized question t asks about an input
	// unlike every written example (session.Spec.Atypical); nil means none.
	Atypical []bool
	// Traits[t] are the ways the call of Tests[t] differs from the written
	// examples (session.Spec.Traits); nil means none has.
	Traits [][]string
	// Results[c][t] is the result of Tests[t] on Candidates[c].
	Results [][]execute.Result
	// Correct[c] reports whether Candidates[c] passes the hidden tests.
	Correct []bool
	// User answers the questions.
	User *oracle.User
	// Comparer decides `output` answers (Output mode).
	Comparer session.Comparer
	// Prior optionally scores candidates for every ranker (see
	// rank.OutcomesInput.Prior).
	Prior []float64
	// Priors holds named prior scores (e.g. "qe:agree") for the rankers that
	// ask for one (see Config.Rankers).
	Priors map[string][]float64
	// RawCorrect is how many raw samples, run as they came (as `ticoder
	// check` runs them), pass the hidden tests; -1 when the raw samples are
	// not complete programs (chat models).
	RawCorrect int
}

// Config says which strategies to simulate.
type Config struct {
	// Modes are the answer modes.
	Modes []rank.Mode `json:"modes"`
	// Selectors name test selection strategies (rank.ParseSelector).
	Selectors []string `json:"select"`
	// Rankers name code ranking strategies: a rank.ParseRanker name
	// (passing, codet, prior), "qe:NAME" (by the prior named qe:NAME alone),
	// or "BASE+qe:NAME" (BASE with ties broken by that prior). Named priors
	// come from Problem.Priors.
	Rankers []string `json:"rank"`
	// Protect lists the settings of the protect-correct rule to run: false
	// (strict), true, or both.
	Protect []bool `json:"protect"`
	// MaxQuestions is the largest m.
	MaxQuestions int `json:"max_questions"`
	// Ks are the k of pass@k@m.
	Ks []int `json:"ks"`
	// BaselineKs are the k of the baseline pass@k of raw samples.
	BaselineKs []int `json:"baseline_ks"`
	// Seed seeds the random selector.
	Seed uint64 `json:"seed"`
	// Noise is the simulated user's error rate ε (its seed is Seed).
	Noise float64 `json:"noise"`
	// Ask lists what the sessions may ask about (session.Questions:
	// generated tests, synthesized questions or both); empty means both.
	Ask []session.Questions `json:"ask,omitempty"`
}

// canonical returns the configuration with each selection strategy under
// its own name (rank.Selector.Name: "ideal" is "oracle"); names that do not
// parse are kept (Validate reports them).
func (c Config) canonical() Config {
	sels := make([]string, len(c.Selectors))
	for i, s := range c.Selectors {
		sels[i] = s
		if sel, err := rank.ParseSelector(s); err == nil {
			sels[i] = sel.Name()
		}
	}
	c.Selectors = sels
	return c
}

// asks returns Ask, or both when it is empty.
func (c Config) asks() []session.Questions {
	if len(c.Ask) == 0 {
		return []session.Questions{session.Both}
	}
	return c.Ask
}

// Validate checks the configuration.
func (c Config) Validate() error {
	switch {
	case len(c.Modes) == 0 || len(c.Selectors) == 0 || len(c.Rankers) == 0 || len(c.Protect) == 0:
		return fmt.Errorf("nothing to simulate: give at least one mode, selection strategy and ranking strategy")
	case c.MaxQuestions < 0:
		return fmt.Errorf("max questions %d is negative", c.MaxQuestions)
	case c.Noise < 0 || c.Noise > 1:
		return fmt.Errorf("noise %v is not a probability; give a value in [0, 1]", c.Noise)
	}
	for _, s := range c.Selectors {
		if _, err := rank.ParseSelector(s); err != nil {
			return err
		}
	}
	for _, r := range c.Rankers {
		if _, _, err := ParseRanker(r); err != nil {
			return err
		}
	}
	// A strategy listed twice would run twice, and Summarize would add both
	// runs into one row, doubling its means.
	lists := []struct {
		what  string
		names []string
	}{
		{"answer mode", modeNames(c.Modes)},
		{"selection strategy", c.canonical().Selectors},
		{"ranking strategy", c.Rankers},
		{"protect-correct setting", protectNames(c.Protect)},
		{"kind of questions", askNames(c.Ask)},
	}
	for _, l := range lists {
		if d, ok := duplicate(l.names); ok {
			return fmt.Errorf("%s %q is listed twice; list each once", l.what, d)
		}
	}
	return nil
}

func modeNames(modes []rank.Mode) []string {
	out := make([]string, len(modes))
	for i, m := range modes {
		out[i] = m.String()
	}
	return out
}

func askNames(asks []session.Questions) []string {
	out := make([]string, len(asks))
	for i, a := range asks {
		out[i] = a.String()
	}
	return out
}

func protectNames(protect []bool) []string {
	out := make([]string, len(protect))
	for i, p := range protect {
		out[i] = protectName(p)
	}
	return out
}

// duplicate returns the first name that occurs twice, ignoring case and
// surrounding space as the strategy parsers do.
func duplicate(names []string) (string, bool) {
	seen := map[string]bool{}
	for _, n := range names {
		k := strings.ToLower(strings.TrimSpace(n))
		if seen[k] {
			return n, true
		}
		seen[k] = true
	}
	return "", false
}

// PriorPrefix starts the name of a prior in a ranker spec.
const PriorPrefix = "qe:"

// ParseRanker splits a ranker spec (see Config.Rankers) into its code
// ranker and the name of its prior ("" for none).
func ParseRanker(spec string) (rank.Ranker, string, error) {
	spec = strings.TrimSpace(spec)
	base, prior := spec, ""
	if b, p, ok := strings.Cut(spec, "+"); ok {
		base, prior = b, p
	} else if strings.HasPrefix(spec, PriorPrefix) {
		base, prior = "prior", spec
	}
	if prior != "" && (!strings.HasPrefix(prior, PriorPrefix) || len(prior) == len(PriorPrefix)) {
		return nil, "", fmt.Errorf("ranking strategy %q: a prior is named %sESTIMATOR, e.g. passing+qe:agree", spec, PriorPrefix)
	}
	r, err := rank.ParseRanker(base)
	if err != nil {
		return nil, "", fmt.Errorf("ranking strategy %q: %w", spec, err)
	}
	return r, prior, nil
}

// Result is what one problem contributes to a benchmark: a JSONL line.
type Result struct {
	// ID is the task id.
	ID string `json:"task_id"`
	// Config is the hash of the benchmark's settings (see Settings.Hash).
	Config string `json:"config"`
	// Samples is n, the number of raw code samples.
	Samples int `json:"n"`
	// CorrectSamples is c, how many raw samples extract to a candidate that
	// passes the hidden tests.
	CorrectSamples int `json:"c"`
	// RawCorrect is how many raw samples pass as they came, or -1.
	RawCorrect int `json:"c_raw"`
	// Candidates and Tests count the distinct programs and tests.
	Candidates int `json:"candidates"`
	Tests      int `json:"tests"`
	// Generated counts the generated tests among Tests, Inputs the calls of
	// the input pool; the other tests are synthesized questions on the
	// generated tests' own calls, numbered Generated…Tests−Inputs−1, then
	// those on the input pool's calls.
	Generated int `json:"generated"`
	Inputs    int `json:"inputs"`
	// Baseline maps k to the unbiased pass@k of the raw samples as they came
	// (what `ticoder check` reports), or of the extracted ones when the raw
	// samples are not programs.
	Baseline map[int]float64 `json:"baseline"`
	// Extracted maps k to the unbiased pass@k of the samples after
	// extraction (n raw samples, c = CorrectSamples).
	Extracted map[int]float64 `json:"extracted"`
	// Runs holds one entry per strategy combination.
	Runs []Run `json:"runs"`
}

// Run is one strategy combination on one problem.
type Run struct {
	// Mode is the answer mode; Select the test selector; Rank the ranker
	// spec as given in Config.Rankers; Protect the protect-correct setting.
	Mode    rank.Mode `json:"mode"`
	Select  string    `json:"select"`
	Rank    string    `json:"rank"`
	Protect bool      `json:"protect_correct"`
	// Ask says what the session could ask about.
	Ask session.Questions `json:"ask"`
	// PassAt maps k to pass@k@m for m = 0…MaxQuestions (carried forward
	// after the session stops).
	PassAt map[int][]float64 `json:"pass_at"`
	// Remaining is the number of remaining candidates after m questions.
	Remaining []int `json:"remaining"`
	// Asked lists the questions and answers in order.
	Asked []Asked `json:"asked"`
	// Stop says why the session stopped asking (a session.Stop name:
	// max-questions, one-class, no-split or no-tests); empty if it could
	// still ask.
	Stop string `json:"stop"`
	// Lost is the number of the answer after which no candidate the user
	// can still choose (a remaining one or a fallback, see
	// session.Session.Kept) passed the hidden tests although one had
	// before, when none came back by the end of the session (the reference
	// behaving outside the hidden tests' domain unlike every correct
	// candidate, or a noisy answer); 0 otherwise.
	Lost int `json:"lost,omitempty"`
	// Conflict is the number of the first answer that no candidate agreed
	// with together with all earlier answers ("no candidate agrees"; the
	// session went on with those that agree with the most answers, see
	// session.Session.Conflict), 0 if there was none.
	Conflict int `json:"conflict,omitempty"`
}

// Asked is one question and the simulated user's answer.
type Asked struct {
	// Test indexes Problem.Tests.
	Test int `json:"test"`
	// Answer is the answer as session.ParseAnswer reads it.
	Answer string `json:"answer"`
	// Shown is the value a synthesized question showed.
	Shown string `json:"shown,omitempty"`
	// Code is the question as it was put: the test, or for a synthesized
	// question `assert CALL == SHOWN`.
	Code string `json:"code,omitempty"`
}

// Simulate runs every strategy combination of cfg on one problem.
func Simulate(ctx context.Context, p Problem, cfg Config) (Result, error) {
	cfg = cfg.canonical()
	res := Result{ID: p.ID, Samples: p.Samples, Candidates: len(p.Candidates), Tests: len(p.Tests),
		Generated: len(p.Tests), Inputs: p.Inputs, RawCorrect: p.RawCorrect, Baseline: map[int]float64{}, Extracted: map[int]float64{}}
	if p.Synthesized != nil {
		res.Generated = p.Generated
	}
	for i, c := range p.Candidates {
		if p.Correct[i] {
			res.CorrectSamples += c.Count
		}
	}
	for _, k := range cfg.BaselineKs {
		res.Extracted[k] = PassAtK(res.Samples, res.CorrectSamples, k)
		res.Baseline[k] = res.Extracted[k]
		if p.RawCorrect >= 0 {
			res.Baseline[k] = PassAtK(res.Samples, p.RawCorrect, k)
		}
	}
	rankers := make([]ranker, len(cfg.Rankers))
	for i, spec := range cfg.Rankers {
		r, prior, err := ParseRanker(spec)
		if err != nil {
			return Result{}, err
		}
		rankers[i] = ranker{name: spec, r: r}
		if prior != "" {
			scores, ok := p.Priors[prior]
			if !ok {
				return Result{}, fmt.Errorf("%s: no %s scores for ranking strategy %s", p.ID, prior, spec)
			}
			if len(scores) != len(p.Candidates) {
				return Result{}, fmt.Errorf("%s: %d %s scores for %d candidates", p.ID, len(scores), prior, len(p.Candidates))
			}
			rankers[i].prior = scores
		}
	}
	for _, mode := range cfg.Modes {
		for _, sel := range cfg.Selectors {
			for _, protect := range cfg.Protect {
				for _, ask := range cfg.asks() {
					runs, err := simulateOne(ctx, p, cfg, strategy{mode, sel, protect, ask}, rankers)
					if err != nil {
						return Result{}, fmt.Errorf("%s %s/%s: %w", p.ID, mode, sel, err)
					}
					res.Runs = append(res.Runs, runs...)
				}
			}
		}
	}
	return res, nil
}

// ranker is a code ranker with the prior it ranks by (nil: the session's).
type ranker struct {
	name  string
	r     rank.Ranker
	prior []float64
}

// strategy is what one simulated session is run with.
type strategy struct {
	mode    rank.Mode
	sel     string
	protect bool
	ask     session.Questions
}

// spec returns the session spec of a strategy: with TestsOnly, the
// synthesized questions are left out altogether (the paper's TiCoder).
func (p Problem) spec(cfg Config, st strategy, rk rank.Ranker) session.Spec {
	spec := session.Spec{
		Task: p.Task, Candidates: p.Candidates, Tests: p.Tests, Results: p.Results,
		Mode: st.mode, Select: st.sel, Rank: rk.Name(), MaxQuestions: cfg.MaxQuestions,
		Seed: problemSeed(cfg.Seed, p.ID), Prior: p.Prior, Correct: p.Correct, ProtectCorrect: st.protect,
		Synthesized: p.Synthesized, ValueClass: p.ValueClass, Atypical: p.Atypical, Traits: p.Traits, Questions: st.ask,
	}
	if p.Synthesized != nil && st.ask == session.TestsOnly {
		spec.Tests, spec.Synthesized, spec.Atypical, spec.Questions = p.Tests[:p.Generated], nil, nil, session.Both
		if p.Traits != nil {
			spec.Traits = p.Traits[:p.Generated]
		}
		spec.Results = make([][]execute.Result, len(p.Results))
		for c, row := range p.Results {
			spec.Results[c] = row[:p.Generated]
		}
	}
	return spec
}

// simulateOne runs one session and scores it with every ranker at every m:
// selection does not depend on the ranker.
func simulateOne(ctx context.Context, p Problem, cfg Config, st strategy, rankers []ranker) ([]Run, error) {
	spec := p.spec(cfg, st, rankers[0].r)
	s, err := session.New(spec, p.Comparer)
	if err != nil {
		return nil, err
	}
	pools := make([]*rank.Outcomes, len(rankers))
	for i, r := range rankers {
		if r.prior == nil {
			continue
		}
		in := spec.OutcomesInput()
		if len(p.Candidates) > 0 {
			in.Prior = r.prior
		}
		if pools[i], err = rank.NewOutcomes(in); err != nil {
			return nil, err
		}
	}
	user := *p.User
	user.Key, user.Options.Noise, user.Options.Seed = p.ID, cfg.Noise, cfg.Seed
	runs := make([]Run, len(rankers))
	for i, r := range rankers {
		runs[i] = Run{Mode: st.mode, Select: st.sel, Rank: r.name, Protect: st.protect, Ask: st.ask, PassAt: map[int][]float64{}}
	}
	var asked []Asked
	stop, lost, conflict := "", 0, 0
	for m := 0; m <= cfg.MaxQuestions; m++ {
		if m > 0 && stop == "" {
			q, ok := s.Next()
			if ok {
				a := user.Answer(st.mode, q)
				had := anyCorrect(s.Kept(), p.Correct)
				if err := s.Answer(ctx, q.Test, a); err != nil {
					return nil, fmt.Errorf("question %d: %w", m, err)
				}
				switch has := anyCorrect(s.Kept(), p.Correct); {
				case had && !has:
					lost = m
				case has:
					lost = 0
				}
				if conflict == 0 && s.Conflict() > 0 {
					conflict = m
				}
				as := Asked{Test: q.Test, Answer: a.String(), Code: q.Code}
				if q.Synthesized {
					as.Shown = q.Expected
				}
				asked = append(asked, as)
			} else {
				stop = s.Status().String()
			}
		}
		for i, r := range rankers {
			pool := pools[i]
			if pool == nil {
				pool = s.Outcomes()
			}
			ranking := s.RankedWith(r.r, pool)
			for _, k := range cfg.Ks {
				runs[i].PassAt[k] = append(runs[i].PassAt[k], TopK(ranking, s.Outcomes().Count, func(c int) bool { return p.Correct[c] }, k))
			}
			runs[i].Remaining = append(runs[i].Remaining, len(s.Alive()))
		}
	}
	if stop == "" && s.Status() != session.Running {
		stop = s.Status().String()
	}
	for i := range runs {
		runs[i].Asked, runs[i].Stop, runs[i].Lost, runs[i].Conflict = asked, stop, lost, conflict
	}
	return runs, nil
}

// problemSeed derives a problem's random-selector seed from the run's seed.
func problemSeed(seed uint64, id string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s", seed, id)
	return h.Sum64()
}

// anyCorrect reports whether a candidate of set passes the hidden tests.
func anyCorrect(set []int, correct []bool) bool {
	for _, c := range set {
		if correct[c] {
			return true
		}
	}
	return false
}
