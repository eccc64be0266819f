package srcscan

import "testing"

func TestLiteralAt(t *testing.T) {
	tests := []struct {
		name   string
		sx     Syntax
		src    string
		at     int
		want   string // the literal's text; "" for none
		body   string
		long   bool
		closed bool
	}{
		{"double", Python, `"ab" + x`, 0, `"ab"`, "ab", false, true},
		{"single with escaped quote", Python, `'it\'s' x`, 0, `'it\'s'`, `it\'s`, false, true},
		{"raw escaped quote", Python, `r"a\"b" + c`, 0, `r"a\"b"`, `a\"b`, false, true},
		{"bytes prefix upper", Python, `BR'x'`, 0, `BR'x'`, "x", false, true},
		{"triple", Python, "'''a\n'b'\n''' + 1", 0, "'''a\n'b'\n'''", "a\n'b'\n", true, true},
		{"escape in triple", Python, `"""a\"""" + 1`, 0, `"""a\""""`, `a\"`, true, true},
		{"escaped triple quote", Python, `"""x\""" y""" z`, 0, `"""x\""" y"""`, `x\""" y`, true, true},
		{"unterminated ends at line", Python, "'abc\nd'", 0, "'abc", "abc", false, false},
		{"unterminated triple runs to end", Python, "'''abc\nd", 0, "'''abc\nd", "abc\nd", true, false},
		{"quote at end", Python, `x = "`, 4, `"`, "", false, false},
		{"f-string", Python, `f"{x}!" + y`, 0, `f"{x}!"`, "{x}!", false, true},
		{"f-string nested same quote", Python, `f"{d["k"]}" + y`, 0, `f"{d["k"]}"`, `{d["k"]}`, false, true},
		{"f-string nested f-string", Python, `f"{f"{a["b"]}"}" z`, 0, `f"{f"{a["b"]}"}"`, `{f"{a["b"]}"}`, false, true},
		{"f-string doubled braces", Python, `f"{{"}}" + "`, 0, `f"{{"`, "{{", false, true},
		{"f-string format spec with quote", Python, `f"{x:'>10}" y`, 0, `f"{x:'>10}"`, `{x:'>10}`, false, true},
		{"f-string nested spec field", Python, `f"{x:{w}.{p}f}" y`, 0, `f"{x:{w}.{p}f}"`, `{x:{w}.{p}f}`, false, true},
		{"f-string dict in field", Python, `f"{ {'a': 1}['a'] }" y`, 0, `f"{ {'a': 1}['a'] }"`, `{ {'a': 1}['a'] }`, false, true},
		{"f-string conversion", Python, `F'{x!r}' y`, 0, `F'{x!r}'`, "{x!r}", false, true},
		{"f-string unclosed field", Python, "f\"{x\ny\"", 0, `f"{x`, `{x`, false, false},
		{"rf-string", Python, `rf"\{x}" q`, 0, `rf"\{x}"`, `\{x}`, false, true},
		{"t-string", Python, `t"{name!r:>{w}}" + s`, 0, `t"{name!r:>{w}}"`, "{name!r:>{w}}", false, true},
		{"t-string nested quotes", Python, `T'{a['k']}'`, 0, `T'{a['k']}'`, `{a['k']}`, false, true},
		{"tr-string", Python, `Tr'\d{x}'`, 0, `Tr'\d{x}'`, `\d{x}`, false, true},
		{"not a prefix", Python, `ab"x"`, 0, "", "", false, false},
		{"b is not f", Python, `b"{"`, 0, `b"{"`, "{", false, true},
		{"name", Python, `abc`, 0, "", "", false, false},
		{"java string", Java, `"a\"b" + c`, 0, `"a\"b"`, `a\"b`, false, true},
		{"java char", Java, `'\'' + c`, 0, `'\''`, `\'`, false, true},
		{"java text block", Java, "\"\"\"\n  a \"q\" \\\"\"\"\n  \"\"\";", 0, "\"\"\"\n  a \"q\" \\\"\"\"\n  \"\"\"", "\n  a \"q\" \\\"\"\"\n  ", true, true},
		{"java no prefixes", Java, `f"x"`, 0, "", "", false, false},
		{"java unterminated", Java, "\"ab\nc", 0, `"ab`, "ab", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lit, ok := tc.sx.LiteralAt(tc.src, tc.at)
			if ok != (tc.want != "") {
				t.Fatalf("LiteralAt(%q, %d) ok = %v, want %v", tc.src, tc.at, ok, tc.want != "")
			}
			if !ok {
				return
			}
			if got := lit.Text(tc.src); got != tc.want {
				t.Errorf("text %q, want %q", got, tc.want)
			}
			if got := lit.Body(tc.src); got != tc.body {
				t.Errorf("body %q, want %q", got, tc.body)
			}
			if lit.Long != tc.long || lit.Closed != tc.closed || lit.Kind != String {
				t.Errorf("kind %v long %v closed %v, want String %v %v", lit.Kind, lit.Long, lit.Closed, tc.long, tc.closed)
			}
		})
	}
}

func TestCommentAt(t *testing.T) {
	tests := []struct {
		name, src    string
		sx           Syntax
		want, body   string
		long, closed bool
	}{
		{"python", "# a b\nx", Python, "# a b", " a b", false, true},
		{"python at end", "#", Python, "#", "", false, true},
		{"python slashes are code", "// x", Python, "", "", false, false},
		{"java line", "// x\ny", Java, "// x", " x", false, true},
		{"java block", "/* a\n * b */ c", Java, "/* a\n * b */", " a\n * b ", true, true},
		{"java unclosed block", "/* a", Java, "/* a", " a", true, false},
		{"java hash is code", "# x", Java, "", "", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := tc.sx.CommentAt(tc.src, 0)
			if ok != (tc.want != "") {
				t.Fatalf("ok = %v, want %v", ok, tc.want != "")
			}
			if !ok {
				return
			}
			if c.Text(tc.src) != tc.want || c.Body(tc.src) != tc.body || c.Long != tc.long || c.Closed != tc.closed {
				t.Errorf("got %q body %q long %v closed %v, want %q %q %v %v", c.Text(tc.src), c.Body(tc.src), c.Long, c.Closed,
					tc.want, tc.body, tc.long, tc.closed)
			}
		})
	}
}

func TestFieldNestingBounded(t *testing.T) {
	// Deeper than maxFieldNesting: the scanner must neither recurse without
	// bound nor lose the literal's end.
	src := ""
	for range 10 * maxFieldNesting {
		src += `f"{`
	}
	src += "x"
	for range 10 * maxFieldNesting {
		src += `}"`
	}
	lit, ok := Python.LiteralAt(src, 0)
	if !ok || lit.End > len(src) || lit.End <= 0 {
		t.Fatalf("LiteralAt = %+v, %v", lit, ok)
	}
}
