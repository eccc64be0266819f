package java

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
	"github.com/ticoder/ticoder/internal/lang"
)

var _ lang.Interactive = Java{}

// ErrBadStub is lang.ErrBadStub.
var ErrBadStub = lang.ErrBadStub

// staticRE finds the static methods of a class: their return type and name.
var staticRE = regexp.MustCompile(`(?m)^[ \t]*(?:(?:public|private|protected|final|synchronized)\s+)*static\s+(?:(?:final|synchronized)\s+)*([^(){};=/*]+?)\s+([A-Za-z_$][A-Za-z0-9_$]*)\s*\(`)

// javadocRE finds a Javadoc comment that ends (but for blanks and
// annotations) where a declaration begins.
var javadocRE = regexp.MustCompile(`(?s)/\*\*(.*?)\*/\s*(?:@[A-Za-z_.]+(?:\([^)]*\))?\s*)*$`)

// ParseStub implements lang.Interactive: source is a class with a static
// method to write (the last static method but main), its Javadoc the
// description. The method's body may be empty or unfinished. No runner is
// needed. A class named like a type that tests use (see ReservedName) is
// refused: tests could not call it.
func (Java) ParseStub(_ context.Context, _ execute.Runner, what, source string) (lang.Stub, error) {
	if strings.TrimSpace(source) == "" {
		return lang.Stub{}, fmt.Errorf("%w: %s is empty: give a class with a static method and a Javadoc comment", ErrBadStub, what)
	}
	if classRE.FindStringSubmatch(source) == nil {
		return lang.Stub{}, fmt.Errorf("%w: %s declares no class: give a class with a static method to write", ErrBadStub, what)
	}
	var loc []int
	for _, m := range staticRE.FindAllStringSubmatchIndex(source, -1) {
		if source[m[4]:m[5]] != "main" {
			loc = m
		}
	}
	if loc == nil {
		return lang.Stub{}, fmt.Errorf("%w: %s declares no static method (other than main) to write", ErrBadStub, what)
	}
	entry := source[loc[4]:loc[5]]
	m, err := FindMethod(source, entry)
	if err != nil {
		return lang.Stub{}, fmt.Errorf("%w: %s: %w", ErrBadStub, what, err)
	}
	if ReservedName(m.Class) {
		return lang.Stub{}, fmt.Errorf("%w: %s: the class is named %s, which tests use for a type of java.lang, java.util, java.io or java.math (or a package); give it another name", ErrBadStub, what, m.Class)
	}
	start := loc[0]
	sig := source[start:]
	if i := strings.IndexAny(sig, "{;"); i >= 0 {
		sig = sig[:i]
	}
	st := lang.Stub{EntryPoint: entry, Signature: strings.TrimSpace(sig), Context: source[:start]}
	if m := javadocRE.FindStringSubmatchIndex(source[:start]); m != nil {
		st.Context = source[:m[0]]
		var lines []string
		for _, l := range strings.Split(source[m[2]:m[3]], "\n") {
			l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "*"))
			lines = append(lines, l)
		}
		st.Docstring = strings.TrimSpace(strings.Join(lines, "\n"))
	}
	return st, nil
}

// Question implements lang.Interactive.
func (Java) Question(call, expected string) string {
	if expected == "" {
		return call + " ?"
	}
	return call + " == " + expected + " ?"
}

// ShowTest implements lang.Interactive: a value test as `CALL ==
// EXPECTED`, any other test as its code.
func (j Java) ShowTest(prompt, entry string, t execute.Test) string {
	if t.Input == "" {
		return t.String()
	}
	if t.Expected == "" {
		return t.Input
	}
	return t.Input + " == " + j.ShowValue(prompt, entry, t.Expected)
}

// ShowValue implements lang.Interactive: the value (in the worker's
// notation, or Java's) as a value of the method's return type written for
// people (see Show: [-5, -2, 1, 3], not new int[] {(-5), (-2), 1, 3}),
// which ReadValue reads back. Only what is shown changes: tests compare
// with the value itself, and exported tests with its expression.
func (Java) ShowValue(prompt, entry, value string) string {
	m, err := FindMethod(prompt, entry)
	if err != nil {
		return value
	}
	v, err := ReadValue(value)
	if err != nil {
		return value
	}
	if s, err := Show(v, m.Return); err == nil {
		return s
	}
	return value
}

// expression returns value as an expression of the method's return type,
// or value itself when it is not one.
func expression(prompt, entry, value string) string {
	if expr, err := literal(prompt, entry, value); err == nil {
		return expr
	}
	return value
}

