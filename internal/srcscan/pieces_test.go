package srcscan

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMatchBracket(t *testing.T) {
	tests := []struct {
		name, src string
		sx        Syntax
		open      int
		want      int
	}{
		{"simple", "f(a, b) == 1", Python, 1, 7},
		{"nested", "f([1, (2)], {3: 4})x", Python, 1, 19},
		{"paren in string", `f(")", ')') + 1`, Python, 1, 11},
		{"paren in f-string field", `f(f"{g(")")}") x`, Python, 1, 14},
		{"paren in comment", "f(1, # )\n 2)", Python, 1, 12},
		{"unclosed", "f(1, 2", Python, 1, -1},
		{"unclosed string", `f("x)`, Python, 1, -1},
		{"not a bracket", "f(1)", Python, 0, -1},
		{"out of range", "f(1)", Python, 9, -1},
		{"java char", `m(')', "(") ;`, Java, 1, 11},
		{"java comment", "m(/* ) */ 1)", Java, 1, 12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.sx.MatchBracket(tc.src, tc.open); got != tc.want {
				t.Errorf("MatchBracket(%q, %d) = %d, want %d", tc.src, tc.open, got, tc.want)
			}
		})
	}
}

func TestSplitTop(t *testing.T) {
	tests := []struct {
		name, src string
		sx        Syntax
		want      []string
	}{
		{"python params", "a, b=(1, 2), c: dict[str, int] = {}", Python, []string{"a", " b=(1, 2)", " c: dict[str, int] = {}"}},
		{"comma in string", `a=",", b='\',', c`, Python, []string{`a=","`, ` b='\','`, " c"}},
		{"comma in f-string", `x=f"{a, b}", y`, Python, []string{`x=f"{a, b}"`, " y"}},
		{"comma in comment", "a, # b, c\n d", Python, []string{"a", " # b, c\n d"}},
		{"empty", "", Python, []string{""}},
		{"java generic params", "Map<String, Integer> m, int[] xs", Java.WithAngles(), []string{"Map<String, Integer> m", " int[] xs"}},
		{"java string args", `"a,b", ',', 3`, Java, []string{`"a,b"`, ` ','`, " 3"}},
		{"java comparison without angles", "a < b, c > d", Java, []string{"a < b", " c > d"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.sx.SplitTop(tc.src, ',')
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("SplitTop(%q) (-want +got):\n%s", tc.src, d)
			}
		})
	}
}

