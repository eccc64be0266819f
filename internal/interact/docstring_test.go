package interact

import "testing"

// TestWithDocstring: the exported code gets the stub's docstring when the
// program's definition has none, re-indented to its body, and is left
// alone otherwise.
func TestWithDocstring(t *testing.T) {
	stub := "from typing import List\n\n\ndef median(nums: List[float]) -> float:\n    \"\"\"Return the median.\n\n    The middle value once sorted.\n    \"\"\"\n"
	for _, tc := range []struct {
		name, stub, entry, program, want string
	}{
		{"added", stub, "median",
			"import statistics\n\n\ndef median(nums):\n    return statistics.median(nums)\n",
			"import statistics\n\n\ndef median(nums):\n    \"\"\"Return the median.\n\n    The middle value once sorted.\n    \"\"\"\n    return statistics.median(nums)\n"},
		{"re-indented", stub, "median",
			"def median(nums):\n  # sort first\n  s = sorted(nums)\n  return s[len(s) // 2]\n",
			"def median(nums):\n  # sort first\n  \"\"\"Return the median.\n\n  The middle value once sorted.\n  \"\"\"\n  s = sorted(nums)\n  return s[len(s) // 2]\n"},
		{"kept", stub, "median",
			"def median(nums):\n    'Its own.'\n    return nums[0]\n",
			"def median(nums):\n    'Its own.'\n    return nums[0]\n"},
		{"prompt and completion", stub, "median", stub + "    return sorted(nums)[0]\n", stub + "    return sorted(nums)[0]\n"},
		{"one-line body", stub, "median", "def median(nums): return nums[0]\n", "def median(nums): return nums[0]\n"},
		{"stub without docstring", "def median(nums):\n    pass\n", "median",
			"def median(nums):\n    return nums[0]\n", "def median(nums):\n    return nums[0]\n"},
		{"stub string starts an expression", "def f(x):\n    'a'.join(x)\n", "f",
			"def f(x):\n    return x\n", "def f(x):\n    return x\n"},
		{"helper first", "def f(x):\n    \"\"\"Doc.\"\"\"\n", "f",
			"def g(y):\n    return y\n\ndef f(x):\n    return g(x)\n",
			"def g(y):\n    return y\n\ndef f(x):\n    \"\"\"Doc.\"\"\"\n    return g(x)\n"},
		{"no such def", "def f(x):\n    \"\"\"Doc.\"\"\"\n", "f", "def g(x):\n    return x\n", "def g(x):\n    return x\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := withDocstring(tc.stub, tc.entry, tc.program); got != tc.want {
				t.Errorf("withDocstring:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestReprQuotes: strings a model's test wrote in double quotes are shown
// with repr's single quotes where that changes nothing else.
func TestReprQuotes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`f("abc") == "x y"`, `f('abc') == 'x y'`},
		{`f('abc') == 'x'`, `f('abc') == 'x'`},
		{`f("it's") == "a\"b"`, `f("it's") == "a\"b"`},
		{`f(r"\d+", b"raw") == "\n"`, `f(r'\d+', b'raw') == '\n'`},
		{`f(f"{x}") == ""`, `f(f"{x}") == ''`},
		{`f("""doc""") == 1  # "comment"`, `f("""doc""") == 1  # "comment"`},
		{`f([1, 2]) == 3`, `f([1, 2]) == 3`},
		{`f("unclosed`, `f("unclosed`},
	} {
		if got := reprQuotes(tc.in); got != tc.want {
			t.Errorf("reprQuotes(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
