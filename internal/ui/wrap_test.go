package ui

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		width int
		want  []string
	}{
		{"fits", "f(-1) == 2", 20, []string{"f(-1) == 2"}},
		{"breaks at spaces", "aaa bbb ccc", 7, []string{"aaa bbb", "ccc"}},
		{"a negative number stays whole", "{1, -5}", 5, []string{"{1,", "-5}"}},
		{"negative numbers in a list", "new int[] {-2, 3}, new int[] {1, -5}", 16, []string{"new int[] {-2,", "3}, new int[]", "{1, -5}"}},
		{"no break after a hyphen in a word", "abc-def ghi", 5, []string{"abc-d", "ef", "ghi"}},
		{"a long word is cut", "abcdefgh", 3, []string{"abc", "def", "gh"}},
		{"indentation kept", "    return x", 20, []string{"    return x"}},
		{"indentation kept on the first row", "    aa bb cc", 9, []string{"    aa bb", "cc"}},
		{"indentation dropped when the word fits alone", "      abcd", 5, []string{"abcd"}},
		{"spaces at a break dropped", "aa   bb", 3, []string{"aa", "bb"}},
		{"lines kept", "a\n\nb", 5, []string{"a", "", "b"}},
		{"tabs", "\tx", 10, []string{"    x"}},
		{"wide characters", "日本語の", 5, []string{"日本", "語の"}},
		{"a grapheme wider than a row", "日x", 1, []string{"日", "x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := wrap(tc.text, tc.width)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("wrap(%q, %d) (-want +got):\n%s", tc.text, tc.width, d)
			}
		})
	}
}

// TestWrapStyled keeps the styles of highlighted text and counts only the
// visible cells.
func TestWrapStyled(t *testing.T) {
	text := "\x1b[31mf\x1b[0m(\x1b[32m-1\x1b[0m) == \x1b[33mTrue\x1b[0m"
	got := wrap(text, 6)
	var plain []string
	for _, l := range got {
		plain = append(plain, ansi.Strip(l))
	}
	if d := cmp.Diff([]string{"f(-1)", "==", "True"}, plain); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if !strings.Contains(got[0], "\x1b[32m-1") {
		t.Errorf("the style of -1 is lost: %q", got[0])
	}
}

// TestWrapProperties wraps random code-like text: no row is wider than the
// width, the text comes back in order, and a word is broken (after a
// hyphen or anywhere) only when it is wider than a row.
func TestWrapProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("ab1-- ,({日")
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(40) {
			b.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
		text, width := b.String(), 2+r.IntN(12)
		got := wrap(text, width)
		for _, l := range got {
			if ansi.StringWidth(l) > width {
				t.Fatalf("wrap(%q, %d) = %q: a row wider than %d", text, width, got, width)
			}
		}
		if strings.Join(strings.Fields(strings.Join(got, "")), "") != strings.Join(strings.Fields(text), "") {
			t.Fatalf("wrap(%q, %d) = %q: the text changed", text, width, got)
		}
		// When every word fits a row, rows break only between words.
		fits := true
		for _, w := range strings.Fields(text) {
			fits = fits && ansi.StringWidth(w) <= width
		}
		var words []string
		for _, l := range got {
			words = append(words, strings.Fields(l)...)
		}
		if fits && !slices.Equal(words, strings.Fields(text)) {
			t.Fatalf("wrap(%q, %d) = %q: a word is broken", text, width, got)
		}
	}
}
