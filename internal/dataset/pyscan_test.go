package dataset

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// TestDocstringAfter checks the docstring found after a def's colon
// (srcscan.FindDef and its tests say where the def is).
func TestDocstringAfter(t *testing.T) {
	tests := []struct {
		name, src, entry, want string
	}{
		{"simple", "def f(x):\n    \"\"\" Doc.\n    \"\"\"\n", "f", "Doc."},
		{"async", "async def f(x):\n    'Doc.'\n", "f", "Doc."},
		{"after an import", "def f(x):\n    import math\n    r\"\"\"Uses math.\"\"\"\n", "f", "Uses math."},
		{"escaped quotes kept raw", "def f():\n    '''It\\'s \\''' ok'''\n", "f", `It\'s \''' ok`},
		{"f-string with nested quotes", "def f():\n    f\"{x[\"k\"]}\"\n", "f", `{x["k"]}`},
		{"none", "def f():\n    pass\n", "f", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			toks := srcscan.Tokens(tc.src)
			d, ok := srcscan.FindDef(tc.src, toks, tc.entry)
			if !ok || d.Colon < 0 {
				t.Fatalf("FindDef found no def %s", tc.entry)
			}
			if got, _ := docstringAfter(tc.src, toks, d.Body); got != tc.want {
				t.Errorf("docstring %q, want %q", got, tc.want)
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
		toks := srcscan.Tokens(src)
		if d, ok := srcscan.FindDef(src, toks, name); ok && d.Colon >= 0 {
			if d.Start > d.Colon || d.Colon > len(src) || d.Body > len(toks) {
				t.Fatalf("bad def %+v", d)
			}
			docstringAfter(src, toks, d.Body)
		}
		dropFunctionDefs(src)
		cleandoc(src)
	})
}
