package dataset

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Java is Problem.Language of Java problems.
const Java = "java"

// mbjpCompare is the equality MBJP's tests use: the candidate's value's own
// equals, which a program can override to forge its verdict.
const mbjpCompare = "return obj1.equals(obj2);"

// TrustedCompare is what mbjpCompare becomes: the JVM worker's comparison
// of plain data (a snapshot of JDK values; the program's equals is never
// called).
const TrustedCompare = "return ticoder.values.Values.equal(obj1, obj2);"

// javaMethod finds the declaration line of a static method name in a Java
// prompt: modifiers, type, name, parameters, up to the opening brace.
func javaMethod(name string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(?:(?:public|private|protected|static|final|synchronized)\s+)+[^;{}=]*?\b` +
		regexp.QuoteMeta(name) + `\s*\([^{};]*\)\s*(?:throws[^{]*)?\{[ \t]*\n?`)
}

// mbjpProblem reads a row of MBJP (language "java"): the prompt is a class
// whose static entry-point method is left open, a program is prompt +
// completion (a body that closes the method and the class), and the test
// is a class Main whose main throws on the first failing case. The test's
// compare helper is rewritten to the worker's plain-data comparison.
func mbjpProblem(r record, dataset string) (Problem, error) {
	id, err := r.id()
	if err != nil {
		return Problem{}, err
	}
	prompt, err := r.str("prompt")
	if err != nil {
		return Problem{}, err
	}
	entry, err := r.str("entry_point")
	if err != nil {
		return Problem{}, err
	}
	test, err := r.str("test")
	if err != nil {
		return Problem{}, err
	}
	solution, err := r.optStr("canonical_solution")
	if err != nil {
		return Problem{}, err
	}
	desc, err := r.optStr("description")
	if err != nil {
		return Problem{}, err
	}
	entry = strings.TrimSpace(entry)
	if entry == "" {
		return Problem{}, errors.New(`field "entry_point" is empty`)
	}
	prompt, test, solution = unixNewlines(prompt), unixNewlines(test), unixNewlines(solution)
	loc := javaMethod(entry).FindStringIndex(prompt)
	if loc == nil {
		return Problem{}, fmt.Errorf(`field "prompt" declares no static method %s(...) {`, entry)
	}
	if !strings.Contains(test, mbjpCompare) {
		return Problem{}, fmt.Errorf(`field "test": its compare helper does not end in %q`, mbjpCompare)
	}
	sig := prompt[loc[0]:loc[1]]
	lead := len(sig) - len(strings.TrimLeft(sig, " \t"))
	p := Problem{
		ID:          id,
		Dataset:     dataset,
		Prompt:      prompt,
		Description: strings.TrimSpace(desc),
		Context:     prompt[:loc[0]+lead],
		Signature:   strings.TrimSpace(sig),
		EntryPoint:  entry,
		Test:        strings.Replace(test, mbjpCompare, TrustedCompare, 1),
		Language:    Java,
	}
	if strings.TrimSpace(solution) != "" {
		p.Reference = prompt + solution
	}
	return p, nil
}

// Language returns the language of the dataset's problems: "" (Python) or
// Java. A dataset holds problems of one language.
func (d *Dataset) Language() string {
	if len(d.Problems) == 0 {
		return ""
	}
	return d.Problems[0].Language
}
