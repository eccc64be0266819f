package java

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
)

// namesPrompt is a stub whose methods return a list, a set and a map.
const namesPrompt = `import java.util.*;

class F {
    /** Returns 1..n. */
    public static List<Integer> l(int n) {
    }
    /** Returns {1..n}. */
    public static Set<Integer> s(int n) {
    }
    /** Counts of "a". */
    public static Map<String, Integer> m(int n) {
    }
}
`

// namesForger is a wrong F (empty results) whose types named like the
// java.util types the expected values are built from make those values
// empty too, in a file compiled beside the tests.
const namesForger = `class F {
    public static java.util.List<Integer> l(int n) { return new java.util.ArrayList<>(); }
    public static java.util.Set<Integer> s(int n) { return new java.util.HashSet<>(); }
    public static java.util.Map<String, Integer> m(int n) { return new java.util.HashMap<>(); }
}
class Arrays { @SafeVarargs static <T> java.util.List<T> asList(T... a) { return new java.util.ArrayList<>(); } }
class HashSet<T> extends java.util.HashSet<T> { HashSet(java.util.Collection<T> c) { } }
class HashMap<K, V> extends java.util.HashMap<K, V> { public V put(K k, V v) { return null; } }
class List { }
`

// namesRight is a right F with helper types named like java.util's.
const namesRight = `class F {
    public static java.util.List<Integer> l(int n) { return Arrays.upTo(n); }
    public static java.util.Set<Integer> s(int n) { return new java.util.HashSet<>(Arrays.upTo(n)); }
    public static java.util.Map<String, Integer> m(int n) { return new HashMap().count(n); }
}
class Arrays {
    static java.util.List<Integer> upTo(int n) {
        java.util.List<Integer> out = new java.util.ArrayList<>();
        for (int i = 1; i <= n; i++) out.add(i);
        return out;
    }
}
class HashMap { java.util.Map<String, Integer> count(int n) { return java.util.Map.of("a", n); } }
class HashSet { }
`

// namesExports exports one approved test of each method of namesPrompt.
func namesExports(t *testing.T, program string) []string {
	t.Helper()
	j := Java{}
	var out []string
	for _, e := range []struct{ entry, answer, imp string }{
		{"l", "[1, 2]", "java.util.Arrays"}, {"s", "{1, 2}", "java.util.HashSet"}, {"m", `{"a": 2}`, "java.util.HashMap"},
	} {
		expected, err := j.ReadValue(context.Background(), nil, namesPrompt, e.entry, e.answer)
		if err != nil {
			t.Fatal(err)
		}
		f, err := j.Export(namesPrompt, e.entry, program, []execute.Test{j.ValueTest("F."+e.entry+"(2)", expected)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if f.TestCount != 1 || strings.Contains(f.Tests, ".*;") || !strings.Contains(f.Tests, "import "+e.imp+";") {
			t.Fatalf("export of %s: want one test, single-type imports only, %s among them:\n%s", e.entry, e.imp, f.Tests)
		}
		out = append(out, f.Tests)
	}
	return out
}

// junitOrSkip returns JUnit's console launcher, or skips (fails with
// TICODER_REQUIRE_JUNIT=1) where there is none or no JDK.
func junitOrSkip(t *testing.T) string {
	t.Helper()
	_, errJ := exec.LookPath("javac")
	jar, err := jvm.JUnitJar()
	if errJ != nil || err != nil {
		if os.Getenv("TICODER_REQUIRE_JUNIT") == "1" {
			t.Fatalf("TICODER_REQUIRE_JUNIT=1 but no JDK or JUnit: %v %v", errJ, err)
		}
		t.Skip("no JDK or no JUnit 5 (install openjdk-17-jdk-headless and junit5)")
	}
	return jar
}

// TestExportProgramNamesJUnit builds the exported test classes with the
// program as a user would (javac with JUnit, then JUnit's console
// launcher): a wrong program whose types are named like the java.util
// types of the expected values fails every test, and a right one whose
// helpers are so named passes them.
func TestExportProgramNamesJUnit(t *testing.T) {
	jar := junitOrSkip(t)
	for _, c := range []struct {
		name, program string
		pass          bool
	}{{"wrong program with types named like java.util's", namesForger, false}, {"right program with helpers so named", namesRight, true}} {
		t.Run(c.name, func(t *testing.T) {
			for i, tests := range namesExports(t, c.program) {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "F.java"), []byte(c.program), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "FTest.java"), []byte(tests), 0o644); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				build := exec.CommandContext(ctx, "javac", "-encoding", "UTF-8", "-cp", jar, "-d", filepath.Join(dir, "out"), "F.java", "FTest.java")
				build.Dir = dir
				if out, err := build.CombinedOutput(); err != nil {
					t.Fatalf("export %d does not compile with the program: %v\n%s\n%s", i, err, out, tests)
				}
				run := exec.CommandContext(ctx, "java", "-jar", jar, "-cp", filepath.Join(dir, "out"), "--select-class", "FTest",
					"--disable-banner", "--fail-if-no-tests", "--details=summary")
				out, err := run.CombinedOutput()
				code := run.ProcessState.ExitCode()
				if c.pass && (err != nil || !strings.Contains(string(out), "1 tests successful")) {
					t.Errorf("export %d: JUnit exit %d, want its test to pass:\n%s\n%s", i, code, out, tests)
				}
				if !c.pass && (code != 1 || !strings.Contains(string(out), "1 tests failed")) {
					t.Errorf("export %d: JUnit exit %d, want its test to fail:\n%s\n%s", i, code, out, tests)
				}
			}
		})
	}
}

