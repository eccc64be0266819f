package rank

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/execute"
)

// grid builds results from rows of space-separated cells: P pass, F fail,
// E error, T timeout, C crash; "F=v" fails returning v, "P=v" passes
// returning v.
func grid(t *testing.T, rows ...string) [][]execute.Result {
	t.Helper()
	var out [][]execute.Result
	for _, row := range rows {
		var rs []execute.Result
		for _, cell := range strings.Fields(row) {
			code, val, has := strings.Cut(cell, "=")
			var r execute.Result
			switch code {
			case "P":
				r.Outcome = execute.Pass
			case "F":
				r.Outcome = execute.Fail
			case "E":
				r.Outcome = execute.Error
				r.Exception = "ValueError"
			case "T":
				r.Outcome = execute.Timeout
			case "C":
				r.Outcome = execute.Crash
			default:
				t.Fatalf("bad cell %q", cell)
			}
			r.Value, r.HasValue = val, has
			rs = append(rs, r)
		}
		out = append(out, rs)
	}
	return out
}

func pool(t *testing.T, in OutcomesInput) *Outcomes {
	t.Helper()
	p, err := NewOutcomes(in)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func all(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// figure3 is the paper's running example: c1 passes t1, t2, t3; c2 passes
// t2, t3; c3 passes t3 only.
func figure3(t *testing.T) *Outcomes {
	return pool(t, OutcomesInput{Results: grid(t,
		"P P P",
		"F P P",
		"F F P",
	)})
}

func TestDiscrFigure3(t *testing.T) {
	p := figure3(t)
	q := Query{Outcomes: p, Mode: PassFail, Alive: all(3), Unasked: all(3)}
	var got []float64
	for tt := range 3 {
		got = append(got, Discr{}.Score(q, p.NewSplit(PassFail, q.Alive, tt)))
	}
	if diff := cmp.Diff([]float64{0.5, 0.5, 0}, got); diff != "" {
		t.Errorf("s(t1), s(t2), s(t3) (-want +got):\n%s", diff)
	}
	// t3 does not split, so it is never offered; t1 and t2 tie, t1 first.
	if diff := cmp.Diff([]Scored{{0, 0.5, -1}, {1, 0.5, -1}}, Scores(Discr{}, q)); diff != "" {
		t.Errorf("Scores (-want +got):\n%s", diff)
	}
}

func TestPassingFigure3(t *testing.T) {
	p := figure3(t)
	r := Rank(Passing{}, p, all(3), all(3))
	want := Ranking{Order: []int{0, 1, 2}, Score: []float64{3, 2, 1}, Tie: []int{0, 1, 2}}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("ranking c1 > c2 > c3 (-want +got):\n%s", diff)
	}
}

func TestDiscrIgnoresErrorsAndCountsCandidates(t *testing.T) {
	p := pool(t, OutcomesInput{
		Results: grid(t, "P", "F", "E", "T", "F", "C"),
		Counts:  []int{10, 1, 1, 1, 1, 1},
	})
	s := p.NewSplit(PassFail, all(6), 0)
	pass, fail := s.Counts()
	if pass != 1 || fail != 2 {
		t.Errorf("|G+|, |G-| = %d, %d; want 1, 2 (errors ignored, candidates not samples)", pass, fail)
	}
	if got := (Discr{}).Score(Query{Outcomes: p}, s); got != 0.5 {
		t.Errorf("s = %v, want 0.5", got)
	}
}

func TestSplits(t *testing.T) {
	tests := []struct {
		name string
		rows []string
		mode Mode
		want bool
	}{
		{"all pass", []string{"P", "P"}, PassFail, false},
		{"all fail", []string{"F", "F"}, PassFail, false},
		{"pass and fail", []string{"P", "F"}, PassFail, true},
		{"pass and error", []string{"P", "E"}, PassFail, true},
		{"fail and error", []string{"F", "E"}, PassFail, false},
		{"all error", []string{"E", "T"}, PassFail, false},
		{"output: two values", []string{"F=1", "F=2"}, Output, true},
		{"output: same value", []string{"F=1", "F=1"}, Output, false},
		{"output: value and error", []string{"F=1", "E"}, Output, true},
		{"output: pass and value", []string{"P=1", "F=2"}, Output, true},
		{"passfail ignores values", []string{"F=1", "F=2"}, PassFail, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := pool(t, OutcomesInput{Results: grid(t, tc.rows...), Calls: []bool{true}})
			if got := p.NewSplit(tc.mode, all(len(tc.rows)), 0).Splits(); got != tc.want {
				t.Errorf("Splits = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestNonSplittingTestNeverAsked(t *testing.T) {
	p := pool(t, OutcomesInput{Results: grid(t, "P F E", "P F E"), Calls: []bool{true, true, true}})
	for _, name := range Selectors() {
		sel, err := ParseSelector(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []Mode{PassFail, Output} {
			if tt, ok := Select(sel, Query{Outcomes: p, Mode: mode, Alive: all(2), Unasked: all(3)}); ok {
				t.Errorf("%s/%s asked test %d, which does not split", name, mode, tt)
			}
		}
	}
}

func TestInfoGain(t *testing.T) {
	// Four classes with masses 1,1,1,1: H = 2 bits.
	p := pool(t, OutcomesInput{
		Results: grid(t,
			"P   P F=1 E",
			"P   F F=2 E",
			"F=0 P F=3 P",
			"F=0 F F=4 F"),
		Calls: []bool{true, true, true, true},
	})
	q := Query{Outcomes: p, Alive: all(4), Unasked: all(4)}
	tests := []struct {
		name string
		mode Mode
		test int
		want float64
	}{
		{"halves gain one bit", PassFail, 0, 1},
		{"halves gain one bit (other test)", PassFail, 1, 1},
		{"distinct values gain everything in output mode", Output, 2, 2},
		{"no pass in passfail gains nothing", PassFail, 2, 0},
		// Half the mass errs (undefined: keeps all, H=2); a quarter passes
		// (H=0); a quarter fails and keeps the two erring ones too (H=log2 3).
		{"undefined answers gain nothing", PassFail, 3, 2 - 0.5*2 - 0.25*0 - 0.25*1.584962500721156},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q.Mode = tc.mode
			got := InfoGain{}.Score(q, p.NewSplit(tc.mode, q.Alive, tc.test))
			if diff := got - tc.want; diff > 1e-9 || diff < -1e-9 {
				t.Errorf("gain = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestInfoGainWeightsMultiplicity(t *testing.T) {
	// Both tests split 2 candidates vs 2, so discr ties; by mass test 0
	// splits 9 vs 9 and test 1 splits 16 vs 2: infogain prefers test 0.
	p := pool(t, OutcomesInput{
		Results: grid(t,
			"P F",
			"P P",
			"F P",
			"F F"),
		Counts: []int{1, 8, 8, 1},
	})
	q := Query{Outcomes: p, Mode: PassFail, Alive: all(4), Unasked: all(2)}
	if got, _ := Select(InfoGain{}, q); got != 0 {
		t.Errorf("selected %d, want 0", got)
	}
	g0 := InfoGain{}.Score(q, p.NewSplit(PassFail, q.Alive, 0))
	g1 := InfoGain{}.Score(q, p.NewSplit(PassFail, q.Alive, 1))
	if !(g0 > g1) {
		t.Errorf("gain(t0) = %v, gain(t1) = %v; want the balanced-by-mass test 0 to win", g0, g1)
	}
}

func TestIdeal(t *testing.T) {
	// Candidate 2 is correct. Test 0 keeps it with one wrong one; test 1
	// keeps it alone.
	p := pool(t, OutcomesInput{
		Results: grid(t,
			"P F",
			"F F",
			"P P",
			"F F"),
		Correct: []bool{false, false, true, false},
	})
	q := Query{Outcomes: p, Mode: PassFail, Alive: all(4), Unasked: all(2)}
	if got, ok := Select(Oracle{}, q); !ok || got != 1 {
		t.Errorf("ideal selected %d, %v; want 1", got, ok)
	}
}

func TestRandomIsSeededAndSplits(t *testing.T) {
	p := pool(t, OutcomesInput{Results: grid(t, "P P P P F", "F F F F F")})
	pick := func(seed uint64, step int) int {
		got, ok := Select(Random{}, Query{Outcomes: p, Mode: PassFail, Alive: all(2), Unasked: all(5), Seed: seed, Step: step})
		if !ok || got == 4 {
			t.Fatalf("random picked %d, %v", got, ok)
		}
		return got
	}
	seen := map[int]bool{}
	for seed := range uint64(40) {
		if pick(seed, 0) != pick(seed, 0) {
			t.Fatal("random selection is not reproducible")
		}
		seen[pick(seed, 0)] = true
	}
	if len(seen) != 4 {
		t.Errorf("40 seeds chose only tests %v; want all four splitting tests", seen)
	}
}

func TestCodeT(t *testing.T) {
	// Candidates 0 and 1 pass {t0,t1}, mass 1+3: score sqrt(4)*2 = 4.
	// Candidate 2 passes {t0,t1,t2}, mass 1: score 3. Candidate 3: 0.
	p := pool(t, OutcomesInput{
		Results: grid(t, "P P F", "P P F", "P P P", "F F F"),
		Counts:  []int{1, 3, 1, 5},
	})
	r := Rank(CodeT{}, p, all(4), all(3))
	want := Ranking{Order: []int{1, 0, 2, 3}, Score: []float64{4, 4, 3, 0}, Tie: []int{0, 0, 1, 2}}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("codet ranking (-want +got):\n%s", diff)
	}
	// Only unasked tests count: with t2 asked, 2 joins the first group.
	r = Rank(CodeT{}, p, all(4), []int{0, 1})
	if diff := cmp.Diff([]float64{2 * 2.23606797749979, 2 * 2.23606797749979, 2 * 2.23606797749979, 0}, r.Score); diff != "" {
		t.Errorf("codet scores over unasked tests (-want +got):\n%s", diff)
	}
}

func TestRankTieBreaks(t *testing.T) {
	tests := []struct {
		name  string
		in    OutcomesInput
		order []int
		tie   []int
	}{
		{"multiplicity then first", OutcomesInput{Results: grid(t, "P", "P", "P"), Counts: []int{1, 2, 1}, First: []int{5, 9, 3}}, []int{1, 2, 0}, []int{0, 0, 0}},
		{"prior before multiplicity, and splits ties", OutcomesInput{Results: grid(t, "P", "P", "F"), Counts: []int{5, 1, 9}, Prior: []float64{0.1, 0.9, 1}}, []int{1, 0, 2}, []int{0, 1, 2}},
		// Candidate 0 raises on both tests: whatever its score, prior and
		// multiplicity it comes after those that return something, and ties
		// with none of them; candidate 2 errs on one test only.
		{"broken last", OutcomesInput{Results: grid(t, "E E", "F F=1", "E F=2"), Counts: []int{9, 1, 1}, Prior: []float64{1, 0, 0}}, []int{1, 2, 0}, []int{0, 0, 1}},
		{"every one broken: as before", OutcomesInput{Results: grid(t, "E E", "E E"), Counts: []int{1, 3}}, []int{1, 0}, []int{0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := pool(t, tc.in)
			r := Rank(Passing{}, p, all(len(tc.order)), all(p.Tests()))
			if diff := cmp.Diff(tc.order, r.Order); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.tie, r.Tie); diff != "" {
				t.Errorf("ties (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClasses(t *testing.T) {
	p := pool(t, OutcomesInput{
		Results: grid(t, "P F=1", "P F=2", "P F=1", "F E"),
		Counts:  []int{1, 2, 4, 1},
	})
	if got := p.NumClasses(all(4)); got != 3 {
		t.Errorf("NumClasses = %d, want 3 (values tell classes apart)", got)
	}
	got := Rank(Passing{}, p, all(4), all(2)).Classes(p)
	want := []Class{
		{Rep: 2, Members: []int{2, 0}, Count: 5, Score: 1},
		{Rep: 1, Members: []int{1}, Count: 2, Score: 1},
		{Rep: 3, Members: []int{3}, Count: 1, Score: 0, Tie: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("classes (-want +got):\n%s", diff)
	}
}

func TestNewOutcomesRejectsBadInput(t *testing.T) {
	tests := []struct {
		name string
		in   OutcomesInput
	}{
		{"ragged", OutcomesInput{Results: grid(t, "P P", "P")}},
		{"counts length", OutcomesInput{Results: grid(t, "P"), Counts: []int{1, 2}}},
		{"zero count", OutcomesInput{Results: grid(t, "P"), Counts: []int{0}}},
		{"calls length", OutcomesInput{Results: grid(t, "P"), Calls: []bool{true, false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewOutcomes(tc.in); err == nil {
				t.Error("NewOutcomes accepted bad input")
			}
		})
	}
}

func TestParse(t *testing.T) {
	for _, n := range Selectors() {
		s, err := ParseSelector(n)
		if err != nil || s.Name() != n {
			t.Errorf("ParseSelector(%q) = %v, %v", n, s, err)
		}
	}
	for _, n := range Rankers() {
		r, err := ParseRanker(n)
		if err != nil || r.Name() != n {
			t.Errorf("ParseRanker(%q) = %v, %v", n, r, err)
		}
	}
	if _, err := ParseSelector("best"); err == nil {
		t.Error("ParseSelector accepted an unknown name")
	}
	for _, m := range []Mode{PassFail, Output} {
		b, _ := m.MarshalText()
		var got Mode
		if err := got.UnmarshalText(b); err != nil || got != m {
			t.Errorf("mode %v round trip: %v, %v", m, got, err)
		}
	}
}

func TestNoCandidates(t *testing.T) {
	// Nothing extracted but tests: a pool of tests that split nothing.
	p := pool(t, OutcomesInput{Calls: []bool{true, false}})
	if got := p.Tests(); got != 2 {
		t.Errorf("Tests = %d, want 2", got)
	}
	for _, mode := range []Mode{PassFail, Output} {
		if tt, ok := Select(InfoGain{}, Query{Outcomes: p, Mode: mode, Unasked: all(2)}); ok {
			t.Errorf("%s: asked test %d of an empty pool", mode, tt)
		}
	}
	if r := Rank(Passing{}, p, nil, all(2)); len(r.Order) != 0 {
		t.Errorf("ranking of no candidates: %v", r.Order)
	}
}
