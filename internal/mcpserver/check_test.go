package mcpserver

import (
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/testutil"
)

// TestOnlyDef: check_code takes the entry point from code that defines
// exactly one function at the top level, and otherwise says to give it.
func TestOnlyDef(t *testing.T) {
	for _, tc := range []struct {
		name, code, want, err string
	}{
		{"one def", "def f(x):\n    return x\n", "f", ""},
		{"imports and constants", "import math\nK = 2\n\ndef area(r):\n    return K * math.pi * r\n", "area", ""},
		{"nested def", "def outer(x):\n    def inner(y):\n        return y\n    return inner(x)\n", "outer", ""},
		{"method", "class A:\n    def m(self):\n        pass\n\ndef f():\n    return A()\n", "f", ""},
		{"decorated", "import functools\n\n@functools.cache\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n", "fib", ""},
		{"async", "async def fetch():\n    pass\n", "fetch", ""},
		{"defined twice", "def f():\n    return 1\n\ndef f():\n    return 2\n", "f", ""},
		{"def in a string", "HELP = '''\ndef g(x):\n'''\n\ndef f(x):\n    return x\n", "f", ""},
		{"def in a comment", "# def g(x):\ndef f(x):\n    return x\n", "f", ""},
		{"two defs", "def helper(x):\n    return x\n\ndef f(x):\n    return helper(x)\n", "", "2 top-level functions (helper, f): give entry_point"},
		{"no def", "f = lambda x: x\n", "", "no top-level function: give entry_point"},
		{"only a method", "class A:\n    def m(self):\n        pass\n", "", "no top-level function"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := onlyDef(tc.code)
			if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
				t.Errorf("onlyDef(%q) = %q, %v; want %q, error with %q", tc.code, got, err, tc.want, tc.err)
			}
		})
	}
}

// TestCheckCodeEntryFromCode runs check_code with tests and no entry_point
// on code with one top-level def, and on code with two.
func TestCheckCodeEntryFromCode(t *testing.T) {
	s := newTestServer(t, testutil.Pool(t), Options{})
	cs := connect(t, s, nil)
	tests := []string{"assert add(1, 2) == 3", "assert add(-1, 1) == 0"}
	for _, tc := range []struct {
		name, code string
		pass       bool
		err        string
	}{
		{"right", "def add(a, b):\n    return a + b\n", true, ""},
		{"wrong", "def add(a, b):\n    return a - b\n", false, ""},
		{"two defs", "def helper(a, b):\n    return a + b\n\ndef add(a, b):\n    return helper(a, b)\n", false, "give entry_point"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out CheckOutput
			msg := call(t, cs, "check_code", CheckInput{Code: tc.code, Tests: tests}, &out)
			if tc.err != "" {
				if !strings.Contains(msg, tc.err) {
					t.Errorf("check_code: %q, want an error with %q", msg, tc.err)
				}
				return
			}
			if msg != "" || out.Passed != tc.pass || out.TestCount != len(tests) {
				t.Errorf("check_code: %q %+v, want passed %v of %d", msg, out, tc.pass, len(tests))
			}
		})
	}
}
