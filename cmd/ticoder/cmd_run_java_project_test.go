package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/execute/jvm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/project/projecttest"
)

// pricingModel is a fake model for the Java fixture's
// com.shop.Pricing.applyDiscount: one right candidate (half-up cents
// through the project's helper Money and the class's MAX_PERCENT), one
// that truncates, one that rounds down (with imports the file lacks), and
// JUnit assertions that tell them apart. onCode, if not nil, runs when the
// candidates are asked for.
func pricingModel(onCode func()) func(c llmtest.Call) llmtest.Reply {
	class := func(imports, body string) string {
		return "```java\npackage com.shop;\n\n" + imports + "public final class Pricing {\n" +
			"    public static long applyDiscount(long cents, int percent) {\n" + body + "    }\n}\n```\n"
	}
	return func(c llmtest.Call) llmtest.Reply {
		text := c.Text()
		switch {
		case strings.Contains(text, "Implement the static method `applyDiscount`"):
			if onCode != nil {
				onCode()
			}
			return llmtest.Reply{Texts: []string{
				class("", "        if (percent < 0 || percent > MAX_PERCENT) {\n"+
					"            throw new IllegalArgumentException(\"percent \" + percent);\n        }\n"+
					"        return Money.roundCents(cents * (100.0 - percent) / 100);\n"),
				class("", "        return cents * (100 - percent) / 100;\n"),
				class("import java.math.BigDecimal;\nimport java.math.RoundingMode;\n\n",
					"        return BigDecimal.valueOf(cents * (100 - percent)).divide(BigDecimal.valueOf(100), RoundingMode.FLOOR).longValue();\n"),
			}}
		case strings.Contains(text, "assertEquals(EXPECTED, applyDiscount(...))"):
			return llmtest.Reply{Texts: []string{"```java\nassertEquals(85L, applyDiscount(100, 15));\n" +
				"assertEquals(3L, applyDiscount(5, 50));\nassertEquals(0L, applyDiscount(0, 10));\n```\n"}}
		}
		return llmtest.Reply{Status: http.StatusBadRequest, ErrorMessage: "unexpected request"}
	}
}

// javaProjectOptions returns run options for Pricing.applyDiscount in fx,
// with the fake model at url.
func javaProjectOptions(t *testing.T, fx projecttest.JavaProject, url string) *runOptions {
	t.Helper()
	o := runDefaults(t)
	o.spec = filepath.Join(fx.Root, "src/main/java/com/shop/Pricing.java") + "::Pricing.applyDiscount"
	o.flags.model = "vllm:m@" + url
	o.flags.questions = "tests"
	return o
}

// needJUnit skips a test without Debian's junit5.
func needJUnit(t *testing.T) {
	t.Helper()
	if _, err := jvm.JUnitJar(); err != nil {
		t.Skip(err)
	}
}

// TestRunJavaProjectOut runs a session on a stub method of the fixture
// Maven project with --out: the candidates compile under the class's
// package with the rest of the class and the project's classes, the
// chosen class, a patch that git apply and patch -p1 apply without fuzz,
// and a JUnit class that passed in the sandbox are written; the project is
// left as it was, and no secret reaches the model, the output or the
// cache.
func TestRunJavaProjectOut(t *testing.T) {
	needJUnit(t)
	fx := projecttest.JavaProjectFixture(t)
	before := listing(t, fx.Root)
	srv := llmtest.New(t, llmtest.Config{Respond: pricingModel(nil)})
	o := javaProjectOptions(t, fx, srv.URL)
	g := runGlobals(t)
	var out, errw bytes.Buffer
	if err := runRun(context.Background(), g, o, strings.NewReader("y\n\n"), &out, &errw); err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out.String(), errw.String())
	}
	all := out.String() + errw.String()
	for _, want := range []string{"candidates run as com.shop.Pricing", "target/classes", "Pricing.patch", "git apply",
		"Pricing.applyDiscount(5, 50)", "Checked in the sandbox: all 1 tests pass"} {
		if !strings.Contains(all, want) && !(strings.HasPrefix(want, "Checked") && strings.Contains(all, "Checked in the sandbox: the test passes")) {
			t.Errorf("output lacks %q:\n%s", want, all)
		}
	}
	code, _ := os.ReadFile(filepath.Join(o.out, "Pricing.java"))
	if !strings.Contains(string(code), "return Money.roundCents(cents * (100.0 - percent) / 100);") ||
		!strings.Contains(string(code), "public static String describe(long cents)") {
		t.Errorf("Pricing.java is not the right candidate in the class:\n%s", code)
	}
	tests, _ := os.ReadFile(filepath.Join(o.out, "PricingGeneratedTest.java"))
	if !strings.HasPrefix(string(tests), "package com.shop;\n") || !strings.Contains(string(tests), "class PricingGeneratedTest {") {
		t.Errorf("PricingGeneratedTest.java:\n%s", tests)
	}
	if got := listing(t, fx.Root); strings.Join(got, "\n") != strings.Join(before, "\n") {
		t.Errorf("the run changed the project's files:\n%v\nwant\n%v", got, before)
	}
	work := t.TempDir()
	if err := exec.Command("cp", "-r", filepath.Join(fx.Root, "src"), filepath.Join(fx.Root, "pom.xml"), work).Run(); err != nil {
		t.Fatal(err)
	}
	for _, apply := range [][]string{{"patch", "-p1", "--dry-run", "-F0", "-i"}, {"git", "apply", "--check"}, {"git", "apply"}} {
		cmd := exec.Command(apply[0], append(apply[1:], filepath.Join(o.out, "Pricing.patch"))...)
		cmd.Dir = work
		if out, err := cmd.CombinedOutput(); err != nil || strings.Contains(string(out), "fuzz") {
			t.Fatalf("%s: %v\n%s", strings.Join(apply, " "), err, out)
		}
	}
	if patched, _ := os.ReadFile(filepath.Join(work, "src/main/java/com/shop/Pricing.java")); !bytes.Equal(patched, code) {
		t.Errorf("the patch does not give Pricing.java:\n%s", patched)
	}
	var prompts []string
	for _, c := range srv.Calls() {
		prompts = append(prompts, string(c.Body))
	}
	cache, _ := os.ReadFile(g.cachePath)
	noSecrets(t, "the model", prompts...)
	noSecrets(t, "the output", all, string(code), string(tests))
	noSecrets(t, "the cache", string(cache))
}

