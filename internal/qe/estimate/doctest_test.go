package estimate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseExamples(t *testing.T) {
	for _, c := range []struct {
		name, prompt, entry string
		want                []Example
	}{
		{
			name:   "doctest",
			prompt: "def f(x):\n    \"\"\"Double.\n    >>> f(2)\n    4\n    >>> f(\n    ...   3)\n    6\n    >>> g(1)\n    0\n    \"\"\"\n",
			entry:  "f",
			want:   []Example{{"f(2)", "4"}, {"f(\n3)", "6"}},
		},
		{
			name:   "doctest output ends at closing quotes",
			prompt: "def f(x):\n    '''>>> f([1, 2])\n    [2, 4]'''\n",
			entry:  "f",
			want:   []Example{{"f([1, 2])", "[2, 4]"}},
		},
		{
			name:   "inline arrows",
			prompt: "def f(a, b):\n    \"\"\"\n    f(1, 2) ==> 3\n    f('x)', 2) ➞ 'x)x)'\n    * f(0, 0) -> 0\n    f(5, 5) should return 10.\n    for f(2, 2) == 4\n    \"\"\"\n",
			entry:  "f",
			want:   []Example{{"f(1, 2)", "3"}, {"f('x)', 2)", "'x)x)'"}, {"f(0, 0)", "0"}, {"f(5, 5)", "10."}, {"f(2, 2)", "4"}},
		},
		{
			name:   "comment arrow and two on a line",
			prompt: "def f(n):\n    \"\"\"f(1)  # returns \"a\"\n    f(1) == 1, f(2) == 4\n    \"\"\"",
			entry:  "f",
			want:   []Example{{"f(1)", "\"a\""}, {"f(1)", "1"}, {"f(2)", "4"}},
		},
		{
			name:   "identifier prefix is not a call",
			prompt: "def f(n):\n    \"\"\"myf(1) == 2\n    \"\"\"",
			entry:  "f",
			want:   nil,
		},
		{
			name:   "input output with names in signature order",
			prompt: "def maximum(arr, k):\n    \"\"\"\n    Example 1:\n        Input: arr = [-3, -4, 5], k = 3\n        Output: [-4, -3, 5]\n    \"\"\"",
			entry:  "maximum",
			want:   []Example{{"maximum([-3, -4, 5], 3)", "[-4, -3, 5]"}},
		},
		{
			name:   "input output with names out of order and a comment",
			prompt: "def g(a, b):\n    \"\"\"\n    Input: b = 1, a = 2\n    Output: 3 # sum\n    Input: 7\n    Output: 8\n    \"\"\"",
			entry:  "g",
			want:   []Example{{"g(b=1, a=2)", "3"}, {"g(7)", "8"}},
		},
		{
			name:   "for ... the output should be",
			prompt: "def sum_squares(lst):\n    \"\"\"\n    For lst = [1,2,3] the output should be 14\n    \"\"\"",
			entry:  "sum_squares",
			want:   []Example{{"sum_squares([1,2,3])", "14"}},
		},
		{
			name:   "no entry point",
			prompt: ">>> f(1)\n1",
			entry:  "",
			want:   nil,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			if d := cmp.Diff(c.want, ParseExamples(c.prompt, c.entry)); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

func TestSignatureParams(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"annotations and defaults", "from typing import List\n\ndef f(a: List[int], b: int = 3, *args, c=(1, 2), **kw) -> int:\n", []string{"a", "b", "c"}},
		// Regressions: the old splitter cut inside string defaults, and the
		// old def finder took a def written in a docstring.
		{"comma in a string default", "def f(sep=', ', end=\")\"):\n", []string{"sep", "end"}},
		{"def in a docstring first", "def g():\n    \"\"\"Like\n    def f(x, y): ...\n    \"\"\"\n\ndef f(a):\n    pass\n", []string{"a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, signatureParams(tc.src, "f")); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

func FuzzParseExamples(f *testing.F) {
	for _, s := range []string{
		"def f(x):\n  \"\"\">>> f(1)\n  2\n  \"\"\"",
		"f(1, [2, (3)]) ==> {'a': 1}",
		"Input: a = 1, b = 'x'\nOutput: 2",
		"For x = 3 the output should be 9.",
		"f(\"))\") -> 1",
		">>> f(\n... ",
		"f(('",
	} {
		f.Add(s, "f")
	}
	f.Fuzz(func(t *testing.T, prompt, entry string) {
		if strings.ContainsAny(entry, "()[]{} \n\t\"'\\") {
			entry = "f"
		}
		seen := map[Example]bool{}
		for _, e := range ParseExamples(prompt, entry) {
			if e.Call == "" || e.Expected == "" {
				t.Fatalf("empty part in %+v", e)
			}
			if seen[e] {
				t.Fatalf("duplicate %+v", e)
			}
			seen[e] = true
			if !strings.HasPrefix(e.Call, entry) {
				t.Fatalf("call %q does not start with %q", e.Call, entry)
			}
			if strings.Count(e.Call, "(") == 0 {
				t.Fatalf("call %q has no parenthesis", e.Call)
			}
		}
	})
}
