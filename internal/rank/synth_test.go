package rank

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// synthPool has one generated test (column 0), which only candidate 3
// fails, and two synthesized questions (columns 1, 2). On question 1
// candidates return 1, 1.0 (== 1), 2, raise, 2; on question 2 they all
// return 7 but for the one that raises.
func synthPool(t *testing.T) *Outcomes {
	t.Helper()
	return pool(t, OutcomesInput{
		Results: grid(t,
			"P F=1 F=7",
			"P F=1.0 F=7",
			"P P=2 F=7",
			"F=3 E E",
			"P F=2 F=7",
		),
		Counts:      []int{1, 1, 3, 1, 1},
		Calls:       []bool{true, true, true},
		Synthesized: []bool{false, true, true},
		ValueClass:  map[string]int32{"1": 0, "1.0": 0, "2": 1, "3": 2, "7": 3},
	})
}

func TestSynthesizedPool(t *testing.T) {
	p := synthPool(t)
	// Values: by ==, not by repr; a synthesized question's pass/fail
	// outcome (P=2 against a placeholder) means nothing.
	if p.Value(0, 1) != p.Value(1, 1) || p.Value(2, 1) != p.Value(4, 1) || p.Value(0, 1) == p.Value(2, 1) || p.Value(3, 1) != -1 {
		t.Errorf("values on question 1: %d %d %d %d %d", p.Value(0, 1), p.Value(1, 1), p.Value(2, 1), p.Value(3, 1), p.Value(4, 1))
	}
	if p.ValueOf(1, "1.0") != p.Value(0, 1) || p.ValueOf(1, "9") != -1 {
		t.Errorf("ValueOf: %d %d", p.ValueOf(1, "1.0"), p.ValueOf(1, "9"))
	}
	for c := range 5 {
		if p.Passes(c, 1) || p.Passes(c, 2) {
			t.Errorf("candidate %d passes a synthesized question", c)
		}
	}
	// Classes: 0 and 1 behave alike (1 == 1.0); 2 and 4 differ only in that
	// 2 passes question 1's placeholder, which does not count.
	if p.Class(0) != p.Class(1) || p.Class(2) != p.Class(4) || p.Class(0) == p.Class(2) || p.NumClasses(all(5)) != 3 {
		t.Errorf("classes %d %d %d %d %d", p.Class(0), p.Class(1), p.Class(2), p.Class(3), p.Class(4))
	}
	// The pivot is the value of the best-ranked candidate that returned one.
	r := Ranking{Order: []int{3, 2, 0, 1, 4}}
	if d := cmp.Diff([]int32{-1, p.Value(2, 1), p.Value(0, 2)}, p.Pivots(r)); d != "" {
		t.Errorf("pivots (-want +got):\n%s", d)
	}
	// Rankers do not count synthesized questions.
	if d := cmp.Diff([]float64{1, 1, 1, 0, 1}, Passing{}.Scores(p, all(5), all(3))); d != "" {
		t.Errorf("passing (-want +got):\n%s", d)
	}
}

func TestSynthesizedSplits(t *testing.T) {
	p := synthPool(t)
	pivot := p.Value(2, 1) // 2
	tests := []struct {
		name      string
		mode      Mode
		pivot     int32
		test      int
		splits    bool
		pass, bad int
	}{
		{"passfail: the pivot passes, other values fail", PassFail, pivot, 1, true, 2, 2},
		{"output: the pivot passes, other values apart", Output, pivot, 1, true, 2, 2},
		{"no pivot: nothing passes", PassFail, -1, 1, false, 0, 4},
		{"the same value but for an error", Output, p.Value(0, 2), 2, true, 4, 0},
		{"the same value, the error aside", Output, p.Value(0, 2), 2, false, 4, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			piv := []int32{-1, -1, -1}
			piv[tc.test] = tc.pivot
			alive := all(5)
			if tc.name == "the same value, the error aside" {
				alive = []int{0, 1, 2, 4}
			}
			q := Query{Outcomes: p, Mode: tc.mode, Alive: alive, Unasked: all(3), Pivot: piv}
			s := q.Split(tc.test)
			if s.Splits() != tc.splits {
				t.Errorf("splits = %v, want %v", s.Splits(), tc.splits)
			}
			if pass, fail := s.Counts(); pass != tc.pass || fail != tc.bad {
				t.Errorf("counts %d, %d; want %d, %d", pass, fail, tc.pass, tc.bad)
			}
		})
	}
	// Without pivots a PassFail session could never ask question 1; with
	// them infogain prefers it to the generated test, which only candidate
	// 3 fails.
	q := Query{Outcomes: p, Mode: PassFail, Alive: all(5), Unasked: all(3), Pivot: []int32{-1, pivot, p.Value(0, 2)}}
	if got, ok := Select(InfoGain{}, q); !ok || got != 1 {
		t.Errorf("infogain asked %d (%v), want 1", got, ok)
	}
	q.Pivot = nil
	if got, ok := Select(InfoGain{}, q); !ok || got != 0 {
		t.Errorf("infogain without pivots asked %d (%v), want 0", got, ok)
	}
}

