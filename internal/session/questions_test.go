package session

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/rank"
)

// synthSpec is a spec whose one generated test every candidate passes (it
// splits nothing), with one synthesized question g(9) on which candidates 0
// and 1 return 1 and 1.0 (== in Python), 2 returns 2, 3 raises and 4
// returns 2. Candidate 2 has the largest multiplicity, so it ranks first.
func synthSpec(t *testing.T, mode rank.Mode) (Spec, reprComparer) {
	t.Helper()
	spec, rc := build(t, mode, []int{1, 1, 3, 1, 1}, "P", "P", "P", "P", "P")
	val := func(v string) execute.Result { return execute.Result{Outcome: execute.Fail, Value: v, HasValue: true} }
	results := [][]execute.Result{{val("1")}, {val("1.0")}, {val("2")}, {{Outcome: execute.Error, Exception: "ValueError"}}, {val("2")}}
	for c, v := range []string{"1", "1.0", "2", "", "2"} {
		if v != "" {
			rc.values[spec.Candidates[c].Program]["g(9)"] = v
		}
	}
	classes := map[string]int32{"1": 0, "1.0": 0, "2": 1}
	if err := spec.AddSynthesized([]extract.Test{SynthesizedTest("", "g(9)")}, results, classes); err != nil {
		t.Fatal(err)
	}
	return spec, rc
}

func TestSynthesizedQuestion(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		mode   rank.Mode
		answer Answer
		want   []int
	}{
		{"pass keeps the shown value", rank.PassFail, Answer{Verdict: Pass}, []int{2, 4}},
		{"fail drops the shown value", rank.PassFail, Answer{Verdict: Fail}, []int{0, 1, 3}},
		{"undefined keeps all", rank.PassFail, Answer{Verdict: Undefined}, []int{0, 1, 2, 3, 4}},
		{"output keeps equal values", rank.Output, Answer{Verdict: Output, Value: "1"}, []int{0}},
		{"pass in output mode", rank.Output, Answer{Verdict: Pass}, []int{2, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec, rc := synthSpec(t, tc.mode)
			s := start(t, spec, rc)
			q := ask(t, s)
			want := Question{Number: 1, Test: 1, Code: "assert g(9) == 2", Input: "g(9)", Expected: "2", Score: q.Score,
				Synthesized: true, Choices: []string{"2", "1"}}
			if d := cmp.Diff(want, q); d != "" {
				t.Fatalf("question (-want +got):\n%s", d)
			}
			if err := s.Answer(ctx, q.Test, tc.answer); err != nil {
				t.Fatal(err)
			}
			// The stand-in comparer compares reprs: "1.0" is not "1" to it.
			if d := cmp.Diff(tc.want, s.Alive()); d != "" {
				t.Errorf("remaining (-want +got):\n%s", d)
			}
		})
	}
}

