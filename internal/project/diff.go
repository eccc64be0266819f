package project

import (
	"fmt"
	"strings"
)

// contextLines is how many unchanged lines a hunk shows around a change.
const contextLines = 3

// maxDiffCells bounds the table of the line diff; beyond it the changed
// middle of the files is one hunk.
const maxDiffCells = 16 << 20

// UnifiedDiff returns a one-file unified diff from old to new with
// "a/REL" and "b/REL" headers, which `git apply` and `patch -p1` apply
// without fuzz in the directory REL is relative to; "" when they are
// equal. A last line without a newline is marked as diff marks it.
func UnifiedDiff(rel, old, new string) string {
	if old == new {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	ops := diffLines(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", rel, rel)
	for _, h := range hunks(ops) {
		writeHunk(&out, h, a, b)
	}
	return out.String()
}

// splitLines splits s into lines that keep their line ends.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// op is one step of an edit script: an unchanged line (both indexes), a
// deleted line of a, or an inserted line of b.
type op struct {
	kind byte // ' ', '-', '+'
	i, j int
}

// diffLines returns an edit script from a to b: the common prefix and
// suffix, and a longest common subsequence of the rest.
func diffLines(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for k := 0; k < pre; k++ {
		ops = append(ops, op{' ', k, k})
	}
	ops = append(ops, lcsOps(a[pre:len(a)-suf], b[pre:len(b)-suf], pre)...)
	for k := 0; k < suf; k++ {
		ops = append(ops, op{' ', len(a) - suf + k, len(b) - suf + k})
	}
	return ops
}

// lcsOps diffs the middles a and b (which start at line off of both files)
// by a longest common subsequence table.
func lcsOps(a, b []string, off int) []op {
	n, m := len(a), len(b)
	var ops []op
	if n*m > maxDiffCells || n == 0 || m == 0 {
		for i := range a {
			ops = append(ops, op{'-', off + i, off})
		}
		for j := range b {
			ops = append(ops, op{'+', off + n, off + j})
		}
		return ops
	}
	t := make([][]int32, n+1)
	for i := range t {
		t[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, op{' ', off + i, off + j})
			i++
			j++
		case j < m && (i == n || t[i][j+1] >= t[i+1][j]):
			ops = append(ops, op{'+', off + i, off + j})
			j++
		default:
			ops = append(ops, op{'-', off + i, off + j})
			i++
		}
	}
	return ops
}

// hunks groups the edit script into hunks with contextLines of context.
func hunks(ops []op) [][]op {
	var out [][]op
	var cur []op
	lastChange := -1
	for k, o := range ops {
		if o.kind == ' ' {
			continue
		}
		lo := max(k-contextLines, 0)
		if cur != nil && lo <= lastChange+contextLines+1 {
			cur = append(cur, ops[lastChange+1:k+1]...)
		} else {
			if cur != nil {
				out = append(out, closeHunk(cur, ops, lastChange))
			}
			cur = append([]op(nil), ops[lo:k+1]...)
		}
		lastChange = k
	}
	if cur != nil {
		out = append(out, closeHunk(cur, ops, lastChange))
	}
	return out
}

// closeHunk adds the context after a hunk's last change.
func closeHunk(cur, ops []op, last int) []op {
	return append(cur, ops[last+1:min(last+1+contextLines, len(ops))]...)
}

// writeHunk writes one hunk with its header.
func writeHunk(out *strings.Builder, h []op, a, b []string) {
	aStart, bStart, aLen, bLen := -1, -1, 0, 0
	for _, o := range h {
		if aStart < 0 {
			aStart, bStart = o.i, o.j
		}
		if o.kind != '+' {
			aLen++
		}
		if o.kind != '-' {
			bLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, o := range h {
		line := ""
		switch o.kind {
		case '+':
			line = b[o.j]
		default:
			line = a[o.i]
		}
		out.WriteByte(o.kind)
		out.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange is a hunk header's START,LEN (1-based; an empty range names
// the line before it).
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