func TestBalanced(t *testing.T) {
	tests := []struct {
		src  string
		sx   Syntax
		want bool
	}{
		{"f(1) == [2, (3)]", Python, true},
		{"f(1", Python, false},
		{"f(1))", Python, false},
		{`f("(")`, Python, true},
		{`f("x)`, Python, false},
		{"f('''a)", Python, false},
		{"m(1) /* ( */", Java, true},
		{"m(1) /* (", Java, false},
	}
	for _, tc := range tests {
		if got := tc.sx.Balanced(tc.src); got != tc.want {
			t.Errorf("Balanced(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

func TestPieces(t *testing.T) {
	src := "x = f(rb'a', \"b\")  # c\n"
	type piece struct {
		Kind  Kind
		Text  string
		Depth int
	}
	var got []piece
	for s := range Python.Pieces(src) {
		got = append(got, piece{s.Kind, s.Text(src), s.Depth})
	}
	want := []piece{
		{Code, "x", 0}, {Code, " ", 0}, {Code, "=", 0}, {Code, " ", 0}, {Code, "f", 0}, {Code, "(", 1},
		{String, "rb'a'", 1}, {Code, ",", 1}, {Code, " ", 1}, {String, `"b"`, 1}, {Code, ")", 0},
		{Code, " ", 0}, {Code, " ", 0}, {Comment, "# c", 0}, {Code, "\n", 0},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Pieces (-want +got):\n%s", d)
	}
}

func TestFindDef(t *testing.T) {
	tests := []struct {
		name, src, entry string
		wantSig          string // src[Start:Colon]; "" when not found
		wantParams       string // src[Open:MatchBracket]
		top              bool
	}{
		{"simple", "def f(x):\n    \"\"\" Doc.\n    \"\"\"\n", "f", "def f(x):", "(x)", true},
		{"async", "async def f(x):\n    'Doc.'\n", "f", "async def f(x):", "(x)", true},
		{"multi-line with colons", "def f(a=':',\n      b: dict[str, int] = {1: 2}) -> 'x:y':\n    '''D'''\n", "f",
			"def f(a=':',\n      b: dict[str, int] = {1: 2}) -> 'x:y':", "(a=':',\n      b: dict[str, int] = {1: 2})", true},
		{"string mentioning def", "x = 'def f(y):'\ndef f(z):\n    \"d\"\n", "f", "def f(z):", "(z)", true},
		{"docstring mentioning def", "def g():\n    '''\n    def f(y):\n    '''\ndef f(z): pass\n", "f", "def f(z):", "(z)", true},
		{"comment mentioning def", "# def f(y):\ndef f(z): pass\n", "f", "def f(z):", "(z)", true},
		{"prefer top level", "class A:\n    def f(self):\n        pass\ndef f():\n    'top'\n", "f", "def f():", "()", true},
		{"method only", "class A:\n    def f(self):\n        'm'\n", "f", "    def f(self):", "(self)", false},
		{"prefix name", "def ff(x):\n    pass\n", "f", "", "", false},
		{"line continuation", "def f(a, \\\n      b):\n    'c'\n", "f", "def f(a, \\\n      b):", "(a, \\\n      b)", true},
		{"t-string default", "def f(a=t'{x[\"k\"]}'):\n    pass\n", "f", "def f(a=t'{x[\"k\"]}'):", "(a=t'{x[\"k\"]}')", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, ok := FindDef(tc.src, Tokens(tc.src), tc.entry)
			if ok != (tc.wantSig != "") {
				t.Fatalf("ok = %v, want %v", ok, tc.wantSig != "")
			}
			if !ok {
				return
			}
			if d.Colon < 0 {
				t.Fatalf("no colon: %+v", d)
			}
			if got := tc.src[d.Start:d.Colon]; got != tc.wantSig {
				t.Errorf("signature %q, want %q", got, tc.wantSig)
			}
			if end := Python.MatchBracket(tc.src, d.Open); end < 0 || tc.src[d.Open:end] != tc.wantParams {
				t.Errorf("parameters end %d, want %q", end, tc.wantParams)
			}
			if d.TopLevel != tc.top {
				t.Errorf("TopLevel = %v, want %v", d.TopLevel, tc.top)
			}
		})
	}
}

func TestFindDefIncomplete(t *testing.T) {
	for _, src := range []string{"def f(x)\n", "def f(x, y='):\n"} {
		d, ok := FindDef(src, Tokens(src), "f")
		if !ok || d.Colon != -1 || src[d.Open] != '(' {
			t.Errorf("FindDef(%q) = %+v, %v; want found with no colon", src, d, ok)
		}
	}
}

func TestTokens(t *testing.T) {
	src := "def f(a) -> int:  # c\n    return f'{a!r}' \\\n + 1\nx = (1,\n 2)\n"
	var got []string
	for _, tok := range Tokens(src) {
		s := tok.Text(src)
		if tok.First {
			s = "^" + s
		}
		got = append(got, s)
	}
	want := []string{"^def", "f", "(", "a", ")", "->", "int", ":", "\n", "^return", "f'{a!r}'", "+", "1", "\n",
		"^x", "=", "(", "1", ",", "2", ")", "\n"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Tokens (-want +got):\n%s", d)
	}
}

// FuzzScan checks, on any text, that the scanners do not panic and keep
// their invariants: pieces tile the text, SplitTop's parts join back to it,
// MatchBracket and FindDef give offsets inside it.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"def f(a, b='x'):\n    \"\"\"Doc.\"\"\"\n    return a\n",
		`f"{d["k"]:{w}}" + t'{x!r}' + rb'\'' + """a\""""`,
		"assert f(1, [2, 3]) == (4, '5')  # note",
		"f\"{x\n", "'''", `"\`, "f'{", "f'{x:{", "t'{'", "{[(<>)]}",
		"public static int m(Map<String, Integer> a, int b) { return a.get(\"}\") /* } */; } // x",
		"\"\"\"\nblock \\\"\"\" \"\"\"", "'\\''", "/*",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, sx := range []Syntax{Python, Java, Java.WithAngles()} {
			end := 0
			for s := range sx.Pieces(src) {
				if s.Start != end || s.End <= s.Start || s.End > len(src) || s.BodyStart < s.Start || s.BodyEnd < s.BodyStart || s.BodyEnd > s.End {
					t.Fatalf("bad piece %+v after offset %d in %q", s, end, src)
				}
				end = s.End
			}
			if end != len(src) {
				t.Fatalf("pieces end at %d of %d", end, len(src))
			}
			if got := strings.Join(sx.SplitTop(src, ','), ","); got != src {
				t.Fatalf("SplitTop parts join to %q, not %q", got, src)
			}
			for i := 0; i < len(src); i++ {
				if e := sx.MatchBracket(src, i); e != -1 && (e <= i || e > len(src) || !sx.isClose(src[e-1])) {
					t.Fatalf("MatchBracket(%q, %d) = %d", src, i, e)
				}
			}
			sx.Balanced(src)
		}
		toks := Tokens(src)
		for _, tok := range toks {
			if tok.Start < 0 || tok.End > len(src) || tok.End <= tok.Start || tok.Depth < 0 {
				t.Fatalf("bad token %+v", tok)
			}
		}
		for _, tok := range toks {
			if tok.Kind != Name {
				continue
			}
			if d, ok := FindDef(src, toks, tok.Text(src)); ok {
				if src[d.Open] != '(' || d.Start > d.Open || d.Colon > len(src) || d.Colon != -1 && d.Colon <= d.Open {
					t.Fatalf("FindDef(%q) = %+v", tok.Text(src), d)
				}
			}
		}
	})
}
