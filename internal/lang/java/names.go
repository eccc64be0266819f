package java

import (
	_ "embed"
	"strings"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// jdkNamesText lists the public top-level types of java.lang, java.util,
// java.io and java.math (OpenJDK 17's java.base), one "Name package" a
// line: the packages the JVM worker's tests import (see execute's
// jworker), with no name in two of them.
//
//go:embed jdknames.txt
var jdkNamesText string

// jdkTypes maps each name of jdkNamesText to its package.
var jdkTypes = func() map[string]string {
	m := map[string]string{}
	for _, l := range strings.Split(jdkNamesText, "\n") {
		if name, pkg, ok := strings.Cut(strings.TrimSpace(l), " "); ok {
			m[name] = pkg
		}
	}
	return m
}()

// packageRoots are the first segments of the packages a test may name in
// full: a type of a program named so would obscure them (JLS 6.4.2).
var packageRoots = map[string]bool{"java": true, "javax": true, "jdk": true, "sun": true, "com": true, "org": true, "ticoder": true, "junit": true}

// ReservedName reports whether a class named name cannot be the class a
// program is tested through: it names a type of java.lang, java.util,
// java.io or java.math, or a
// package's first segment, which tests mean by that name whatever types
// the program declares.
func ReservedName(name string) bool {
	_, ok := jdkTypes[name]
	return ok || packageRoots[name]
}

// importNames rewrites a line of test code so that a program's types
// cannot change what its names mean, in a file compiled beside the
// program's (so in the same package): every name of a JDK type it uses is
// returned as a single-type import (which shadows the package's own types,
// JLS 6.4.1), and a type named in full (java.util.Arrays) is named simply
// and imported, since its package's first segment could be a type of the
// program's. own is the program's class the line calls; it is not
// imported. ok is false where the line names a package in some other way,
// or holds a Unicode escape (which javac reads before anything else).
func importNames(line, own string) (out string, imports []string, ok bool) {
	if strings.Contains(line, `\u`) {
		return "", nil, false
	}
	seen := map[string]bool{}
	add := func(im string) {
		if !seen[im] {
			seen[im] = true
			imports = append(imports, im)
		}
	}
	var b strings.Builder
	var spans []srcscan.Span
	for s := range srcscan.Java.Pieces(line) {
		spans = append(spans, s)
	}
	member := false // the last code byte before this piece was '.'
	for i := 0; i < len(spans); i++ {
		s := spans[i]
		text := line[s.Start:s.End]
		isName := s.Kind == srcscan.Code && srcscan.Java.IsNameByte(text[0]) && !(text[0] >= '0' && text[0] <= '9')
		switch {
		case !isName || member:
		case packageRoots[text]:
			// pkg.Type…: the longest run of names joined by dots.
			k, segs := i, []string{text}
			for k+2 < len(spans) && line[spans[k+1].Start:spans[k+1].End] == "." && spans[k+2].Kind == srcscan.Code &&
				srcscan.Java.IsNameByte(line[spans[k+2].Start]) {
				segs = append(segs, line[spans[k+2].Start:spans[k+2].End])
				k += 2
			}
			found := false
			for t := 1; t < len(segs); t++ {
				if jdkTypes[segs[t]] == strings.Join(segs[:t], ".") {
					add(jdkTypes[segs[t]] + "." + segs[t])
					i = i + 2*t // the piece of segs[t]
					text, found = segs[t], true
					break
				}
			}
			if !found {
				return "", nil, false
			}
		case text != own && jdkTypes[text] != "":
			add(jdkTypes[text] + "." + text)
		}
		b.WriteString(text)
		if s.Kind == srcscan.Code && text != " " && text != "\t" && text != "\n" {
			member = text == "."
		}
	}
	return b.String(), imports, true
}
