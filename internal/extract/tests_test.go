package extract

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
)

var fProblem = dataset.Problem{ID: "t/f", Prompt: "def f(x):\n    pass\n", EntryPoint: "f"}

var listProblem = dataset.Problem{
	ID:         "t/g",
	Prompt:     "from typing import List\n\n\ndef helper(x):\n    return x\n\n\ndef g(xs: List[int]) -> int:\n    \"\"\"Doc.\"\"\"\n",
	Context:    "from typing import List\n\n\ndef helper(x):\n    return x\n",
	EntryPoint: "g",
}

// io returns an input/expected test.
func io(setup, input, expected string) execute.Test {
	return execute.Test{Setup: setup, Code: "assert " + input + " == " + expected, Input: input, Expected: expected}
}

func TestTests(t *testing.T) {
	cases := []struct {
		name   string
		p      dataset.Problem
		prefix string
		cut    bool
		in     string
		want   []execute.Test
		stats  Stats // Samples, Kept and Unique are filled in
	}{
		{name: "assert newline indented call", prefix: "assert ", in: "\n    f(1) == 2\nassert \n\tf(2) == 3\n",
			want: []execute.Test{io("", "f(1)", "2"), io("", "f(2)", "3")}},
		{name: "message removed", in: "assert f(1) == 2, 'one'\nassert (f(2) == 3), \"two\"\n",
			want: []execute.Test{io("", "f(1)", "2"), io("", "f(2)", "3")}},
		{name: "expected == call swapped", in: "assert [1, 2] == f(3)\n",
			want: []execute.Test{io("", "f(3)", "[1, 2]")}},
		{name: "call nested in input", in: "assert sorted(f([3, 1])) == [1, 3]\n",
			want: []execute.Test{io("", "sorted(f([3, 1]))", "[1, 3]")}},
		{name: "not an equality", in: "assert f(1) > 0\nassert f(2) == f(2)\nassert not f(3)\n",
			want: []execute.Test{{Code: "assert f(1) > 0"}, {Code: "assert f(2) == f(2)"}, {Code: "assert not f(3)"}}},
		{name: "truncated last line", in: "assert f(1) == 2\nassert f([1, 2",
			want: []execute.Test{io("", "f(1)", "2")}, stats: Stats{Truncated: 1}},
		{name: "cut sample drops its last line", cut: true, in: "assert f(1) == 2\nassert f(2) == 1",
			want: []execute.Test{io("", "f(1)", "2")}, stats: Stats{Truncated: 1}},
		{name: "cut sample ending in newline is whole", cut: true, in: "assert f(1) == 2\n",
			want: []execute.Test{io("", "f(1)", "2")}},
		{name: "syntax error in the middle", in: "assert f(1) == 2\nassert f(2) = 3\nassert f(3) == 4\n",
			want: []execute.Test{io("", "f(1)", "2"), io("", "f(3)", "4")}, stats: Stats{Syntax: 1}},
		{name: "empty asserts", prefix: "assert ", in: "\nassert\nassert f(1) == 2\nassert \n",
			want: []execute.Test{io("", "f(1)", "2")}, stats: Stats{Empty: 3}},
		{name: "setup dependency", in: "import math\nx = [1, 2]\ny = 3\nassert f(x) == 3\nassert f(y) == 4\n",
			want: []execute.Test{io("x = [1, 2]", "f(x)", "3"), io("y = 3", "f(y)", "4")}, stats: Stats{Setup: 2, NotTest: 1}},
		{name: "transitive setup and mutation", in: "a = 1\nb = [a]\nb.append(2)\nc = 0\nassert f(b) == 3\n",
			want: []execute.Test{io("a = 1\nb = [a]\nb.append(2)", "f(b)", "3")}, stats: Stats{Setup: 3, NotTest: 1}},
		{name: "setup calling the entry point", in: "r = f(2)\nassert r == 4\n",
			want: []execute.Test{{Setup: "r = f(2)", Code: "assert r == 4"}}, stats: Stats{Setup: 1}},
		{name: "stub of the entry point is not setup", in: "def f(x):\n    pass\n\nfrom solution import f\nassert f(1) == 2\n",
			want: []execute.Test{io("", "f(1)", "2")}, stats: Stats{NotTest: 2}},
		{name: "no call to the entry point", in: "assert 1 == 1\nassert ____ == ____, 'test failed'\nassert f(1) == 1\n",
			want: []execute.Test{io("", "f(1)", "1")}, stats: Stats{NoEntryPoint: 2}},
		{name: "test function", in: "def test_f():\n    '''Docstring.'''\n    x = 2\n    assert f(x) == 4\n    assert f(1) == 2\n\ntest_f()\n",
			want: []execute.Test{io("x = 2", "f(x)", "4"), io("", "f(1)", "2")}, stats: Stats{Setup: 1}},
		{name: "check candidate", in: "def check(candidate):\n    assert candidate(1) == 2\n    assert candidate(2) != 5, 'msg'\n\ncheck(f)\n",
			want: []execute.Test{io("", "f(1)", "2"), {Code: "assert f(2) != 5"}}},
		{name: "wrapper called with the entry point", in: "def run_tests(g):\n    assert g(1) == 2\n\nrun_tests(f)\n",
			want: []execute.Test{io("", "f(1)", "2")}},
		{name: "scopes do not share setup", in: "def test_a():\n    x = 1\n    assert f(x) == 1\n\ndef test_b():\n    assert f(x) == 2\n",
			want: []execute.Test{io("x = 1", "f(x)", "1")}, stats: Stats{Setup: 1, Unbound: 1}},
		{name: "unittest", in: "import unittest\n\nclass TestF(unittest.TestCase):\n    def test_one(self):\n        self.assertEqual(f(1), 2)\n        self.assertTrue(f(2))\n        self.assertIsNone(f(0), 'msg')\n\nif __name__ == '__main__':\n    unittest.main()\n",
			want: []execute.Test{io("", "f(1)", "2"), {Code: "assert f(2)"}, {Code: "assert f(0) is None"}}, stats: Stats{NotTest: 1}},
		{name: "pytest parametrize", in: "import pytest\n\n@pytest.mark.parametrize('x, y', [(1, 2), (3, 4)])\ndef test_f(x, y):\n    assert f(x) == y\n",
			want: []execute.Test{io("x = 1\ny = 2", "f(x)", "y"), io("x = 3\ny = 4", "f(x)", "y")}, stats: Stats{NotTest: 1}},
		{name: "pytest parametrize with a list of names", in: "@pytest.mark.parametrize(['x', 'y'], [[1, 2]])\ndef test_f(x, y):\n    assert f(x) == y\n",
			want: []execute.Test{io("x = 1\ny = 2", "f(x)", "y")}},
		{name: "main guard", in: "if __name__ == '__main__':\n    assert f(1) == 2\n    print('ok')\n",
			want: []execute.Test{io("", "f(1)", "2")}, stats: Stats{NotTest: 1}},
		{name: "loop is one test", in: "for x in [1, 2]:\n    assert f(x) > 0, x\n",
			want: []execute.Test{{Code: "for x in [1, 2]:\n    assert f(x) > 0"}}},
		{name: "fenced chat answer", in: "Tests:\n```python\nassert f(1) == 2\n```\nand\n```python\nassert f(2) == 3\n```\n```text\nassert f(9) == 9\n```",
			want: []execute.Test{io("", "f(1)", "2"), io("", "f(2)", "3")}},
		{name: "placeholder names", in: "assert f(1) == ____\nassert ____(f(2) == 3)\nassert f(len([x for x in 'ab'])) == List\nassert f(abs(-1)) == 1\n",
			want: []execute.Test{io("", "f(abs(-1))", "1")}, stats: Stats{Unbound: 3}},
		{name: "names from the prompt are bound", p: listProblem, in: "assert g(List) == helper(1)\n",
			want: []execute.Test{io("", "g(List)", "helper(1)")}},
		{name: "does not compile", in: "for x in [1]:\n    assert f(x) == 1\n    return\nbreak\nassert f(2) == 2\n",
			want: []execute.Test{io("", "f(2)", "2")}, stats: Stats{Syntax: 1, NotTest: 1}},
		{name: "tagged", in: "<tests>\nassert f(1) == 2\n</tests>",
			want: []execute.Test{io("", "f(1)", "2")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := TestOptions{Prefix: tc.prefix}
			if tc.cut {
				opts.Cut = []bool{true}
			}
			p := tc.p
			if p.EntryPoint == "" {
				p = fProblem
			}
			got, st, err := Tests(context.Background(), testPool, p, []string{tc.in}, opts)
			if err != nil {
				t.Fatal(err)
			}
			var want []Test
			for _, w := range tc.want {
				want = append(want, Test{Test: w, Count: 1})
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tests (-want +got):\n%s", diff)
			}
			tc.stats.Samples, tc.stats.Kept, tc.stats.Unique = 1, len(want), len(want)
			tc.stats.Pieces = tc.stats.Kept + tc.stats.Setup + tc.stats.Dropped()
			if diff := cmp.Diff(tc.stats, st); diff != "" {
				t.Errorf("stats (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTestsDedup(t *testing.T) {
	samples := []string{
		"f(1) == 2\nassert f(2) == 3\n",
		"3 == f(2), 'swapped'\nassert f(1) == 2\nassert f(1) == 2\n",
		"\n",
		"f(5) == 6\n",
	}
	got, st, err := Tests(context.Background(), testPool, fProblem, samples, TestOptions{Prefix: "assert "})
	if err != nil {
		t.Fatal(err)
	}
	want := []Test{
		{Test: io("", "f(1)", "2"), Count: 3, First: 0},
		{Test: io("", "f(2)", "3"), Count: 2, First: 0},
		{Test: io("", "f(5)", "6"), Count: 1, First: 3},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tests (-want +got):\n%s", diff)
	}
	wantStats := Stats{Samples: 4, Pieces: 7, Kept: 6, Unique: 3, Empty: 1}
	if diff := cmp.Diff(wantStats, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
}

func TestTestsCutLengthMismatch(t *testing.T) {
	_, _, err := Tests(context.Background(), testPool, fProblem, []string{"a", "b"}, TestOptions{Cut: []bool{true}})
	if err == nil {
		t.Fatal("Tests accepted 1 cut flag for 2 completions")
	}
}

func TestDeeplyNested(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("-", n) + "1" }
	cases := []struct {
		name      string
		depth     int
		wantCodes Stats
		wantTests Stats
	}{
		{"handled", 1500, Stats{Kept: 1}, Stats{Kept: 1}},
		{"too deep", 20000, Stats{Syntax: 1}, Stats{Syntax: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			cands, st, err := Codes(ctx, testPool, fProblem, []string{"    return " + deep(tc.depth) + "\n"}, StyleBody)
			if err != nil {
				t.Fatal(err)
			}
			tc.wantCodes.Samples, tc.wantCodes.Pieces, tc.wantCodes.Unique = 1, 1, len(cands)
			if diff := cmp.Diff(tc.wantCodes, st); diff != "" {
				t.Errorf("code stats (-want +got):\n%s", diff)
			}
			tests, st, err := Tests(ctx, testPool, fProblem, []string{"assert f(" + deep(tc.depth) + ") == 1\n"}, TestOptions{})
			if err != nil {
				t.Fatal(err)
			}
			tc.wantTests.Samples, tc.wantTests.Pieces, tc.wantTests.Unique = 1, 1, len(tests)
			if diff := cmp.Diff(tc.wantTests, st); diff != "" {
				t.Errorf("test stats (-want +got):\n%s", diff)
			}
		})
	}
}
