package oracle

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/session"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

func TestTruth(t *testing.T) {
	call := execute.Test{Code: "assert f(1) == 2", Input: "f(1)", Expected: "2"}
	plain := execute.Test{Code: "assert f(1) > 2"}
	u := &User{
		Tests: []execute.Test{call, call, call, call, call, plain, call, plain},
		Reference: []execute.Result{
			{Outcome: execute.Pass, Value: "2", HasValue: true},
			{Outcome: execute.Fail, Value: "3", HasValue: true},
			{Outcome: execute.Fail, Value: "<object>", HasValue: true},
			{Outcome: execute.Error, Exception: "ValueError"},
			{Outcome: execute.Timeout},
			{Outcome: execute.Fail},
			{Outcome: execute.Fail, Exception: "AssertionError"},
			{Outcome: execute.Fail, Exception: "AssertionError"},
		},
		Usable: []bool{false, true, false, false, false, false, false, false},
	}
	pass, fail, undef := session.Answer{Verdict: session.Pass}, session.Answer{Verdict: session.Fail}, session.Answer{Verdict: session.Undefined}
	tests := []struct {
		name string
		test int
		pf   session.Answer
		out  session.Answer
	}{
		{"reference passes", 0, pass, pass},
		{"reference fails", 1, fail, session.Answer{Verdict: session.Output, Value: "3"}},
		{"value does not evaluate", 2, fail, fail},
		{"reference raises", 3, undef, undef},
		{"reference times out", 4, undef, undef},
		{"not a call", 5, fail, fail},
		{"the call raises AssertionError", 6, undef, undef},
		{"not a call, AssertionError", 7, fail, fail},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.pf, u.Answer(rank.PassFail, session.Question{Test: tc.test})); diff != "" {
				t.Errorf("passfail (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.out, u.Answer(rank.Output, session.Question{Test: tc.test})); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNoise(t *testing.T) {
	const n = 2000
	u := &User{Key: "HumanEval/1", Tests: make([]execute.Test, n), Reference: make([]execute.Result, n)}
	for i := range u.Reference {
		u.Reference[i].Outcome = []execute.Outcome{execute.Pass, execute.Fail, execute.Error}[i%3]
	}
	wrong := func(eps float64, seed uint64) (flips int, answers []session.Answer) {
		v := *u
		v.Options = Options{Noise: eps, Seed: seed}
		for i := range n {
			a := v.Answer(rank.PassFail, session.Question{Test: i})
			answers = append(answers, a)
			truth := u.Truth(rank.PassFail, session.Question{Test: i})
			if a != truth {
				flips++
				if truth.Verdict == session.Undefined {
					t.Fatalf("undefined answer %d was flipped", i)
				}
			}
		}
		return flips, answers
	}
	if f, _ := wrong(0, 1); f != 0 {
		t.Errorf("ε=0 made %d mistakes", f)
	}
	if f, _ := wrong(1, 1); f != n*2/3+1 {
		t.Errorf("ε=1 made %d mistakes, want every pass/fail answer (%d)", f, n*2/3+1)
	}
	f, a1 := wrong(0.3, 1)
	if rate := float64(f) / (n * 2 / 3); rate < 0.25 || rate > 0.35 {
		t.Errorf("ε=0.3 made mistakes at rate %.3f", rate)
	}
	_, a2 := wrong(0.3, 1)
	_, a3 := wrong(0.3, 2)
	if !cmp.Equal(a1, a2) || cmp.Equal(a1, a3) {
		t.Error("noise is not a function of the seed")
	}
	if (Options{Noise: 1.5}).Validate() == nil {
		t.Error("noise 1.5 accepted")
	}
}

// TestTableInSandbox runs the reference and candidates for real and checks
// that `output` answers compare with Python's ==.
func TestTableInSandbox(t *testing.T) {
	ctx := context.Background()
	pool := testutil.Pool(t)
	ref := "def f(x):\n    return [x / 2]\n"
	programs := []string{
		"def f(x):\n    return [x // 2]\n", // [1] == [1.0]
		"def f(x):\n    return (x // 2,)\n",
		"def f(x):\n    return [x]\n",
		ref,
		"def f(x):\n    return object()\n",
	}
	tests := []execute.Test{
		{Code: "assert f(2) == [7]", Input: "f(2)", Expected: "[7]"},
		{Code: "assert f(2) == [8]", Input: "f(2)", Expected: "[8]"},
		{Code: "assert f(2) == [1]", Input: "f(2)", Expected: "[1]"},
		{Code: "assert f('a') == 1", Input: "f('a')", Expected: "1"},
		{Code: "assert len(f(2)) == 2"},
	}
	m, err := pool.Run(ctx, execute.Job{Programs: programs, Tests: tests, TimePolicy: execute.Within(3 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const refIdx = 3
	eq, from := EqualTests(tests, m.Results[refIdx])
	// Tests 0 and 1 share the call and the reference's value: one comparison.
	if diff := cmp.Diff([]int{0}, from); diff != "" {
		t.Fatalf("tests needing a comparison (-want +got):\n%s", diff)
	}
	em, err := pool.Run(ctx, execute.Job{Programs: programs, Tests: eq, TimePolicy: execute.Within(3 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tab, usable := NewTable(programs, eq, em.Results, refIdx, tests, m.Results[refIdx])
	if diff := cmp.Diff([]bool{true, true, false, false, false}, usable); diff != "" {
		t.Errorf("usable (-want +got):\n%s", diff)
	}
	u := &User{Tests: tests, Reference: m.Results[refIdx], Usable: usable}
	want := []session.Answer{
		{Verdict: session.Output, Value: "[1.0]"},
		{Verdict: session.Output, Value: "[1.0]"},
		{Verdict: session.Pass},
		{Verdict: session.Undefined},
		{Verdict: session.Fail},
	}
	for i, w := range want {
		if diff := cmp.Diff(w, u.Answer(rank.Output, session.Question{Test: i})); diff != "" {
			t.Errorf("answer to test %d (-want +got):\n%s", i, diff)
		}
	}
	cands := []string{programs[0], programs[1], programs[2], programs[4]}
	got, err := tab.Equal(ctx, cands, tests[0], "[1.0]")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]bool{true, false, false, false}, got); diff != "" {
		t.Errorf("equal to the reference's value (-want +got):\n%s", diff)
	}
	if _, err := tab.Equal(ctx, cands, tests[0], "[2]"); err == nil {
		t.Error("Equal answered for a value it never computed")
	}
}

// TestSettleTimeouts is the regression test of a cold-run difference
// (HumanEval/83 with CodeGen-16B): a correct candidate returned 180000 on a
// test's call in the matrix, in 98 ms of a 100 ms limit, and its run of the
// comparison `assert CALL == 180000` timed out, so the answer `output
// 180000` pruned it (and the session's last correct candidates with it).
func TestSettleTimeouts(t *testing.T) {
	eq := []execute.Test{session.EqualTest(execute.Test{Code: "assert f(6) == 12", Input: "f(6)", Expected: "12"}, "180000")}
	value := func(v string) execute.Result { return execute.Result{Outcome: execute.Fail, Value: v, HasValue: true} }
	timeout := execute.Result{Outcome: execute.Timeout}
	tests := []struct {
		name       string
		compared   execute.Result
		call       execute.Result
		wantPassed bool
		wantSame   bool // the comparison's result is kept as it was
	}{
		{"timed out, the call returned the value", timeout, value("180000"), true, false},
		{"timed out, the call returned another value", timeout, value("12"), false, false},
		{"timed out, the call timed out too", timeout, timeout, false, true},
		{"timed out, the call raised", timeout, execute.Result{Outcome: execute.Error, Exception: "ValueError"}, false, true},
		{"passed: kept whatever the call did", execute.Result{Outcome: execute.Pass}, timeout, true, true},
		{"failed: kept", execute.Result{Outcome: execute.Fail}, value("180000"), false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			results := [][]execute.Result{{tc.compared}}
			SettleTimeouts(eq, results, [][]execute.Result{{tc.call}})
			got := results[0][0]
			if (got.Outcome == execute.Pass) != tc.wantPassed {
				t.Errorf("outcome %v, want pass %v", got.Outcome, tc.wantPassed)
			}
			if same := got == tc.compared; same != tc.wantSame {
				t.Errorf("result %+v, kept as it was: %v, want %v", got, same, tc.wantSame)
			}
			tab, _ := NewTable([]string{"p", "ref"}, eq, [][]execute.Result{results[0], {{Outcome: execute.Pass}}}, 1, nil, nil)
			if eqs, err := tab.Equal(context.Background(), []string{"p"}, eq[0], "180000"); err != nil || eqs[0] != tc.wantPassed {
				t.Errorf("Equal = %v, %v; want [%v]", eqs, err, tc.wantPassed)
			}
		})
	}
}