// ReadValue implements lang.Interactive: value is read by ReadValue (never
// compiled or run) and written as an expression of the return type.
func (Java) ReadValue(_ context.Context, _ execute.Runner, prompt, entry, value string) (string, error) {
	return literal(prompt, entry, value)
}

func literal(prompt, entry, value string) (string, error) {
	if strings.TrimSpace(value) == "" {
		return "", errors.New("the value is empty: type the value the call should return, e.g. 7, \"abc\", new int[] {1, 2} or List.of(1, 2)")
	}
	m, err := FindMethod(prompt, entry)
	if err != nil {
		return "", err
	}
	v, err := ReadValue(value)
	if err != nil {
		return "", fmt.Errorf("%q is not a Java value (%w); write literals, arrays such as new int[] {1, 2}, List.of(…), Set.of(…) or Map.of(…)", clipText(value), err)
	}
	expr, err := Emit(v, m.Return)
	if err != nil {
		return "", fmt.Errorf("%q is no %s: %w", clipText(value), m.Return, err)
	}
	return expr, nil
}

func clipText(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// Export implements lang.Interactive: the program as CLASS.java (with the
// prompt's Javadoc of the method, see withJavadoc) and the approved value
// tests as a JUnit 5 class CLASSTest in CLASSTest.java, one
// @Test method each (assertArrayEquals for arrays, assertEquals with a
// tolerance of 1e-9 for floating-point results, assertEquals otherwise).
// Expected values are rendered as expressions of the return type.
//
// The two files are compiled together, in one package, so the program's
// types are in scope in the test class: the test file imports every JDK
// type and JUnit name it uses by a single-type import (which the
// program's types cannot shadow) and names none in full (a program's
// type could obscure the package). A test that names a package some other
// way is left out, as a comment.
func (j Java) Export(prompt, entry, program string, approved, rejected []execute.Test) (lang.Files, error) {
	m, err := FindMethod(prompt, entry)
	if err != nil {
		return lang.Files{}, fmt.Errorf("export: %w", err)
	}
	class := m.Class
	if c := classRE.FindStringSubmatch(program); c != nil {
		class = c[1]
	}
	f := lang.Files{CodeFile: class + ".java", Code: withJavadoc(prompt, entry, program), TestFile: class + "Test.java",
		Command: "javac -cp " + junitJar + " *.java && java -jar " + junitJar + " -cp . --select-class " + class + "Test"}
	f.Tests, f.TestCount = j.junitClass(m, prompt, entry, class, class+"Test", approved, rejected)
	return f, nil
}

// JUnitClass renders the approved value tests of the static method entry
// of the class that prompt declares as a JUnit 5 class testClass in
// package pkg ("" for none), as Export does, and returns it with the
// number of its @Test methods.
func (j Java) JUnitClass(prompt, entry, pkg, testClass string, approved, rejected []execute.Test) (string, int, error) {
	m, err := FindMethod(prompt, entry)
	if err != nil {
		return "", 0, fmt.Errorf("export: %w", err)
	}
	text, n := j.junitClass(m, prompt, entry, m.Class, testClass, approved, rejected)
	if pkg != "" {
		text = "package " + pkg + ";\n\n" + text
	}
	return text, n, nil
}

// junitClass renders the JUnit class testClass of the approved tests of
// class's method m.
func (j Java) junitClass(m Method, prompt, entry, class, testClass string, approved, rejected []execute.Test) (string, int) {
	imports := map[string]bool{"import org.junit.jupiter.api.Test;": true}
	var body strings.Builder
	if len(approved) == 0 {
		body.WriteString("    // No test was approved.\n")
	}
	n := 0
	for _, t := range approved {
		if t.Input == "" {
			body.WriteString("\n    // Not a value test, not exported:\n")
			writeComment(&body, t.String())
			continue
		}
		a, assert := assertion(m, t.Input, expression(prompt, entry, t.Expected))
		line, ims, ok := importNames(a, class)
		if !ok {
			body.WriteString("\n    // Names a package in full, which a type of the program could obscure; not exported:\n")
			writeComment(&body, a)
			continue
		}
		imports["import static org.junit.jupiter.api.Assertions."+assert+";"] = true
		for _, im := range ims {
			imports["import "+im+";"] = true
		}
		n++
		fmt.Fprintf(&body, "\n    @Test\n    void %s%d() {\n        %s\n    }\n", entry, n, line)
	}
	if len(rejected) > 0 {
		body.WriteString("\n    // Tests you rejected (they do not match your intent):\n")
		for _, t := range rejected {
			line := t.String()
			if t.Input != "" {
				line = j.Question(t.Input, j.ShowValue(prompt, entry, t.Expected))
			}
			writeComment(&body, line)
		}
	}
	list := make([]string, 0, len(imports))
	for im := range imports {
		list = append(list, im)
	}
	sort.Strings(list)
	var b strings.Builder
	for _, im := range list {
		b.WriteString(im + "\n")
	}
	fmt.Fprintf(&b, "\n/** Tests of %s.%s approved with ticoder. */\nclass %s {\n", class, entry, testClass)
	b.WriteString(body.String())
	b.WriteString("}\n")
	return b.String(), n
}

// writeComment writes text as comment lines of the test class.
func writeComment(b *strings.Builder, text string) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString("    //   " + l + "\n")
	}
}

