package python

import "testing"

func TestPython(t *testing.T) {
	p := Python{}
	if got := p.Program("def f(x):\n", "    return x\n"); got != "def f(x):\n    return x\n" {
		t.Errorf("Program = %q", got)
	}
	cases := []struct{ call, expected, code, wantExpected string }{
		{"f(1)", "2", "assert f(1) == 2", "2"},
		{"f(1)", "", "assert f(1) == None", "None"},
	}
	for _, c := range cases {
		tt := p.ValueTest(c.call, c.expected)
		if tt.Code != c.code || tt.Input != c.call || tt.Expected != c.wantExpected {
			t.Errorf("ValueTest(%q, %q) = %+v", c.call, c.expected, tt)
		}
	}
	if got := p.Extract("Here:\n```python\ndef f(): pass\n```"); got != "def f(): pass\n" {
		t.Errorf("Extract = %q", got)
	}
}
