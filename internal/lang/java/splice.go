package java

import (
	"fmt"
	"slices"
	"strings"
)

// SpliceMethod returns orig, a source file whose method m was located by
// LocateMethod, with that method replaced by the one of the same name in
// candidate (a model's class; any top-level class that declares it when
// none is named like m.Class): orig's Javadoc and annotations stay, the
// rest of the declaration and the body are the candidate's, re-indented
// to orig's indentation. Import declarations of candidate that orig lacks
// are added after orig's imports; every other byte of orig is unchanged.
// It fails when candidate declares no such method or one that is static
// where orig's is not (or the reverse).
func SpliceMethod(orig string, m Member, candidate string) (string, error) {
	c, err := LocateMethod(candidate, m.Class, m.Name)
	if err != nil {
		if c, err = LocateMethod(candidate, "", m.Name); err != nil {
			return "", err
		}
	}
	if c.Static != m.Static {
		return "", fmt.Errorf("%w: the candidate's %s is %s", ErrNoMethod, m.Name, map[bool]string{true: "static", false: "not static"}[c.Static])
	}
	decl := reindent(candidate[c.Sig:c.Close], c.Indent, m.Indent)
	patched := orig[:m.Sig] + decl + orig[m.Close:]
	var add []string
	for _, im := range c.Imports {
		if !hasImport(m.Imports, im) && !slices.Contains(add, im) && !ownImport(im, m) {
			add = append(add, im)
		}
	}
	if len(add) == 0 {
		return patched, nil
	}
	text := strings.Join(add, "\n") + "\n"
	at := m.ImportsEnd
	if len(m.Imports) == 0 && m.Package != "" {
		text = "\n" + text
	} else if len(m.Imports) == 0 {
		text += "\n"
	}
	return patched[:at] + text + patched[at:], nil
}

// reindent moves the lines after the first of text from indentation from
// to indentation to.
func reindent(text, from, to string) string {
	if from == to {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	for i := 1; i < len(lines); i++ {
		if rest, ok := strings.CutPrefix(lines[i], from); ok {
			lines[i] = to + rest
		}
	}
	return strings.Join(lines, "")
}

// hasImport reports whether imports has im, up to blanks.
func hasImport(imports []string, im string) bool {
	key := strings.Join(strings.Fields(im), " ")
	for _, x := range imports {
		if strings.Join(strings.Fields(x), " ") == key {
			return true
		}
	}
	return false
}

// ownImport reports whether im imports m's own class or package.
func ownImport(im string, m Member) bool {
	name := strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(strings.Join(strings.Fields(im), " "), "import ")), ";")
	own := m.Class
	if m.Package != "" {
		own = m.Package + "." + m.Class
	}
	return name == own || name == m.Package+".*"
}

// MethodText returns the declaration of m (located in source) from its
// annotations to its closing brace, without m's indentation.
func MethodText(source string, m Member) string {
	text := reindent(source[m.Decl:m.Close], m.Indent, "")
	return strings.TrimPrefix(text, m.Indent) + "\n"
}
