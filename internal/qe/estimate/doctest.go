package estimate

import (
	"regexp"
	"strings"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// Example is one input/output example found in a problem's docstring: a call
// of the entry point and the expected value, both as Python source text as
// written (not yet validated; see Agree).
type Example struct {
	Call     string `json:"call"`
	Expected string `json:"expected"`
}

// ParseExamples finds the examples in the docstring of entry (or, when its
// def is not found, anywhere in prompt) in these forms:
//
//	>>> f(1, 2)          doctest: the call, then the output lines up to a
//	3                    blank line, the next >>> or the docstring's end
//	f(1, 2) ==> 3        inline, with ==>, =>, ->, ➞, →, ==, =, "returns",
//	                     "should return", "should be" (optionally after #)
//	Input: a = 1, b = 2  an Input/Output pair (names mapped to positions by
//	Output: 3            the signature when they all match)
//	For a = 1 the output should be 3
//
// Calls of other functions and examples without an expected value are
// skipped. The result is in order of appearance, without duplicates. It
// never fails; garbage in yields garbage examples that Python validation
// drops.
func ParseExamples(prompt, entry string) []Example {
	if entry == "" {
		return nil
	}
	doc := prompt
	params := signatureParams(prompt, entry)
	if _, open := findDef(prompt, entry, false); open >= 0 {
		doc = prompt[open+1:]
	}
	lines := strings.Split(doc, "\n")
	var out []Example
	seen := map[Example]bool{}
	add := func(e Example) {
		e.Call, e.Expected = strings.TrimSpace(e.Call), strings.TrimSpace(e.Expected)
		if e.Call == "" || e.Expected == "" || seen[e] {
			return
		}
		seen[e] = true
		out = append(out, e)
	}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		for _, q := range []string{`"""`, `'''`} {
			line = strings.TrimSpace(strings.TrimPrefix(line, q))
		}
		switch {
		case strings.HasPrefix(line, ">>>"):
			e, next := doctestExample(line, lines, i, entry)
			add(e)
			i = next - 1
		case strings.HasPrefix(strings.ToLower(line), "input:"):
			if e, ok := inputOutputExample(lines, i, entry, params); ok {
				add(e)
			}
		case strings.HasPrefix(strings.ToLower(line), "for ") && strings.Contains(line, "output should be"):
			if e, ok := forOutputExample(line, entry, params); ok {
				add(e)
			}
			fallthrough
		default:
			for _, e := range inlineExamples(line, entry) {
				add(e)
			}
		}
	}
	return out
}

// doctestExample reads the >>> example starting at line i (first is that
// line, trimmed) and returns it with the index of the first line after it.
func doctestExample(first string, lines []string, i int, entry string) (Example, int) {
	call := strings.TrimSpace(strings.TrimPrefix(first, ">>>"))
	j := i + 1
	for j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "...") {
		call += "\n" + strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[j]), "..."))
		j++
	}
	var want []string
	for ; j < len(lines); j++ {
		l := strings.TrimSpace(lines[j])
		if l == "" || strings.HasPrefix(l, ">>>") || strings.Contains(l, entry+"(") {
			break // an inline example is not this one's output
		}
		if k := docstringEnd(l); k >= 0 {
			if s := strings.TrimSpace(l[:k]); s != "" {
				want = append(want, s)
			}
			j++
			break
		}
		want = append(want, l)
	}
	if !isCallOf(call, entry) {
		return Example{}, j
	}
	return Example{Call: call, Expected: strings.Join(want, " ")}, j
}

// docstringEnd returns the index of a closing triple quote in l, or -1.
func docstringEnd(l string) int {
	a, b := strings.Index(l, `"""`), strings.Index(l, `'''`)
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	default:
		return min(a, b)
	}
}

// isCallOf reports whether src is exactly one call of entry.
func isCallOf(src, entry string) bool {
	src = strings.TrimSpace(src)
	if !strings.HasPrefix(src, entry) {
		return false
	}
	rest := strings.TrimLeft(src[len(entry):], " ")
	if !strings.HasPrefix(rest, "(") {
		return false
	}
	end := srcscan.Python.MatchBracket(rest, 0)
	return end == len(rest)
}

// arrows separate an inline example's call from its expected value, longest
// first.
var arrows = []string{"should return", "should be", "returns", "return", "==>", "=>", "->", "➞", "→", "==", "="}

