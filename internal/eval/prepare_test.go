package eval

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/inputs"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/session"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

// fixtureProblem returns problem id of the fixtures' HumanEval-noexamples.
func fixtureProblem(t *testing.T, id string) dataset.Problem {
	t.Helper()
	ds, err := dataset.Load(context.Background(), testutil.Fixtures(t), "humaneval-noexamples")
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ds.Get(id)
	if !ok {
		t.Fatalf("no %s in the fixtures", id)
	}
	return p
}

// TestPrepareHumanEval0 runs hand-written candidates and tests of
// HumanEval/0 in the sandbox: the matrix, the hidden verdicts, the skipped
// reruns of a looping call, and the simulated user's answers.
func TestPrepareHumanEval0(t *testing.T) {
	ctx := context.Background()
	p := fixtureProblem(t, "HumanEval/0")
	pool := testutil.Pool(t)
	body := func(b string) string { return p.Prompt + b }
	g := Generated{
		Samples: 7,
		Candidates: []extract.Candidate{
			{Program: p.Reference, Count: 2, First: 0},
			{Program: body("    return any(abs(a - b) <= threshold for a in numbers for b in numbers)\n"), Count: 1, First: 1},
			{Program: body("    while True:\n        pass\n"), Count: 1, First: 2},
			{Program: body("    return 1 if len(numbers) > 1 and abs(numbers[0] - numbers[1]) < threshold else 0\n"), Count: 1, First: 3},
			{Program: body("    import time\n    time.sleep(0.2)\n    return False\n"), Count: 1, First: 4},
		},
		Tests: []extract.Test{
			{Test: execute.Test{Code: "assert has_close_elements([1.0, 2.0], 0.5) == False", Input: "has_close_elements([1.0, 2.0], 0.5)", Expected: "False"}},
			{Test: execute.Test{Code: "assert has_close_elements([1.0, 1.2], 0.5) == True", Input: "has_close_elements([1.0, 1.2], 0.5)", Expected: "True"}},
			{Test: execute.Test{Code: "assert has_close_elements([1.0, 1.2], 0.5) == 7", Input: "has_close_elements([1.0, 1.2], 0.5)", Expected: "7"}},
			{Test: execute.Test{Code: "assert has_close_elements(None, 1) == False", Input: "has_close_elements(None, 1)", Expected: "False"}},
		},
	}
	// Raw samples: two equal candidates (up to trailing white space), one
	// that differs by a comment (the reference's tree: its verdict), one
	// that does not parse.
	g.Raw = []string{g.Candidates[0].Program + "\n\n", g.Candidates[1].Program, p.Reference + "# done\n", p.Prompt + "    return (\n"}
	// Slow candidate 4 times out in the short first pass, finishes when
	// confirmed with the full limit, and so is rerun in full.
	prob, err := Prepare(ctx, pool, p, g, Limits{Floor: time.Second, Short: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]bool{true, false, false, false, false}, prob.Correct); diff != "" {
		t.Errorf("hidden verdicts (-want +got):\n%s", diff)
	}
	type cell struct {
		O execute.Outcome
		V string
	}
	got := make([][]cell, len(prob.Results))
	for i, row := range prob.Results {
		for _, r := range row[:prob.Generated] {
			got[i] = append(got[i], cell{r.Outcome, r.Value})
		}
	}
	want := [][]cell{
		{{execute.Pass, "False"}, {execute.Pass, "True"}, {execute.Fail, "True"}, {execute.Error, ""}},
		// <= instead of <: every element is close to itself.
		{{execute.Fail, "True"}, {execute.Pass, "True"}, {execute.Fail, "True"}, {execute.Error, ""}},
		// Loops: the second call-sharing test is not rerun but timed out too.
		{{execute.Timeout, ""}, {execute.Timeout, ""}, {execute.Timeout, ""}, {execute.Timeout, ""}},
		// Returns ints: 0 == False and 1 == True under Python's ==.
		{{execute.Pass, "0"}, {execute.Pass, "1"}, {execute.Fail, "1"}, {execute.Error, ""}},
		{{execute.Pass, "False"}, {execute.Fail, "False"}, {execute.Fail, "False"}, {execute.Pass, "False"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("matrix (-want +got):\n%s", diff)
	}
	answers := []session.Answer{
		{Verdict: session.Pass}, {Verdict: session.Pass},
		{Verdict: session.Output, Value: "True"}, {Verdict: session.Undefined},
	}
	for j, w := range answers {
		if diff := cmp.Diff(w, prob.User.Answer(rank.Output, session.Question{Test: j})); diff != "" {
			t.Errorf("answer to test %d (-want +got):\n%s", j, diff)
		}
	}
	checkSynthesized(t, pool, p.Reference, prob)
	// `output True` keeps the candidates whose call == True: 0, 1 and 3.
	programs := []string{g.Candidates[0].Program, g.Candidates[1].Program, g.Candidates[2].Program, g.Candidates[3].Program, g.Candidates[4].Program}
	eq, err := prob.Comparer.Equal(ctx, programs, g.Tests[2].Test, "True")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]bool{true, true, false, true, false}, eq); diff != "" {
		t.Errorf("output comparison (-want +got):\n%s", diff)
	}
	res, err := Simulate(ctx, prob, Config{
		Modes: []rank.Mode{rank.PassFail}, Selectors: []string{"discr"}, Rankers: []string{"passing"},
		Protect: []bool{false}, MaxQuestions: 2, Ks: []int{1}, BaselineKs: []int{1},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.CorrectSamples != 2 || !near(res.Extracted[1], 2.0/7) {
		t.Errorf("extracted baseline: c=%d pass@1=%v", res.CorrectSamples, res.Extracted[1])
	}
	if res.RawCorrect != 2 || !near(res.Baseline[1], 2.0/7) {
		t.Errorf("raw baseline: c=%d pass@1=%v", res.RawCorrect, res.Baseline[1])
	}

	// Nothing extracted: still a problem, with nothing to run.
	empty, err := Prepare(ctx, pool, p, Generated{Samples: 3}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(empty.Results) != 0 || empty.RawCorrect != -1 || empty.User == nil {
		t.Errorf("empty problem: %d rows, raw %d", len(empty.Results), empty.RawCorrect)
	}
}

// checkSynthesized checks the synthesized questions of HumanEval/0: one per
// distinct call of the tests, then the input pool; the simulated user's
// reference results on each are the reference's own (a regression: they
// were once overwritten by the next columns'), and values are compared
// with Python's ==.
func checkSynthesized(t *testing.T, pool execute.Runner, reference string, prob Problem) {
	t.Helper()
	ng := prob.Generated
	if ng != 4 || prob.Inputs == 0 || len(prob.Tests) != ng+3+prob.Inputs || len(prob.Synthesized) != len(prob.Tests) {
		t.Fatalf("%d generated, %d inputs, %d tests, %d flags", ng, prob.Inputs, len(prob.Tests), len(prob.Synthesized))
	}
	var calls []string
	for k := ng; k < len(prob.Tests); k++ {
		if !prob.Synthesized[k] || prob.Synthesized[k%ng] {
			t.Fatalf("flags %v", prob.Synthesized)
		}
		calls = append(calls, prob.Tests[k].Input)
	}
	if d := cmp.Diff([]string{"has_close_elements([1.0, 2.0], 0.5)", "has_close_elements([1.0, 1.2], 0.5)", "has_close_elements(None, 1)"}, calls[:3]); d != "" {
		t.Errorf("questions on the tests' calls (-want +got):\n%s", d)
	}
	var tests []execute.Test
	for _, c := range calls {
		tests = append(tests, inputs.Input{Call: c}.Test())
	}
	m, err := pool.Run(context.Background(), execute.Job{Programs: []string{reference}, Tests: tests, TimePolicy: execute.Within(time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range m.Results[0] {
		u := prob.User.Reference[ng+k]
		if u.HasValue != r.HasValue || u.Value != r.Value {
			t.Errorf("reference on %s: user has %+v, the reference gives %+v", calls[k], u, r)
		}
	}
	// The loop-free candidate 4 returns False on the second question; the
	// reference True: the user answers output True, which keeps the
	// candidates whose value == True (1 == True for candidate 3).
	q := session.Question{Test: ng + 1, Synthesized: true, Expected: "False"}
	if d := cmp.Diff(session.Answer{Verdict: session.Output, Value: "True"}, prob.User.Answer(rank.Output, q)); d != "" {
		t.Errorf("answer (-want +got):\n%s", d)
	}
	q.Expected = "1"
	if d := cmp.Diff(session.Answer{Verdict: session.Pass}, prob.User.Answer(rank.PassFail, q)); d != "" {
		t.Errorf("answer to a shown 1 (-want +got):\n%s", d)
	}
	q = session.Question{Test: ng + 2, Synthesized: true, Expected: "False"}
	if d := cmp.Diff(session.Answer{Verdict: session.Undefined}, prob.User.Answer(rank.Output, q)); d != "" {
		t.Errorf("answer where the reference raises (-want +got):\n%s", d)
	}
	var programs []string
	for _, c := range prob.Candidates {
		programs = append(programs, c.Program)
	}
	eq, err := prob.Comparer.Equal(context.Background(), programs, prob.Tests[ng+1].Test, "True")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]bool{true, true, false, true, false}, eq); d != "" {
		t.Errorf("output comparison (-want +got):\n%s", d)
	}
}

// TestPrepareContract: where a question's input breaks the problem's input
// contract, the simulated user calls it invalid (undefined) instead of
// answering with what the reference happens to return there; on a valid
// input it answers as the reference. A contract that rejects one of the
// problem's own hidden tests is left out. With a corrected reference
// (dataset.Problem.Solution) the user answers by it, unless it fails the
// hidden tests.
func TestPrepareContract(t *testing.T) {
	ctx := context.Background()
	p := fixtureProblem(t, "HumanEval/0")
	pool := testutil.Pool(t)
	g := Generated{
		Samples: 2,
		Candidates: []extract.Candidate{
			{Program: p.Reference, Count: 1, First: 0},
			{Program: p.Prompt + "    return len(numbers) < 2 or any(abs(a - b) < threshold for i, a in enumerate(numbers) for b in numbers[i+1:])\n", Count: 1, First: 1},
		},
		Tests: []extract.Test{
			// The reference returns False on one number; the contract
			// (threshold > 0) rejects a negative threshold.
			{Test: execute.Test{Code: "assert has_close_elements([1.0], 0.5) == True", Input: "has_close_elements([1.0], 0.5)", Expected: "True"}},
			{Test: execute.Test{Code: "assert has_close_elements([1.0, 1.2], -1.0) == False", Input: "has_close_elements([1.0, 1.2], -1.0)", Expected: "False"}},
			// Not a plain call: the contract's failure must not read as
			// the test's.
			{Test: execute.Test{Code: "assert has_close_elements([1.0, 1.2], -1.0) is True"}},
		},
	}
	oneIsClose := g.Candidates[1].Program // a single number counts as close
	threshold := "\n    assert threshold > 0, \"invalid inputs\"  # $_CONTRACT_$\n"
	for _, tc := range []struct {
		name     string
		contract string
		solution string
		want     []session.Verdict
	}{
		{"no contract", "", "", []session.Verdict{session.Fail, session.Pass, session.Fail}},
		{"contract", threshold, "", []session.Verdict{session.Fail, session.Undefined, session.Undefined}},
		// HumanEval/0's hidden tests have lists of several numbers: a
		// contract that asks for one rejects them, and is left out.
		{"contract stricter than the hidden tests", "\n    assert len(numbers) == 1  # $_CONTRACT_$\n", "", []session.Verdict{session.Fail, session.Pass, session.Fail}},
		{"corrected reference", "", oneIsClose, []session.Verdict{session.Pass, session.Pass, session.Fail}},
		{"corrected reference with a contract", threshold, oneIsClose, []session.Verdict{session.Pass, session.Undefined, session.Undefined}},
		{"corrected reference failing the hidden tests", threshold, p.Prompt + "    return True\n", []session.Verdict{session.Fail, session.Undefined, session.Undefined}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := p
			q.Contract, q.Solution = tc.contract, tc.solution
			prob, err := Prepare(ctx, pool, q, g, Limits{Floor: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			for j, w := range tc.want {
				if got := prob.User.Answer(rank.PassFail, session.Question{Test: j}); got.Verdict != w {
					t.Errorf("answer to %s: %v, want %v", g.Tests[j].Input, got.Verdict, w)
				}
			}
		})
	}
}
