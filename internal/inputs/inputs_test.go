package inputs

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

func calls(ins []Input, origin Origin) []string {
	var out []string
	for _, in := range ins {
		if in.Origin == origin {
			out = append(out, in.Call)
		}
	}
	return out
}

func TestGenerate(t *testing.T) {
	ctx := context.Background()
	pool := testutil.Pool(t)
	prompt := `def f(xs: list, k: int) -> int:
    """Sum the k largest.
    >>> f([3, 1, 2], 2)
    5
    f([4], 1) == 4
    g([1], 1) is another function; ff(1) too
    """
`
	tests := []execute.Test{
		{Code: "assert f([1, 2], 1) == 2", Input: "f([1, 2], 1)", Expected: "2"},
		{Code: "assert f([5, 5], 1) is not None"},
		{Code: "assert abs(f([0.5], 1) - 0.5) < 1e-9"},
		{Setup: "x = [1]", Code: "assert f(x, 1) == 1", Input: "f(x, 1)", Expected: "1"},
		{Code: "assert f(list(range(3)), 1) == 2", Input: "f(list(range(3)), 1)", Expected: "2"},
	}
	tcs := []struct {
		name  string
		req   Request
		check func(t *testing.T, ins []Input)
	}{
		{"examples and test calls", Request{Entry: "f", Prompt: prompt, Tests: tests, MaxInputs: 40}, func(t *testing.T, ins []Input) {
			if d := cmp.Diff([]string{"f([3, 1, 2], 2)", "f([4], 1)"}, calls(ins, Example)); d != "" {
				t.Errorf("examples (-want +got):\n%s", d)
			}
			// A test's own CALL is asked as it is; calls inside other
			// tests are inputs; calls that need setup or code are not.
			if d := cmp.Diff([]string{"f([5, 5], 1)", "f([0.5], 1)"}, calls(ins, TestCall)); d != "" {
				t.Errorf("test calls (-want +got):\n%s", d)
			}
			muts := calls(ins, Mutation)
			if len(muts) < 10 {
				t.Errorf("only %d mutations: %v", len(muts), muts)
			}
			for _, want := range []string{"f([1, 2], 1)", "f(x, 1)"} {
				if slices.Contains(muts, want) {
					t.Errorf("mutations repeat the test call %s", want)
				}
			}
			for _, in := range ins {
				if !strings.HasPrefix(in.Call, "f(") || in.Size != len(in.Call)-3 {
					t.Errorf("bad input %+v", in)
				}
			}
			if slices.ContainsFunc(ins, func(in Input) bool { return in.Origin == Hint }) {
				t.Error("hints used although there are seeds")
			}
		}},
		{"bounded", Request{Entry: "f", Prompt: prompt, Tests: tests, MaxInputs: 5, MaxChars: 14}, func(t *testing.T, ins []Input) {
			if len(ins) != 5 {
				t.Errorf("%d inputs, want 5: %v", len(ins), ins)
			}
			for _, in := range ins {
				if len(in.Call) > 14 {
					t.Errorf("%s is longer than 14 characters", in.Call)
				}
			}
		}},
		{"type hints without seeds", Request{Entry: "g", Signature: "def g(names: List[str], n: Optional[int] = None) -> Dict[str, int]:", MaxInputs: 12}, func(t *testing.T, ins []Input) {
			got := calls(ins, Hint)
			if len(got) != 12 {
				t.Fatalf("%d hint calls, want 12: %v", len(got), got)
			}
			for _, want := range []string{"g([], 0)", "g(['a'], 1)", "g(['', 'a', 'ab'], None)"} {
				if !slices.Contains(got, want) {
					t.Errorf("%s missing from %v", want, got)
				}
			}
		}},
		{"no parameters", Request{Entry: "h", Signature: "def h():"}, func(t *testing.T, ins []Input) {
			if d := cmp.Diff([]string{"h()"}, calls(ins, Hint)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		}},
		{"proposed by a model", Request{Entry: "f", Proposed: []string{"f([9], 3)", "f(open('x'), 1)", "print(1)", "f([9], 3)"}}, func(t *testing.T, ins []Input) {
			if d := cmp.Diff([]string{"f([9], 3)"}, calls(ins, Model)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		}},
		{"no entry point", Request{Prompt: prompt}, func(t *testing.T, ins []Input) {
			if len(ins) != 0 {
				t.Errorf("got %v", ins)
			}
		}},
	}
	for _, tc := range tcs {
		t.Run(tc.name, func(t *testing.T) {
			ins, err := Generate(ctx, pool, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, ins)
			again, err := Generate(ctx, pool, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(ins, again); d != "" {
				t.Errorf("not deterministic (-first +second):\n%s", d)
			}
		})
	}
}

func TestClasses(t *testing.T) {
	ctx := context.Background()
	pool := testutil.Pool(t)
	reprs := []string{
		"1", "1.0", "True", // 0: equal under ==
		"0", "-0.0", "False", // 3
		"0.30000000000000004", "0.3", // 6, 7: 0.1 + 0.2 != 0.3
		"[1, 2]", "(1, 2)", "[1.0, 2]", // 8: a list never equals a tuple
		"{1, 2}", "frozenset({2, 1})", // 11
		"'a'", `"a"`, // 13
		"inf", "inf", "nan", // 15, 17
		"{'a': 1}", "{'a': True}", // 18
		"Fraction(1, 2)", "0.5", "Decimal('0.5')", // 20
		"'abc…", "<value too large to show>", // 23, 24: no value: equal to themselves only
		"__import__('os').getcwd()", // 25: code is never evaluated
	}
	classes, literal, err := Classes(ctx, pool, reprs)
	if err != nil {
		t.Fatal(err)
	}
	same := func(a, b string) bool { return classes[a] == classes[b] }
	for _, pair := range [][2]string{{"1", "1.0"}, {"1", "True"}, {"0", "-0.0"}, {"[1, 2]", "[1.0, 2]"}, {"{1, 2}", "frozenset({2, 1})"},
		{"'a'", `"a"`}, {"{'a': 1}", "{'a': True}"}, {"Fraction(1, 2)", "0.5"}, {"0.5", "Decimal('0.5')"}} {
		if !same(pair[0], pair[1]) {
			t.Errorf("%s and %s are == in Python but in different classes", pair[0], pair[1])
		}
	}
	for _, pair := range [][2]string{{"0.30000000000000004", "0.3"}, {"[1, 2]", "(1, 2)"}, {"1", "0"}, {"inf", "nan"}, {"'abc…", "'a'"},
		{"'abc…", "<value too large to show>"}, {"__import__('os').getcwd()", "'a'"}} {
		if same(pair[0], pair[1]) {
			t.Errorf("%s and %s are not == in Python but in one class", pair[0], pair[1])
		}
	}
	wantLiteral := map[string]bool{"1": true, "{1, 2}": true, "frozenset({2, 1})": false, "inf": false, "'abc…": false, "__import__('os').getcwd()": false, "Fraction(1, 2)": false}
	for r, want := range wantLiteral {
		if literal[r] != want {
			t.Errorf("literal[%s] = %v, want %v", r, literal[r], want)
		}
	}
	if len(classes) != len(slices.Compact(slices.Sorted(slices.Values(reprs)))) {
		t.Errorf("%d classes for %d distinct reprs", len(classes), len(reprs)-1)
	}
	empty, _, err := Classes(ctx, pool, nil)
	if err != nil || len(empty) != 0 {
		t.Errorf("no values: %v, %v", empty, err)
	}
}

func TestInputTest(t *testing.T) {
	got := Input{Call: "f(1)"}.Test()
	want := execute.Test{Code: "assert f(1) == None", Input: "f(1)", Expected: "None"}
	if got != want {
		t.Errorf("Test() = %+v, want %+v", got, want)
	}
}

// FuzzGenerate feeds the prompt scanner and the mutators arbitrary prompts
// and test code: Generate must not fail, and every input must be a call of
// the entry point within the bounds.
func FuzzGenerate(f *testing.F) {
	for _, s := range []string{
		">>> f(1, 'a')\n3", "f([1, [2, (3,)]]) == 4", "f(", "f(f(1))", "f({'a': {1, 2}})", "f(1e308, -0.0, 2j)",
		"f(*[1])", "f(x=1)", "f('\\u1234\\n', b'\\x00')", "f(" + strings.Repeat("[", 200) + strings.Repeat("]", 200) + ")",
	} {
		f.Add(s, "assert "+s)
	}
	pool := testutil.Pool(f)
	f.Fuzz(func(t *testing.T, prompt, test string) {
		ins, err := Generate(context.Background(), pool, Request{Entry: "f", Prompt: prompt, Tests: []execute.Test{{Code: test}}, MaxInputs: 20, MaxChars: 60})
		if err != nil {
			t.Fatal(err)
		}
		if len(ins) > 20 {
			t.Errorf("%d inputs", len(ins))
		}
		for _, in := range ins {
			if !strings.HasPrefix(in.Call, "f(") || len(in.Call) > 60 {
				t.Errorf("bad input %q", in.Call)
			}
		}
	})
}

// TestMutationsKeepInvariantsFirst: every seed's list is sorted, without
// duplicates, of positive numbers, at least two long, and every k is
// positive; mutations that keep all that come before any that breaks it.
func TestMutationsKeepInvariantsFirst(t *testing.T) {
	tests := []execute.Test{
		{Code: "assert f([1, 2, 3], 2) == 1", Input: "f([1, 2, 3], 2)"},
		{Code: "assert f([4, 5], 1) == 1", Input: "f([4, 5], 1)"},
	}
	ins, err := Generate(context.Background(), testutil.Pool(t), Request{Entry: "f", Tests: tests, MaxInputs: 40})
	if err != nil {
		t.Fatal(err)
	}
	// The seeds' mutations that keep everything (after the first round the
	// shortest seed with two random positive k; the doubled k last), then
	// the others.
	var got []string
	for _, in := range ins {
		got = append(got, in.Call)
	}
	keep := []string{"f([1, 2, 3], 3)", "f([4, 5], 6)", "f([4, 5], 64)", "f([4, 5], 2)", "f([1, 2, 3], 1)", "f([3, 5], 1)", "f([1, 2], 2)", "f([1, 2, 3], 4)"}
	if len(got) < len(keep) || cmp.Diff(keep, got[:len(keep)]) != "" {
		t.Fatalf("mutations keeping the seeds' properties: want first %q, got %q", keep, got)
	}
	broken := false
	for _, c := range got[len(keep):] {
		broken = broken || strings.Contains(c, "[]") || strings.Contains(c, "-") || strings.Contains(c, "[3, 2, 1]") || strings.Contains(c, "[5]")
	}
	if !broken {
		t.Errorf("no mutation breaks a property: %v", ins)
	}
	// The mutations that keep every property are typical, the others not.
	for i, in := range ins {
		if want := i >= len(keep); in.Atypical != want {
			t.Errorf("%s: atypical = %v, want %v", in.Call, in.Atypical, want)
		}
	}
}

// TestRunOrder: smallest calls first, ties in pool order.
func TestRunOrder(t *testing.T) {
	ins := []Input{{Call: "f(100)", Size: 3}, {Call: "f(1)", Size: 1}, {Call: "f(10)", Size: 2}, {Call: "f(2)", Size: 1}}
	if d := cmp.Diff([]int{1, 3, 2, 0}, RunOrder(ins)); d != "" {
		t.Errorf("RunOrder (-want +got):\n%s", d)
	}
}

// TestCollectUnlike: Collect reports, for each test, whether its call is
// unlike most seeds (one flag per test, through the wire).
func TestCollectUnlike(t *testing.T) {
	calls := []string{"'()'", "'(())'", "'()()'", "'(()) ()'", "'((()))'", "'() (())'", "'(1 + 2) * 3'"}
	tests := make([]execute.Test, len(calls))
	for i, c := range calls {
		tests[i] = execute.Test{Code: "assert f(" + c + ") == [1]", Input: "f(" + c + ")", Expected: "[1]"}
	}
	p, err := Collect(context.Background(), testutil.Pool(t), Request{Entry: "f", Tests: tests, MaxInputs: 8})
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{false, false, false, false, false, false, true}
	if d := cmp.Diff(want, p.Unlike); d != "" {
		t.Errorf("Unlike (-want +got):\n%s", d)
	}
}