// TestRunJavaProjectWrite runs with --write: the method is replaced in
// place (the rest of the file unchanged), the approved tests become
// src/test/java/com/shop/PricingGeneratedTest.java and pass when run once
// with JUnit in the sandbox. When the file changes while the session
// runs, nothing is written and run fails saying so.
func TestRunJavaProjectWrite(t *testing.T) {
	needJUnit(t)
	fx := projecttest.JavaProjectFixture(t)
	file := filepath.Join(fx.Root, "src/main/java/com/shop/Pricing.java")
	testsFile := filepath.Join(fx.Root, "src/test/java/com/shop/PricingGeneratedTest.java")
	orig, _ := os.ReadFile(file)
	srv := llmtest.New(t, llmtest.Config{Respond: pricingModel(nil)})
	o := javaProjectOptions(t, fx, srv.URL)
	o.write, o.out = true, ""
	var out, errw bytes.Buffer
	if err := runRun(context.Background(), runGlobals(t), o, strings.NewReader("y\n\n"), &out, &errw); err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out.String(), errw.String())
	}
	got, _ := os.ReadFile(file)
	head, _, _ := strings.Cut(string(orig), "        throw new UnsupportedOperationException")
	_, tail, _ := strings.Cut(string(orig), "(\"not written yet\");\n    }")
	if !strings.HasPrefix(string(got), head) || !strings.HasSuffix(string(got), tail) ||
		!strings.Contains(string(got), "return Money.roundCents(cents * (100.0 - percent) / 100);\n    }\n") {
		t.Errorf("the file was not patched in place:\n%s", got)
	}
	tests, err := os.ReadFile(testsFile)
	if err != nil || !strings.Contains(string(tests), "assertEquals(3L, Pricing.applyDiscount(5, 50));") {
		t.Errorf("%s: %v\n%s", testsFile, err, tests)
	}
	if !strings.Contains(out.String(), "with JUnit against the patched class in the sandbox: all pass") {
		t.Errorf("the output does not show the tests' run:\n%s", out.String())
	}
	// The file changes while the next session runs: nothing is written.
	if err := os.WriteFile(file, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(testsFile); err != nil {
		t.Fatal(err)
	}
	changed := append(append([]byte(nil), orig...), "// edited meanwhile\n"...)
	srv2 := llmtest.New(t, llmtest.Config{Respond: pricingModel(func() { _ = os.WriteFile(file, changed, 0o644) })})
	o = javaProjectOptions(t, fx, srv2.URL)
	o.write, o.out = true, ""
	out.Reset()
	err = runRun(context.Background(), runGlobals(t), o, strings.NewReader("y\n\n"), &out, &errw)
	if !errors.Is(err, errFileChanged) || exitCode(err, &bytes.Buffer{}) != exitError {
		t.Errorf("run on a changed file: %v, want errFileChanged and exit 1", err)
	}
	if now, _ := os.ReadFile(file); !bytes.Equal(now, changed) {
		t.Error("the changed file was overwritten")
	}
	if _, err := os.Stat(testsFile); err == nil {
		t.Error("the tests were written although the file changed")
	}
}