func TestSynthesizedChecks(t *testing.T) {
	if _, err := NewOutcomes(OutcomesInput{Results: grid(t, "P F"), Synthesized: []bool{true}}); err == nil {
		t.Error("accepted one synthesized flag for two tests")
	}
}

// TestInfoGainSkipsSurelyUndefined: a question whose answer is surely
// undefined (Query.Undefined 1) gains nothing and is not offered; the
// paper's discr still offers it.
func TestInfoGainSkipsSurelyUndefined(t *testing.T) {
	p := synthPool(t)
	q := Query{Outcomes: p, Mode: Output, Alive: all(5), Unasked: []int{0}, Undefined: []float64{1, 0, 0}}
	if got := Scores(InfoGain{}, q); len(got) != 0 {
		t.Errorf("infogain offered %v", got)
	}
	if got := Scores(Discr{}, q); len(got) != 1 {
		t.Errorf("discr offered %v", got)
	}
	q.Undefined[0] = 0.5
	if got := Scores(InfoGain{}, q); len(got) != 1 || got[0].Score <= 0 {
		t.Errorf("infogain with a chance of a defined answer: %v", got)
	}
}

// TestInfoGainAtypical: two synthesized questions split the candidates the
// same way; the one about an atypical input (OutcomesInput.Atypical) is taken
// to be answered undefined at least AtypicalUndefined of the time, so its
// gain is the typical one's × (1 − AtypicalUndefined), and a question
// whose candidates mostly raise keeps its larger chance of undefined.
func TestInfoGainAtypical(t *testing.T) {
	p := pool(t, OutcomesInput{
		Results: grid(t,
			"F=1 F=1 E",
			"F=1 F=1 E",
			"F=2 F=2 E",
			"F=2 F=2 F=2",
		),
		Calls:       []bool{true, true, true},
		Synthesized: []bool{true, true, true},
		Atypical:    []bool{false, true, true},
	})
	q := Query{Outcomes: p, Mode: Output, Alive: all(4), Unasked: all(3)}
	gain := func(t int) float64 { return InfoGain{}.Score(q, q.Split(t)) }
	typical, atypical, raising := gain(0), gain(1), gain(2)
	if typical <= 0 {
		t.Fatalf("typical gain %v, want > 0", typical)
	}
	if want := typical * (1 - AtypicalUndefined); math.Abs(atypical-want) > 1e-12 {
		t.Errorf("atypical gain %v, want %v", atypical, want)
	}
	// Three of four candidates raise on question 2: u = 3/4 > 1/2 stands.
	if raising <= 0 || raising >= atypical {
		t.Errorf("gain of the question most candidates reject %v, want in (0, %v)", raising, atypical)
	}
	if _, err := NewOutcomes(OutcomesInput{Results: grid(t, "F=1"), Synthesized: []bool{true}, Atypical: []bool{true, false}}); err == nil {
		t.Error("atypical flags of the wrong length accepted")
	}
}

// TestBestPivot: a PassFail synthesized question may show any value the
// remaining candidates return; with BestPivot the selector scores each and
// keeps the best (ties keep the best-ranked candidate's value), so that a
// yes can also change which candidates lead. Output mode keeps the pivot.
func TestBestPivot(t *testing.T) {
	p := pool(t, OutcomesInput{
		Results:     grid(t, "F=1", "F=2", "F=2", "F=3", "F=3"),
		Calls:       []bool{true},
		Synthesized: []bool{true},
	})
	one := p.ValueOf(0, "1")
	for _, c := range []struct {
		mode Mode
		best bool
		want int32
	}{
		{PassFail, false, one},
		{PassFail, true, p.ValueOf(0, "2")}, // 2:3 beats 1:4; 2 and 3 tie, 2 is first
		{Output, true, one},
	} {
		q := Query{Outcomes: p, Mode: c.mode, Alive: all(5), Unasked: all(1), Pivot: []int32{one}, BestPivot: c.best}
		for _, sel := range []Selector{InfoGain{}, Discr{}} {
			s := Scores(sel, q)
			if len(s) != 1 || s[0].Pivot != c.want {
				t.Errorf("%v, best pivot %v, %s: %+v, want pivot %d", c.mode, c.best, sel.Name(), s, c.want)
			}
		}
	}
}