func TestSynthesizedApprovedUndoJSON(t *testing.T) {
	ctx := context.Background()
	spec, rc := synthSpec(t, rank.PassFail)
	s := start(t, spec, rc)
	q := ask(t, s)
	if err := s.Answer(ctx, q.Test, Answer{Verdict: Pass}); err != nil {
		t.Fatal(err)
	}
	wantTest := execute.Test{Code: "assert g(9) == 2", Input: "g(9)", Expected: "2"}
	if d := cmp.Diff([]execute.Test{wantTest}, s.Approved()); d != "" {
		t.Errorf("approved (-want +got):\n%s", d)
	}
	b, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(b, rc)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []*Session{s, back} {
		if err := x.Undo(); err != nil {
			t.Fatal(err)
		}
		again, ok := x.Next()
		if !ok || cmp.Diff(q, again) != "" {
			t.Errorf("after undo: %+v, want %+v", again, q)
		}
	}
	var st struct {
		Spec struct {
			Synthesized []bool `json:"synthesized"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(b, &st); err != nil || cmp.Diff([]bool{false, true}, st.Spec.Synthesized) != "" {
		t.Errorf("stored flags %v (%v)", st.Spec.Synthesized, err)
	}
}

func TestQuestionsSetting(t *testing.T) {
	ctx := context.Background()
	t.Run("tests only never asks a synthesized question", func(t *testing.T) {
		spec, rc := synthSpec(t, rank.PassFail)
		spec.Questions = TestsOnly
		s := start(t, spec, rc)
		if _, ok := s.Next(); ok || s.Status() != NoSplit {
			t.Errorf("status %v, want no-split", s.Status())
		}
	})
	t.Run("inputs only never asks a test", func(t *testing.T) {
		spec, rc := build(t, rank.PassFail, []int{1, 1}, "P", "F")
		res := [][]execute.Result{{{Outcome: execute.Fail, Value: "1", HasValue: true}}, {{Outcome: execute.Fail, Value: "1", HasValue: true}}}
		if err := spec.AddSynthesized([]extract.Test{SynthesizedTest("", "g(1)")}, res, nil); err != nil {
			t.Fatal(err)
		}
		spec.Questions = InputsOnly
		s := start(t, spec, rc)
		if _, ok := s.Next(); ok || s.Status() != NoSplit {
			t.Errorf("status %v, want no-split", s.Status())
		}
		spec.Questions = Both
		s = start(t, spec, rc)
		if q, ok := s.Next(); !ok || q.Test != 0 {
			t.Errorf("both: %+v %v, want test 0", q, ok)
		}
	})
	t.Run("no tests at all", func(t *testing.T) {
		spec, rc := build(t, rank.PassFail, []int{1, 1}, "", "")
		s := start(t, spec, rc)
		if _, ok := s.Next(); ok || s.Status() != NoTests {
			t.Errorf("status %v, want no-tests", s.Status())
		}
	})
	t.Run("a synthesized question is something to ask", func(t *testing.T) {
		spec, rc := build(t, rank.PassFail, []int{1, 1}, "", "")
		res := [][]execute.Result{{{Outcome: execute.Fail, Value: "1", HasValue: true}}, {{Outcome: execute.Fail, Value: "2", HasValue: true}}}
		if err := spec.AddSynthesized([]extract.Test{SynthesizedTest("", "g(1)")}, res, nil); err != nil {
			t.Fatal(err)
		}
		s := start(t, spec, rc)
		q := ask(t, s)
		if err := s.Answer(ctx, q.Test, Answer{Verdict: Fail}); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]int{1}, s.Alive()); d != "" {
			t.Errorf("remaining (-want +got):\n%s", d)
		}
	})
}

func TestParseQuestions(t *testing.T) {
	for in, want := range map[string]Questions{"": Both, "both": Both, " Tests ": TestsOnly, "inputs": InputsOnly} {
		got, err := ParseQuestions(in)
		if err != nil || got != want {
			t.Errorf("ParseQuestions(%q) = %v, %v; want %v", in, got, err, want)
		}
		b, _ := got.MarshalText()
		var back Questions
		if err := back.UnmarshalText(b); err != nil || back != got {
			t.Errorf("round trip of %v: %v, %v", got, back, err)
		}
	}
	if _, err := ParseQuestions("all"); err == nil {
		t.Error("accepted \"all\"")
	}
}

func TestAddSynthesizedChecks(t *testing.T) {
	spec, _ := build(t, rank.PassFail, []int{1, 1}, "P", "F")
	if err := spec.AddSynthesized([]extract.Test{SynthesizedTest("", "g(1)")}, [][]execute.Result{{{}}}, nil); err == nil {
		t.Error("accepted one result row for two candidates")
	}
	if err := spec.AddSynthesized([]extract.Test{{Test: execute.Test{Code: "assert g(1)"}}}, [][]execute.Result{{{}}, {{}}}, nil); err == nil {
		t.Error("accepted a question without a call")
	}
	spec.Synthesized = []bool{true}
	spec.Tests[0].Input = ""
	if _, err := New(spec, nil); err == nil {
		t.Error("New accepted a synthesized test without a call")
	}
}

// TestInfogainWeighsAgreement: a PassFail infogain session weighs
// candidates by the generated tests' agreement (rank.Outcomes.Agreement).
// Candidates 0 and 1 pass both generated tests, 2, 3 and 4 neither;
// synthesized question f(1) tells 1 from the others, f(2) tells {3, 4} from
// {0, 1, 2}. By sqrt(multiplicity) alone, generated test 0 (2:3) is asked
// first, as in Output mode; weighed by agreement, f(1), which tells apart
// the two candidates the tests support, is. Regression test of a PassFail
// m=1 drop.
func TestInfogainWeighsAgreement(t *testing.T) {
	for _, tc := range []struct {
		mode rank.Mode
		want int
	}{{rank.PassFail, 2}, {rank.Output, 0}} {
		mode := tc.mode
		spec, rc := build(t, mode, []int{1, 1, 1, 1, 1}, "P P", "P P", "F=0 F=0", "F=0 F=0", "F=0 F=0")
		spec.Select = "infogain"
		val := func(v string) execute.Result { return execute.Result{Outcome: execute.Fail, Value: v, HasValue: true} }
		results := [][]execute.Result{{val("1"), val("1")}, {val("2"), val("1")}, {val("1"), val("1")}, {val("1"), val("2")}, {val("1"), val("2")}}
		tests := []extract.Test{SynthesizedTest("", "f(1)"), SynthesizedTest("", "f(2)")}
		if err := spec.AddSynthesized(tests, results, map[string]int32{"1": 0, "2": 1}); err != nil {
			t.Fatal(err)
		}
		q := ask(t, start(t, spec, rc))
		if q.Test != tc.want {
			t.Errorf("%v: first question is test %d (%s), want %d", mode, q.Test, q.Code, tc.want)
		}
	}
}

// TestTraitsAfterUndefined: once the user has called a question undefined,
// infogain expects the questions that share a trait with it (a way their
// input leaves the written examples) to be undefined too, and asks another
// kind of question first; a trait whose questions were answered stays
// askable.
func TestTraitsAfterUndefined(t *testing.T) {
	ctx := context.Background()
	// Tests 0 and 1 split the four candidates in halves, each another way;
	// test 2 splits off one candidate. Tests 0 and 1 share a trait.
	traits := [][]string{{"0:-nonneg"}, {"0:-nonneg", "0:-pos"}, nil}
	for _, tc := range []struct {
		name   string
		traits [][]string
		first  Answer
		want   int // the second question's test
	}{
		{"no traits", nil, Answer{Verdict: Undefined}, 1},
		{"a shared trait answered undefined", traits, Answer{Verdict: Undefined}, 2},
		{"a shared trait answered", traits, Answer{Verdict: Pass}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, rc := build(t, rank.PassFail, []int{1, 1, 1, 1}, "P P P", "P F P", "F P P", "F F F")
			spec.Select, spec.Traits = "infogain", tc.traits
			s := start(t, spec, rc)
			q := ask(t, s)
			if q.Test != 0 {
				t.Fatalf("first question: test %d, want 0", q.Test)
			}
			if err := s.Answer(ctx, q.Test, tc.first); err != nil {
				t.Fatal(err)
			}
			if q := ask(t, s); q.Test != tc.want {
				t.Errorf("second question: test %d, want %d", q.Test, tc.want)
			}
		})
	}
	spec, rc := build(t, rank.PassFail, []int{1, 1}, "P", "F")
	spec.Traits = [][]string{{"x"}, {"y"}}
	if _, err := New(spec, rc); err == nil {
		t.Error("New accepted two trait lists for one test")
	}
}

// TestTraitChances: a trait counts once most answered questions with it
// were undefined, at Laplace's (undefined + 1) / (answered + 2).
func TestTraitChances(t *testing.T) {
	undef, pass := Answer{Verdict: Undefined}, Answer{Verdict: Pass}
	traits := [][]string{{"neg", "nodigit"}, {"nodigit"}, {"neg"}, {"neg", "upper"}}
	for _, tc := range []struct {
		name    string
		answers map[int]Answer
		want    map[string]float64
	}{
		{"none", nil, map[string]float64{}},
		{"one undefined", map[int]Answer{0: undef}, map[string]float64{"neg": 2.0 / 3, "nodigit": 2.0 / 3}},
		{"as many defined", map[int]Answer{0: undef, 1: pass}, map[string]float64{"neg": 2.0 / 3}},
		{"two undefined", map[int]Answer{0: undef, 2: undef}, map[string]float64{"neg": 3.0 / 4, "nodigit": 2.0 / 3}},
		{"then defined", map[int]Answer{0: undef, 2: undef, 3: pass}, map[string]float64{"neg": 3.0 / 5, "nodigit": 2.0 / 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Session{spec: Spec{Traits: traits}}
			for test := range len(traits) {
				if a, ok := tc.answers[test]; ok {
					s.history = append(s.history, Step{Test: test, Answer: a})
				}
			}
			if d := cmp.Diff(tc.want, s.traitChances()); d != "" {
				t.Errorf("chances (-want +got):\n%s", d)
			}
		})
	}
}
