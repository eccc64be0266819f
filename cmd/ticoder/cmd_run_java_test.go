package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/lang/java"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/rank"
)

// javaLines answers Java demo p on a twin conversation as its author would
// (tests by their labels, synthesized questions by the reference) and
// returns the lines a user would type and the approved questions' calls.
// With output, the first question, and any the reference answers otherwise
// than shown, is answered `o VALUE` with the reference's value, typed as
// Java source.
func javaLines(t *testing.T, jp *jvm.Pool, p demo.Problem, mode rank.Mode) ([]string, []string) {
	t.Helper()
	ctx := context.Background()
	b := &interact.Builder{Runner: jp}
	prep, err := b.Build(ctx, interact.Source{Demo: p.Name}, interact.Options{Mode: mode, Select: "infogain", Rank: "codet"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := interact.Start(prep, jp)
	if err != nil {
		t.Fatal(err)
	}
	var lines, approved []string
	for {
		q, ok := c.Question()
		if !ok {
			return lines, approved
		}
		m, err := jp.Run(ctx, execute.Job{Programs: []string{p.Reference}, Tests: []execute.Test{java.Java{}.ValueTest(q.Input, "")}, TimePolicy: execute.Within(5 * time.Second)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ref := m.Results[0][0]
		want := java.Java{}.ShowValue(p.Stub, p.EntryPoint, ref.Value)
		line, verdict, value := "y", "pass", ""
		switch {
		case !ref.HasValue:
			line, verdict = "d", "undefined"
		case mode == rank.Output && q.CanOutput && (len(lines) == 0 || want != q.Expected):
			line, verdict, value = "o "+want, "output", want
		case want != q.Expected:
			line, verdict = "n", "fail"
		}
		if verdict == "pass" || verdict == "output" {
			approved = append(approved, q.Input)
		}
		if err := c.Answer(ctx, q.Test, verdict, value); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
}

// javadocLines finds a Javadoc comment with its indentation and line end.
var javadocLines = regexp.MustCompile(`(?s)[ \t]*/\*\*.*?\*/\n`)

// TestRunJavaDemos runs the Java demos through `run`'s plain mode: the
// questions are Java, the answers prune to a correct candidate, and the
// written CLASS.java and JUnit 5 class CLASSTest.java hold it and every
// approved call; with JUnit installed the class was run against the code.
func TestRunJavaDemos(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	jp, err := jvm.NewPool(context.Background(), execute.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer jp.Close()
	_, junitErr := jvm.JUnitJar()
	cases := []struct {
		demo, class string
		mode        rank.Mode
	}{
		{"min_cost", "MinCost", rank.PassFail},
		{"sorted_union", "SortedUnion", rank.PassFail},
		{"sorted_union", "SortedUnion", rank.Output},
	}
	for _, c := range cases {
		t.Run(c.demo+"/"+c.mode.String(), func(t *testing.T) {
			p, err := demo.Get(c.demo)
			if err != nil {
				t.Fatal(err)
			}
			lines, approved := javaLines(t, jp, p, c.mode)
			o := runDefaults(t)
			o.demo, o.flags.mode = p.Name, c.mode.String()
			var out, errw bytes.Buffer
			in := strings.NewReader(strings.Join(lines, "\n") + "\n\n")
			if err := runRun(context.Background(), runGlobals(t), o, in, &out, &errw); err != nil {
				t.Fatalf("run: %v\n%s\n%s", err, out.String(), errw.String())
			}
			if !strings.Contains(out.String(), "Question 1: "+c.class+"."+p.EntryPoint+"(new int[]") {
				t.Errorf("the first question is not a Java call:\n%s", out.String())
			}
			code, err := os.ReadFile(filepath.Join(o.out, c.class+".java"))
			if err != nil {
				t.Fatal(err)
			}
			tests, err := os.ReadFile(filepath.Join(o.out, c.class+"Test.java"))
			if err != nil {
				t.Fatal(err)
			}
			// The written class is a candidate with the stub's Javadoc.
			doc := javadocLines.FindString(p.Stub)
			if doc == "" || !strings.Contains(string(code), doc) {
				t.Errorf("the written class lacks the stub's Javadoc %q:\n%s", doc, code)
			}
			found := false
			for i, cand := range p.Candidates {
				if cand.Program == strings.Replace(string(code), doc, "", 1) {
					found = true
					if p.CandidateLabels[i] != demo.Correct {
						t.Errorf("wrote buggy candidate %d (%s)", i, p.CandidateNotes[i])
					}
				}
			}
			if !found {
				t.Errorf("wrote code that is no candidate:\n%s", code)
			}
			if len(approved) == 0 || !strings.Contains(string(tests), "class "+c.class+"Test {") || !strings.Contains(string(tests), "@Test") {
				t.Errorf("%d approved; test file:\n%s", len(approved), tests)
			}
			for _, a := range approved {
				if !strings.Contains(string(tests), a) {
					t.Errorf("test file lacks approved %q:\n%s", a, tests)
				}
			}
			if c.mode == rank.Output && !strings.Contains(strings.Join(lines, "\n"), "o [") {
				t.Errorf("no answer gave a value in output mode: %q", lines)
			}
			wantLine := "Checked in the sandbox: all"
			if junitErr != nil {
				wantLine = "Not checked in the sandbox"
			}
			if !strings.Contains(out.String(), wantLine) {
				t.Errorf("want %q in the output:\n%s", wantLine, out.String())
			}
		})
	}
}

// TestRunJavaSpecWithModel runs `run --spec MinCost.java` with a model (an
// OpenAI-compatible fake that answers with the min_cost demo's candidates
// and the reference's values as JUnit assertions): the prompts ask for
// Java, the programs and assertions are read as Java, and answering yes to
// every (correct) test ends with a correct class and a JUnit class.
func TestRunJavaSpecWithModel(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	p, err := demo.Get("min_cost")
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, c := range p.Candidates {
		codes = append(codes, "Here is the class:\n```java\n"+c.Program+"```\n")
	}
	var asserts []string
	for j, tc := range p.Tests {
		if p.TestLabels[j] == demo.Correct {
			asserts = append(asserts, "assertEquals("+tc.Expected+", "+strings.TrimPrefix(tc.Input, "MinCost.")+");")
		}
	}
	srv := llmtest.New(t, llmtest.Config{Respond: func(c llmtest.Call) llmtest.Reply {
		switch {
		case strings.Contains(c.Text(), "Implement the static method `minCost`") && strings.Contains(c.Text(), "```java"):
			return llmtest.Reply{Texts: codes}
		case strings.Contains(c.Text(), "assertEquals(EXPECTED, minCost(...))"):
			return llmtest.Reply{Texts: []string{"```java\n" + strings.Join(asserts, "\n") + "\n```\n"}}
		}
		return llmtest.Reply{Status: 400, ErrorMessage: "unexpected prompt: " + c.Text()}
	}})
	spec := filepath.Join(t.TempDir(), "MinCost.java")
	if err := os.WriteFile(spec, []byte(p.Stub), 0o644); err != nil {
		t.Fatal(err)
	}
	o := runDefaults(t)
	o.spec, o.flags.model, o.flags.codes, o.flags.tests, o.flags.questions = spec, "vllm:m@"+srv.URL, len(codes), 1, "tests"
	var out, errw bytes.Buffer
	in := strings.NewReader(strings.Repeat("y\n", len(asserts)) + "\n")
	if err := runRun(context.Background(), runGlobals(t), o, in, &out, &errw); err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out.String(), errw.String())
	}
	if !strings.Contains(out.String(), "Question 1: MinCost.minCost(new int[][]") {
		t.Errorf("the first question is not a Java call:\n%s", out.String())
	}
	code, err := os.ReadFile(filepath.Join(o.out, "MinCost.java"))
	if err != nil {
		t.Fatal(err)
	}
	doc := javadocLines.FindString(p.Stub)
	found := false
	for i, c := range p.Candidates {
		if c.Program == strings.Replace(string(code), doc, "", 1) {
			found = true
			if p.CandidateLabels[i] != demo.Correct {
				t.Errorf("wrote buggy candidate %d (%s)", i, p.CandidateNotes[i])
			}
		}
	}
	if !found {
		t.Errorf("wrote code that is no candidate:\n%s", code)
	}
	if tests, err := os.ReadFile(filepath.Join(o.out, "MinCostTest.java")); err != nil || !strings.Contains(string(tests), "assertEquals(") {
		t.Errorf("test file: %v\n%s", err, tests)
	}
}

// TestRunJavaErrors: Java sources that cannot be used say why, as bad
// input or usage errors, before any model is asked.
func TestRunJavaErrors(t *testing.T) {
	dir := t.TempDir()
	noMethod := filepath.Join(dir, "A.java")
	if err := os.WriteFile(noMethod, []byte("class A { void f() {} }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		set   func(o *runOptions)
		want  string
		usage bool
	}{
		{"prompt in java", func(o *runOptions) { o.prompt, o.signature, o.lang = "x", "int f(int x)", "java" }, "needs a stub file", false},
		{"unknown language", func(o *runOptions) { o.spec, o.lang = noMethod, "cobol" }, "use one of python, java", true},
		{"no static method", func(o *runOptions) { o.spec = noMethod }, "declares no static method", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := runDefaults(t)
			o.flags.model = "vllm:m@http://127.0.0.1:1"
			c.set(o)
			o.promptSet, o.signatureSet = o.prompt != "", o.signature != ""
			err := runRun(context.Background(), runGlobals(t), o, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
			var ue usageError
			if err == nil || !strings.Contains(err.Error(), c.want) || errors.As(err, &ue) != c.usage {
				t.Errorf("run: %v; want an error saying %q (usage error: %v)", err, c.want, c.usage)
			}
		})
	}
}
