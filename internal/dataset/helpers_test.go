package dataset

import "testing"

func TestHiddenTestSetup(t *testing.T) {
	cases := []struct {
		name string
		p    Problem
		want string
	}{
		{"helper used", Problem{Context: "import math\n\n\ndef poly(xs, x):\n    return 0\n", EntryPoint: "find_zero", Test: "def check(candidate):\n    assert poly([1], candidate([1])) < 1e-4\ncheck(find_zero)\n"}, "import math\n\n\ndef poly(xs, x):\n    return 0\n"},
		{"helper unused", Problem{Context: "def is_palindrome(s):\n    return s == s[::-1]\n", EntryPoint: "make_palindrome", Test: "def check(candidate):\n    assert candidate('') == ''\ncheck(make_palindrome)\n"}, ""},
		{"imports only", Problem{Context: "from typing import List\n", EntryPoint: "f", Test: "assert f([]) == List"}, ""},
		{"nested def is no helper", Problem{Context: "if True:\n    def g():\n        pass\n", EntryPoint: "f", Test: "assert g()"}, ""},
		{"the entry point itself", Problem{Context: "def f():\n    pass\n", EntryPoint: "f", Test: "assert f()"}, ""},
		{"class helper", Problem{Context: "class Node:\n    pass\n", EntryPoint: "f", Test: "assert f(Node())"}, "class Node:\n    pass\n"},
		{"java", Problem{Context: "class Node {}\n", EntryPoint: "f", Test: "Node", Language: "java"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.p.HiddenTestSetup(); got != c.want {
				t.Errorf("HiddenTestSetup() = %q, want %q", got, c.want)
			}
		})
	}
}
