package java

import (
	"strings"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// methodAt returns the offset of the line that declares the static method
// entry in source (the first such line), or -1.
func methodAt(source, entry string) int {
	for _, m := range staticRE.FindAllStringSubmatchIndex(source, -1) {
		if source[m[4]:m[5]] == entry {
			return m[0]
		}
	}
	return -1
}

// javadocOf returns the Javadoc comment (from "/**" to "*/") just before
// the declaration of entry in prompt, and the indentation of its line.
func javadocOf(prompt, entry string) (doc, indent string, ok bool) {
	at := methodAt(prompt, entry)
	if at < 0 {
		return "", "", false
	}
	if !javadocRE.MatchString(prompt[:at]) {
		return "", "", false
	}
	// The comment that ends last before the declaration, not the first
	// one of the file.
	end := strings.LastIndex(prompt[:at], "*/")
	open := strings.LastIndex(prompt[:end], "/**")
	if open < 0 {
		return "", "", false
	}
	indent = prompt[srcscan.LineStart(prompt, open):open]
	if strings.TrimLeft(indent, " \t") != "" {
		return "", "", false
	}
	return prompt[open : end+2], indent, true
}

// withJavadoc returns program with the Javadoc of entry in prompt put
// before entry's declaration, when the declaration has none (a model that
// wrote the whole class often leaves it out), re-indented to the
// declaration's line. program is returned unchanged when prompt has no
// Javadoc for entry or program declares no such method.
func withJavadoc(prompt, entry, program string) string {
	doc, docIndent, ok := javadocOf(prompt, entry)
	if !ok {
		return program
	}
	at := methodAt(program, entry)
	if at < 0 || javadocRE.MatchString(program[:at]) {
		return program
	}
	line := program[at:]
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	if indent != docIndent {
		doc = strings.ReplaceAll(doc, "\n"+docIndent, "\n"+indent)
	}
	return program[:at] + indent + doc + "\n" + program[at:]
}