// inlineExamples finds `entry(...) ARROW expected` on one line.
func inlineExamples(line, entry string) []Example {
	var out []Example
	for from := 0; from < len(line); {
		k := strings.Index(line[from:], entry)
		if k < 0 {
			break
		}
		start := from + k
		from = start + len(entry)
		if start > 0 && isIdentByte(line[start-1]) {
			continue
		}
		p := from
		for p < len(line) && line[p] == ' ' {
			p++
		}
		if p >= len(line) || line[p] != '(' {
			continue
		}
		end := srcscan.Python.MatchBracket(line, p)
		if end < 0 {
			continue
		}
		rest := strings.TrimSpace(line[end:])
		rest = strings.TrimSpace(strings.TrimPrefix(rest, "#"))
		arrow := ""
		for _, a := range arrows {
			if strings.HasPrefix(rest, a) {
				arrow = a
				break
			}
		}
		if arrow == "" {
			continue
		}
		exp := strings.TrimSpace(rest[len(arrow):])
		// The next example on the same line ends this one.
		if n := strings.Index(exp, entry+"("); n > 0 {
			exp = strings.TrimRight(strings.TrimSpace(exp[:n]), ",;")
		}
		out = append(out, Example{Call: line[start:end], Expected: exp})
		from = end
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

var assignRE = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\s*=\s*`)

// inputOutputExample reads "Input: a = 1, b = 2" followed (within a few
// lines) by "Output: 3".
func inputOutputExample(lines []string, i int, entry string, params []string) (Example, bool) {
	in := strings.TrimSpace(strings.TrimSpace(lines[i])[len("input:"):])
	for j := i + 1; j < len(lines) && j <= i+3; j++ {
		l := strings.TrimSpace(lines[j])
		if strings.HasPrefix(strings.ToLower(l), "output:") {
			out := strings.TrimSpace(l[len("output:"):])
			if k := strings.Index(out, " #"); k >= 0 {
				out = out[:k]
			}
			return Example{Call: callFromBindings(in, entry, params), Expected: out}, in != ""
		}
	}
	return Example{}, false
}

var forOutputRE = regexp.MustCompile(`(?i)^for\s+(.*?)\s*,?\s+the output should be\s+(.*)$`)

// forOutputExample reads "For lst = [1,2,3] the output should be 14".
func forOutputExample(line, entry string, params []string) (Example, bool) {
	m := forOutputRE.FindStringSubmatch(line)
	if m == nil || !assignRE.MatchString(m[1]) {
		return Example{}, false
	}
	return Example{Call: callFromBindings(m[1], entry, params), Expected: strings.TrimRight(m[2], ".")}, true
}

// callFromBindings turns "a = 1, b = [2, 3]" into entry(1, [2, 3]) when the
// names are the signature's parameters in order, into entry(a=1, b=[2, 3])
// when they are parameters in another order, and "3" into entry(3).
func callFromBindings(in, entry string, params []string) string {
	locs := assignRE.FindAllStringSubmatchIndex(in, -1)
	if len(locs) == 0 || locs[0][0] != 0 {
		return entry + "(" + in + ")"
	}
	var names, values []string
	for n, loc := range locs {
		end := len(in)
		if n+1 < len(locs) {
			end = locs[n+1][0]
		}
		names = append(names, in[loc[2]:loc[3]])
		values = append(values, strings.TrimRight(strings.TrimSpace(in[loc[1]:end]), ","))
	}
	positional := len(names) <= len(params)
	for n, name := range names {
		positional = positional && params[n] == name
	}
	args := make([]string, len(names))
	for n := range names {
		if positional {
			args[n] = values[n]
		} else {
			args[n] = names[n] + "=" + values[n]
		}
	}
	return entry + "(" + strings.Join(args, ", ") + ")"
}

// signatureParams returns the parameter names of entry's def in src.
func signatureParams(src, entry string) []string {
	_, open := findDef(src, entry, false)
	if open < 0 {
		return nil
	}
	end := srcscan.Python.MatchBracket(src, open)
	if end < 0 {
		return nil
	}
	var out []string
	for _, p := range srcscan.Python.SplitTop(src[open+1:end-1], ',') {
		p = strings.TrimSpace(p)
		if p == "" || strings.HasPrefix(p, "*") || p == "/" {
			continue
		}
		if k := strings.IndexAny(p, ":="); k >= 0 {
			p = strings.TrimSpace(p[:k])
		}
		out = append(out, p)
	}
	return out
}

// findDef finds the definition "def entry(" in src, outside literals and
// comments (a top-level one first), and returns the offset of its line's
// start and of the opening parenthesis, or -1, -1. With topLevel, only a
// definition at column 0 counts.
func findDef(src, entry string, topLevel bool) (lineStart, open int) {
	d, ok := srcscan.FindDef(src, srcscan.Tokens(src), entry)
	if !ok || topLevel && !d.TopLevel {
		return -1, -1
	}
	return d.Start, d.Open
}
