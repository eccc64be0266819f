package extract

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/sandbox"
)

// testPool is the sandboxed pool every test of this package calls through.
var testPool *execute.Pool

func TestMain(m *testing.M) {
	sandbox.Main()
	p, err := execute.NewPool(context.Background(), execute.Options{Workers: 2})
	if err != nil {
		fmt.Fprintln(os.Stderr, "extract tests:", err)
		os.Exit(1)
	}
	testPool = p
	code := m.Run()
	p.Close()
	os.Exit(code)
}

var addProblem = dataset.Problem{
	ID:         "t/add",
	Prompt:     "def add(a, b):\n    \"\"\"Add two numbers.\"\"\"\n",
	Signature:  "def add(a, b):",
	EntryPoint: "add",
}

const addHead = "def add(a, b):\n    \"\"\"Add two numbers.\"\"\"\n"

func TestCodes(t *testing.T) {
	withContext := addProblem
	withContext.Context = "import math\n"
	withContext.Prompt = "import math\n\n\n" + addProblem.Prompt
	cases := []struct {
		name  string
		p     dataset.Problem
		style Style
		in    string
		want  string // "" when dropped
		stats Stats
	}{
		{name: "body", in: "    return a + b\n",
			want: addHead + "    return a + b\n", stats: Stats{Kept: 1}},
		{name: "body cut at def", in: "    return a + b\n\n\ndef main():\n    print(add(1, 2))\n",
			want: addHead + "    return a + b\n", stats: Stats{Kept: 1, Trimmed: 1}},
		{name: "body cut at print, assert and main", in: "    return a + b\nprint(add(1, 2))\nassert add(1, 2) == 3\nif __name__ == '__main__':\n    pass\n",
			want: addHead + "    return a + b\n", stats: Stats{Kept: 1, Trimmed: 1}},
		{name: "body keeps used helper", in: "    return helper(a, b)\n\ndef helper(x, y):\n    return x + y\n\ndef unused():\n    pass\n\nprint(add(1, 2))\n",
			want: addHead + "    return helper(a, b)\n\n\ndef helper(x, y):\n    return x + y\n", stats: Stats{Kept: 1, Trimmed: 1}},
		{name: "body column-0 comment does not cut", in: "    x = a\n# a note\n    return x + b\n",
			want: addHead + "    x = a\n# a note\n    return x + b\n", stats: Stats{Kept: 1}},
		{name: "body column-0 string line does not cut", in: "    s = '''\nx\n'''\n    return a + b\n",
			want: addHead + "    s = '''\nx\n'''\n    return a + b\n", stats: Stats{Kept: 1}},
		{name: "body truncated", in: "    return a +", stats: Stats{Truncated: 1}},
		{name: "body syntax error", in: "    return a b\n    return 1\n\n\ndef g():\n    pass\n", stats: Stats{Syntax: 1}},
		{name: "empty", in: "  \n\n", stats: Stats{Empty: 1}},
		{name: "fenced", in: "Here it is:\n```python\ndef add(a, b):\n    return a + b\n```\nIt adds.",
			want: "def add(a, b):\n    return a + b\n", stats: Stats{Kept: 1}},
		{name: "fenced picks block with entry point", in: "```python\nprint(add(1, 2))\n```\n\n```py\ndef add(a, b):\n    return b + a\n```\n",
			want: "def add(a, b):\n    return b + a\n", stats: Stats{Kept: 1}},
		{name: "fenced unclosed", in: "```python\ndef add(a, b):\n    return a + b\n",
			want: "def add(a, b):\n    return a + b\n", stats: Stats{Kept: 1}},
		{name: "fenced body", in: "```python\n    return a - b\n```",
			want: addHead + "    return a - b\n", stats: Stats{Kept: 1}},
		{name: "tagged", in: "<code>\ndef add(a, b):\n    return a+b\n</code>",
			want: "def add(a, b):\n    return a+b\n", stats: Stats{Kept: 1}},
		{name: "raw full program with example", in: "import math\n\ndef add(a, b):\n    return math.fsum([a, b])\n\nprint(add(1, 2))\nassert add(1, 1) == 2\n",
			want: "import math\n\ndef add(a, b):\n    return math.fsum([a, b])\n", stats: Stats{Kept: 1, Trimmed: 1}},
		{name: "raw with prose", in: "Sure! Here is the function:\n\ndef add(a, b):\n    return a + b\n\nThis works.\n",
			want: "def add(a, b):\n    return a + b\n", stats: Stats{Kept: 1, Trimmed: 1}},
		{name: "full keeps used helpers only", in: "def helper(x):\n    return x\n\ndef unused():\n    pass\n\nK = 2\n\ndef add(a, b):\n    return helper(a) + b * K\n\ndef add(a, b):\n    return 0\n",
			want: "def helper(x):\n    return x\n\nK = 2\n\ndef add(a, b):\n    return helper(a) + b * K\n", stats: Stats{Kept: 1, Trimmed: 1}},
		{name: "full decorated", in: "import functools\n\n@functools.lru_cache(None)\ndef add(a, b):\n    return a + b\n",
			want: "import functools\n\n@functools.lru_cache(None)\ndef add(a, b):\n    return a + b\n", stats: Stats{Kept: 1}},
		{name: "full without entry point", in: "```python\ndef sub(a, b):\n    return a - b\n```", stats: Stats{NoEntryPoint: 1}},
		{name: "full truncated entry point", in: "```python\ndef add(a, b):\n    return (a +", stats: Stats{Truncated: 1}},
		{name: "context prepended, not repeated", p: withContext, in: "```python\nimport math\n\ndef add(a, b):\n    return math.fsum([a, b])\n```",
			want: "import math\n\n\ndef add(a, b):\n    return math.fsum([a, b])\n", stats: Stats{Kept: 1}},
		// prompt + completion: the completion's definition is the one that
		// counts when it defines the entry point again.
		{name: "style body takes a rewritten function", style: StyleBody, in: "def add(a, b):\n    return a + b\n",
			want: "def add(a, b):\n    return a + b\n", stats: Stats{Kept: 1}},
		{name: "style body joins what does not define it", style: StyleBody, in: "def other(a, b):\n    return a + b\n",
			want: addHead, stats: Stats{Kept: 1, Trimmed: 1}},
		{name: "style full refuses a body", style: StyleFull, in: "    return a + b\n", stats: Stats{NoEntryPoint: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			if p.EntryPoint == "" {
				p = addProblem
			}
			got, st, err := Codes(context.Background(), testPool, p, []string{tc.in}, tc.style)
			if err != nil {
				t.Fatal(err)
			}
			var want []Candidate
			if tc.want != "" {
				want = []Candidate{{Program: tc.want, Count: 1}}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("candidates (-want +got):\n%s", diff)
			}
			tc.stats.Samples, tc.stats.Pieces, tc.stats.Unique = 1, 1, len(want)
			if diff := cmp.Diff(tc.stats, st); diff != "" {
				t.Errorf("stats (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCodesDedup(t *testing.T) {
	samples := []string{
		"    return a + b\n",               // A
		"    return a - b\n",               // B
		"    return (a + b)  # same AST\n", // A
		"\n",                               // empty
		"    return a - b\n\n\nprint(1)\n", // B after the cut
		"    return a +",                   // truncated
		"```python\ndef add(a, b):\n    '''Other doc.'''\n    return a + b\n```", // A: only the docstring differs
	}
	got, st, err := Codes(context.Background(), testPool, addProblem, samples, StyleAuto)
	if err != nil {
		t.Fatal(err)
	}
	want := []Candidate{
		{Program: addHead + "    return a + b\n", Count: 3, First: 0},
		{Program: addHead + "    return a - b\n", Count: 2, First: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("candidates (-want +got):\n%s", diff)
	}
	wantStats := Stats{Samples: 7, Pieces: 7, Kept: 5, Unique: 2, Trimmed: 1, Empty: 1, Truncated: 1}
	if diff := cmp.Diff(wantStats, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	again, _, err := Codes(context.Background(), testPool, addProblem, samples, StyleAuto)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, again); diff != "" {
		t.Errorf("second extraction differs (-first +second):\n%s", diff)
	}
}