// checkForger is a wrong F whose classes java and System are what an
// exported test's check would use to read its nonce, print its verdict
// and exit, were it compiled with the program: it lets the verdict line
// through with every test passed and drops the failures.
const checkForger = `import java.util.*;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;

class F {
    public static List<Integer> l(int n) { return new ArrayList<>(); }
}
class java { static class io {
    static class InputStreamReader { InputStreamReader(Object in) { } }
    static class IOException extends Exception { }
    static class BufferedReader {
        BufferedReader(Object r) { }
        String readLine() { try { return Real.line(); } catch (Exception e) { return ""; } }
    }
    static class PrintStream { void println(String s) { Real.println(s); } void flush() { } }
} }
class System {
    static final Object in = null;
    static final java.io.PrintStream out = new java.io.PrintStream();
    static void exit(int code) { Runtime.getRuntime().halt(0); }
}
class Real {
    static final PrintStream OUT = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
    static String line() throws IOException { return new BufferedReader(new InputStreamReader(new FileInputStream(FileDescriptor.in))).readLine(); }
    static void println(String s) {
        if (s.startsWith("TICODER-FAIL")) return;
        OUT.println(s.replaceAll(" [0-9]+ [0-9]+$", " 1 0"));
    }
}
`

// TestCheckExportProgramNames: a program's types named like those the
// check of an exported JUnit class uses (java, System; org, which
// obscures JUnit's packages) cannot forge its verdict.
func TestCheckExportProgramNames(t *testing.T) {
	junitOrSkip(t)
	pool, err := jvm.NewPool(context.Background(), execute.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	j := Java{}
	orgForger := strings.Replace(namesForger, "class List { }", `class org { static class junit { static class platform { static class launcher {
    static class listeners { static class SummaryGeneratingListener { } }
} } } }`, 1)
	for _, c := range []struct{ name, program string }{
		{"classes java and System", checkForger},
		{"a class org", orgForger},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := j.Export(namesPrompt, "l", c.program, []execute.Test{j.ValueTest("F.l(2)", "Arrays.<Integer>asList(1, 2)")}, nil)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			fails, err := j.CheckExport(ctx, pool, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(fails) == 0 {
				t.Fatalf("the check passed a wrong program:\n%s\n%s", f.Code, f.Tests)
			}
			t.Logf("failures: %q", fails)
		})
	}
}
