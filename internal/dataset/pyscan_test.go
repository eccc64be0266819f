package dataset

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDefSpan(t *testing.T) {
	tests := []struct {
		name, src, entry string
		wantSig, wantDoc string
		wantOK           bool
	}{
		{"simple", "def f(x):\n    \"\"\" Doc.\n    \"\"\"\n", "f", "def f(x):", "Doc.", true},
		{"async", "async def f(x):\n    'Doc.'\n", "f", "async def f(x):", "Doc.", true},
		{"multi-line with colons", "def f(a=':',\n      b: dict[str, int] = {1: 2}) -> 'x:y':\n    '''D'''\n", "f",
			"def f(a=':',\n      b: dict[str, int] = {1: 2}) -> 'x:y':", "D", true},
		{"string mentioning def", "x = 'def f(y):'\ndef f(z):\n    \"d\"\n", "f", "def f(z):", "d", true},
		{"comment mentioning def", "# def f(y):\ndef f(z): pass\n", "f", "def f(z):", "", true},
		{"prefer top level", "class A:\n    def f(self):\n        pass\ndef f():\n    'top'\n", "f", "def f():", "top", true},
		{"method only", "class A:\n    def f(self):\n        'm'\n", "f", "    def f(self):", "m", true},
		{"prefix name", "def ff(x):\n    pass\n", "f", "", "", false},
		{"no colon", "def f(x)\n", "f", "", "", false},
		{"unterminated", "def f(x, y='):\n", "f", "", "", false},
		{"line continuation", "def f(a, \\\n      b):\n    'c'\n", "f", "def f(a, \\\n      b):", "c", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			toks := pyTokens(tc.src)
			start, colon, body, ok := defSpan(tc.src, toks, tc.entry)
			if ok != tc.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tc.wantOK)
			}
			if !ok {
				return
			}
			if got := tc.src[start:colon]; got != tc.wantSig {
				t.Errorf("signature %q, want %q", got, tc.wantSig)
			}
			doc, _ := docstringAfter(tc.src, toks, body)
			if tc.name != "comment mentioning def" && doc != tc.wantDoc {
				t.Errorf("docstring %q, want %q", doc, tc.wantDoc)
			}
		})
	}
}

func TestCleandoc(t *testing.T) {
	// Expected values as Python 3.11's inspect.cleandoc, except that blank
	// lines of white space are dropped at the end.
	tests := []struct{ in, want string }{
		{" Check.\n    given.\n    ", "Check.\ngiven."},
		{"\n    A\n      B\n    ", "A\n  B"},
		{"One line", "One line"},
		{" Tail dropped\n    ", "Tail dropped"},
		{" A\n  \n  B\n", "A\n\nB"},
		{"\tTabbed\n\tx\n", "Tabbed\nx"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := cleandoc(tc.in); got != tc.want {
			t.Errorf("cleandoc(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDropFunctionDefs(t *testing.T) {
	src := "import re\n# helpers\n@cache\ndef h(x):\n    s = '''\ndef not_top():\n'''\n    return x\n\nclass Node:\n    def m(self): pass\nR = 3\nasync def g(): pass\n"
	want := "import re\n# helpers\nclass Node:\n    def m(self): pass\nR = 3\n"
	if diff := cmp.Diff(want, dropFunctionDefs(src)); diff != "" {
		t.Errorf("dropFunctionDefs (-want +got):\n%s", diff)
	}
}

func TestStubWithoutPrompt(t *testing.T) {
	p := Problem{Context: "import math", Signature: "def area(r):", Description: `Area of a "circle"`}
	want := "import math\ndef area(r):\n    \"\"\" Area of a \"circle\\\"\n    \"\"\"\n    pass\n"
	if diff := cmp.Diff(want, p.Stub()); diff != "" {
		t.Errorf("Stub (-want +got):\n%s", diff)
	}
}

func FuzzPyScan(f *testing.F) {
	f.Add("def f(x):\n    \"\"\"Doc.\"\"\"\n", "f")
	f.Add("class A:\n  def f(self, a=')'):\n    r'x\\'y'\n", "f")
	f.Add("@d\ndef f(\n", "f")
	f.Add("'''", "x")
	f.Fuzz(func(t *testing.T, src, name string) {
		toks := pyTokens(src)
		prev := 0
		for _, tk := range toks {
			if tk.start < prev || tk.end <= tk.start || tk.end > len(src) {
				t.Fatalf("bad token %+v after offset %d in %q", tk, prev, src)
			}
			prev = tk.end
		}
		if start, colon, body, ok := defSpan(src, toks, name); ok {
			if start > colon || colon > len(src) || body > len(toks) {
				t.Fatalf("bad span %d %d %d", start, colon, body)
			}
			docstringAfter(src, toks, body)
		}
		dropFunctionDefs(src)
		cleandoc(src)
	})
}
