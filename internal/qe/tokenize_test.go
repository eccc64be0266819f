package qe

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/srcscan"
)

func TestSplitIdentifier(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"has_close_elements", []string{"has", "close", "elements"}},
		{"getHTTPResponse2", []string{"get", "http", "response", "2"}},
		{"__init__", []string{"init"}},
		{"x", []string{"x"}},
		{"MAX_VALUE", []string{"max", "value"}},
		{"camelCase", []string{"camel", "case"}},
		{"_", nil},
	} {
		t.Run(c.in, func(t *testing.T) {
			if d := cmp.Diff(c.want, SplitIdentifier(c.in)); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

func TestTokenize(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		opts TokenizerOptions
		want []string
	}{
		{
			name: "identifiers keywords numbers",
			src:  "def isPrime(n):\n    return n > 1 and n % 2 != 0",
			want: []string{"def", "is", "prime", "n", "return", "n", "1", "and", "n", "2", "0"},
		},
		{
			name: "whole identifiers",
			src:  "has_close_elements(x)",
			opts: TokenizerOptions{WholeIdentifiers: true},
			want: []string{"has", "close", "elements", "has_close_elements", "x"},
		},
		{
			name: "operators",
			src:  "a += b**2 == c",
			opts: TokenizerOptions{Operators: true},
			want: []string{"a", "+=", "b", "**", "2", "==", "c"},
		},
		{
			name: "string literal is one token, prefixes dropped",
			src:  `x = r"ab c" + 'd'`,
			want: []string{"x", "'ab c'", "'d'"},
		},
		{
			name: "docstring and comment are text",
			src:  "def f():\n    \"\"\"Return the sumOf items.\"\"\"\n    # fast path\n    return 0x1F + 1.5e-3",
			want: []string{"def", "f", "return", "the", "sum", "of", "items", "fast", "path", "return", "0x1f", "1.5e-3"},
		},
		{
			// Regression: the old scanner ended a triple-quoted literal at the
			// first """ even when escaped, and knew no t prefix.
			name: "escape in triple quotes",
			src:  `s = """say \"""hi\""" now"""; x`,
			want: []string{"s", "say", "hi", "now", "x"},
		},
		{
			name: "t-string prefix dropped",
			src:  `t"{name}" + Tr'x'`,
			want: []string{"'{name}'", "'x'"},
		},
		{
			name: "f-string with nested same quotes",
			src:  `f"{d["key"]}" + y`,
			want: []string{`'{d["key"]}'`, "y"},
		},
		{
			name: "java comments",
			src:  "int f(int n) { // halve it\n  return n / 2; /* no sum_of here */ }",
			opts: TokenizerOptions{Syntax: srcscan.Java},
			want: []string{"int", "f", "int", "n", "halve", "it", "return", "n", "2", "no", "sum", "of", "here"},
		},
		{
			name: "java strings, chars and text blocks",
			src:  "String s = \"a // b\" + 'c' + \"\"\"\n  Hello \"World\"\n  \"\"\"; // x",
			opts: TokenizerOptions{Syntax: srcscan.Java, Operators: true},
			want: []string{"string", "s", "=", "'a // b'", "+", "'c'", "+", "hello", "'World'", ";", "x"},
		},
		{
			name: "java escapes and no prefixes",
			src:  `r"x\"y" + '\''`,
			opts: TokenizerOptions{Syntax: srcscan.Java},
			want: []string{"r", `'x\"y'`, `'\''`},
		},
		{
			// In Python, // is floor division and # starts a comment.
			name: "python floor division is no comment",
			src:  "n // 2  # half",
			opts: TokenizerOptions{Operators: true},
			want: []string{"n", "//", "2", "half"},
		},
		{
			name: "unterminated string",
			src:  "s = 'abc\nt",
			want: []string{"s", "'abc'", "t"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			if d := cmp.Diff(c.want, Tokenize(c.src, c.opts)); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"def f(x):\n  return x", `"""doc`, "'\\", "0x", ".5e+", "a\u00e9b_C", "\xff\xfe",
		"int f() { return 1; } // x /* y", "/* a", `"""` + "\n" + `b\"""`, `f"{d["k"]}"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, sx := range []srcscan.Syntax{srcscan.Python, srcscan.Java} {
			for _, tok := range Tokenize(s, TokenizerOptions{Operators: true, WholeIdentifiers: true, Syntax: sx}) {
				if tok == "" {
					t.Fatalf("empty token from %q", s)
				}
				if strings.ContainsAny(tok, " \t\n") && !strings.HasPrefix(tok, "'") {
					t.Fatalf("%s token %q with white space from %q", sx.Name(), tok, s)
				}
			}
		}
	})
}

func TestLexicalCosine(t *testing.T) {
	problems := []string{"sum a list", "reverse a string", "sum two numbers"}
	solutions := []string{
		"def f(xs): return sum(xs)",
		"def g(s): return s[::-1]",
		"def h(a, b): return a + b",
	}
	l := FitLexical(problems, solutions, DefaultLexicalOptions())
	v := func(f Field, s string) Vector { return l.Vector(f, s) }

	if got := Cosine(v(SolutionField, solutions[0]), v(SolutionField, solutions[0])); !closeToF32(got, 1) {
		t.Errorf("self cosine = %v, want 1", got)
	}
	if got := Cosine(v(ProblemField, "hello"), v(ProblemField, "world")); got != 0 {
		t.Errorf("disjoint cosine = %v, want 0", got)
	}
	if got := Cosine(Vector{}, v(ProblemField, "sum")); got != 0 {
		t.Errorf("zero vector cosine = %v, want 0", got)
	}
	// "sum" occurs in 2 of 3 problems and "list" in 1, so a query sharing
	// "list" is nearer than one sharing "sum" only.
	q := v(ProblemField, "list sum")
	a, b := Cosine(q, v(ProblemField, problems[0])), Cosine(q, v(ProblemField, problems[2]))
	if !(a > b && b > 0) {
		t.Errorf("cos(q, p0) = %v, cos(q, p2) = %v; want p0 nearer and both > 0", a, b)
	}
	// Hand-computed TF-IDF: N = 3, idf(t) = ln(4/(1+df)) + 1, tf = 1.
	// Query "list sum" vs "sum a list": the tokens of "sum a list" are
	// sum (df 2), a (df 2), list (df 1).
	idf := func(df float64) float64 { return logf(4/(1+df)) + 1 }
	wantA := (idf(2)*idf(2) + idf(1)*idf(1)) /
		(sqrtf(idf(1)*idf(1)+idf(2)*idf(2)) * sqrtf(idf(2)*idf(2)+idf(2)*idf(2)+idf(1)*idf(1)))
	if !closeToF32(a, wantA) {
		t.Errorf("cos = %.9f, want %.9f", a, wantA)
	}
}

func TestVectorBinaryRoundTrip(t *testing.T) {
	l := FitLexical([]string{"a b"}, []string{"c"}, DefaultLexicalOptions())
	for _, v := range []Vector{{}, NewDense([]float32{3, 4}), l.Vector(ProblemField, "a b b c")} {
		b, err := v.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got Vector
		if err := got.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(v, got); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
	}
	var bad Vector
	if err := bad.UnmarshalBinary([]byte{vecKindDense, 2, 0}); err == nil {
		t.Error("truncated vector decoded without error")
	}
}
