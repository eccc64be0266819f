package clip

import (
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	cases := []struct {
		in   string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"héllo", 2, "h…"}, // é is two bytes: cut before it
		{"héllo", 3, "hé…"},
		{"abc", 0, "…"},
		{"abc", -1, "…"},
		{"a\xffbc", 3, "ab…"},
	}
	for _, c := range cases {
		if got := Text(c.in, c.n); got != c.want {
			t.Errorf("Text(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func FuzzText(f *testing.F) {
	f.Add("héllo wörld", 4)
	f.Add("\xff\xfe", 1)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || n > 1<<20 {
			return
		}
		got := Text(s, n)
		if len(s) <= n {
			if got != s {
				t.Fatalf("Text(%q, %d) changed a string that fits: %q", s, n, got)
			}
			return
		}
		if len(got) > n+len("…") || !utf8.ValidString(got) {
			t.Fatalf("Text(%q, %d) = %q: too long or invalid UTF-8", s, n, got)
		}
	})
}