// assertion is the JUnit assertion that call returns expected, and the
// name of the method of JUnit's Assertions it calls.
func assertion(m Method, call, expected string) (string, string) {
	switch {
	case expected == "":
		return "assertDoesNotThrow(() -> " + call + ");", "assertDoesNotThrow"
	case m.Return.Array > 0:
		return "assertArrayEquals(" + expected + ", " + call + ");", "assertArrayEquals"
	case m.Return.Name == "double" || m.Return.Name == "float" || m.Return.Name == "Double" || m.Return.Name == "Float":
		return "assertEquals(" + expected + ", " + call + ", 1e-9);", "assertEquals"
	}
	return "assertEquals(" + expected + ", " + call + ");", "assertEquals"
}

// junitJar is Debian's JUnit 5 console launcher, for Files.Command.
const junitJar = "/usr/share/java/junit-platform-console-standalone.jar"

// checkMain is ticoder's check of an exported JUnit class (a Java source
// file run in source-file mode): it compiles the code file and the test
// file as two units of one package and runs the test class with JUnit's
// launcher. It holds none of the program's code, so the program's types
// cannot rename what it uses.
//
//go:embed junitcheck.java
var checkMain string

// checkRunner runs a Java source file with JUnit on the class path (an
// *jvm.Pool).
type checkRunner interface {
	RunSource(ctx context.Context, job jvm.SourceJob, stdin string, timeout time.Duration) (jvm.SourceRun, error)
}

// CheckExport implements lang.Interactive: the code file and the test file
// are compiled together, with JUnit 5 (Debian's junit5), as javac does
// them in the user's build (one unit each), and the test class is run by
// JUnit's launcher in a sandboxed JVM (r must be the Java pool), by a
// main class compiled apart from them (see checkMain). It returns
// jvm.ErrNoJUnit when JUnit is not installed.
func (Java) CheckExport(ctx context.Context, r execute.Runner, f lang.Files) ([]string, error) {
	cr, ok := r.(checkRunner)
	if !ok {
		return nil, errors.New("check the JUnit tests: the runner cannot run Java source files")
	}
	// The launcher's lines carry a nonce (see checkMain).
	var nb [16]byte
	if _, err := rand.Read(nb[:]); err != nil {
		return nil, fmt.Errorf("check the JUnit tests: %w", err)
	}
	nonce := hex.EncodeToString(nb[:])
	testClass := strings.TrimSuffix(f.TestFile, ".java")
	if pkg, _, _ := header(f.Tests, tokensOf(f.Tests)); pkg != "" {
		testClass = pkg + "." + testClass
	}
	job := jvm.SourceJob{Main: checkMain, Args: []string{testClass, f.CodeFile, f.TestFile},
		Files: map[string]string{f.CodeFile: f.Code, f.TestFile: f.Tests}}
	if f.CodeFile == f.TestFile {
		return nil, fmt.Errorf("check the JUnit tests: the code file and the test file are both %s", f.CodeFile)
	}
	run, err := cr.RunSource(ctx, job, nonce+"\n", 60*time.Second)
	if err != nil {
		return nil, fmt.Errorf("check %s against %s: %w", f.TestFile, f.CodeFile, err)
	}
	var failures []string
	ran := false
	for _, l := range strings.Split(run.Output, "\n") {
		if rest, ok := strings.CutPrefix(l, "TICODER-FAIL "+nonce+" "); ok {
			failures = append(failures, rest)
		}
		if rest, ok := strings.CutPrefix(l, "TICODER-DONE "+nonce+" "); ok {
			// passed failed: every test function ran and passed.
			ran = true
			if rest != fmt.Sprintf("%d %d", f.TestCount, 0) && len(failures) == 0 {
				failures = append(failures, "JUnit ran other tests than the file's: "+rest)
			}
		}
	}
	if !ran || run.Exit != 0 && len(failures) == 0 {
		out := strings.TrimSpace(run.Output)
		if len(out) > 600 {
			out = out[:600] + "…"
		}
		failures = append(failures, fmt.Sprintf("%s and %s do not compile or run together (exit %d): %s", f.CodeFile, f.TestFile, run.Exit, out))
	}
	return failures, nil
}
