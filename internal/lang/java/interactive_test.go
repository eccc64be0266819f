package java

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
)

const minCostStub = `import java.util.*;

class MinCost {
    /**
     * Write a function to find the minimum cost path to reach (m, n) from
     * (0, 0) for the given cost matrix.
     * > minCost([[1, 2], [3, 4]], 1, 1)
     * 7
     */
    public static int minCost(int[][] cost, int m, int n) {
        // write the code
    }
}
`

const listStub = `class Evens {
    /** The even numbers of xs, in order. */
    static List<Integer> evens(int[] xs) {
    }

    static double[] halves(int[] xs) {
        return null;
    }
}
`

func TestParseStub(t *testing.T) {
	st, err := Java{}.ParseStub(context.Background(), nil, "Stub.java", minCostStub)
	if err != nil {
		t.Fatal(err)
	}
	if st.EntryPoint != "minCost" || st.Signature != "public static int minCost(int[][] cost, int m, int n)" ||
		!strings.HasPrefix(st.Docstring, "Write a function to find") || !strings.Contains(st.Docstring, "> minCost([[1, 2], [3, 4]], 1, 1)\n7") ||
		st.Context != "import java.util.*;\n\nclass MinCost {\n    " {
		t.Errorf("ParseStub = %+v", st)
	}
	st, err = Java{}.ParseStub(context.Background(), nil, "s", listStub)
	if err != nil || st.EntryPoint != "halves" || st.Docstring != "" {
		t.Errorf("last static method: %+v, %v", st, err)
	}
	for _, bad := range []string{"", "int x;", "class A { void f() {} }", "class A { static void main(String[] a) {} }",
		"class Stack { static int f(int x) { return x; } }", "class java { static int f(int x) { return x; } }"} {
		if _, err := (Java{}).ParseStub(context.Background(), nil, "s", bad); !errors.Is(err, ErrBadStub) {
			t.Errorf("ParseStub(%q) = %v, want ErrBadStub", bad, err)
		}
	}
}

func TestReadValueForms(t *testing.T) {
	cases := []struct {
		stub, entry, in, want string
	}{
		{minCostStub, "minCost", "7", "7"},
		{minCostStub, "minCost", " (int) 7 ", "7"},
		{minCostStub, "minCost", "-3", "(-3)"},
		{listStub, "evens", "[2, 4]", "Arrays.<Integer>asList(2, 4)"},
		{listStub, "evens", "List.of(2, 4)", "Arrays.<Integer>asList(2, 4)"},
		{listStub, "evens", "java.util.Arrays.asList(2, 4)", "Arrays.<Integer>asList(2, 4)"},
		{listStub, "evens", "new ArrayList<>(List.of())", "Arrays.<Integer>asList()"},
		{listStub, "halves", "new double[] {1, 2.5}", "new double[] {1.0, 2.5}"},
		{listStub, "halves", "{1.5f, 2d}", "new double[] {1.5, 2.0}"},
		{listStub, "halves", "null", "null"},
		{listStub, "halves", "new double[] {(-5), (-2.5)}", "new double[] {(-5.0), (-2.5)}"},
		{listStub, "evens", "(1, 2)", "Arrays.<Integer>asList(1, 2)"},
	}
	for _, c := range cases {
		got, err := Java{}.ReadValue(context.Background(), nil, c.stub, c.entry, c.in)
		if err != nil || got != c.want {
			t.Errorf("ReadValue(%s, %q) = %q, %v; want %q", c.entry, c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "minCost(null, 1, 1)", "System.exit(1)", "1 + 2", "new Object()", "\"abc\"", "[1, 2]", "x"} {
		if got, err := (Java{}).ReadValue(context.Background(), nil, minCostStub, "minCost", bad); err == nil {
			t.Errorf("ReadValue(%q) = %q, want an error", bad, got)
		}
	}
}

// TestShowValue: values are shown as people read them, never as the
// expressions tests compare with, and what is shown reads back as the same
// expression.
func TestShowValue(t *testing.T) {
	j := Java{}
	const valuesStub = `class V {
    static int[] ints(int x) { return null; }
    static long big(int x) { return 0; }
    static short small(int x) { return 0; }
    static List<String> words(int x) { return null; }
    static Set<Integer> set(int x) { return null; }
    static Map<String, int[]> map(int x) { return null; }
    static char letter(int x) { return 'a'; }
    static Object any(int x) { return null; }
}
`
	for _, tc := range []struct {
		stub, entry, value, want string
	}{
		{minCostStub, "minCost", "7", "7"},
		{minCostStub, "minCost", "(-3)", "-3"},
		{listStub, "halves", "[0.5, 1.0]", "[0.5, 1.0]"},
		{listStub, "halves", "new double[] {(-5), (-2.5)}", "[-5.0, -2.5]"},
		{listStub, "evens", "Arrays.<Integer>asList(-2, 4)", "[-2, 4]"},
		{valuesStub, "ints", "new int[] {(-5), (-2), 1, 3}", "[-5, -2, 1, 3]"},
		{valuesStub, "ints", "new int[] {}", "[]"},
		{valuesStub, "ints", "null", "null"},
		{valuesStub, "big", "(-3L)", "-3"},
		{valuesStub, "small", "(short) 3", "3"},
		{valuesStub, "words", `Arrays.<String>asList("a \"b\"", "")`, `["a \"b\"", ""]`},
		{valuesStub, "set", "new HashSet<Integer>(Arrays.<Integer>asList(1, 2))", "[1, 2]"},
		{valuesStub, "map", `{"a"=[1, -2]}`, `{"a"=[1, -2]}`},
		{valuesStub, "map", `Map.of()`, `{}`},
		{valuesStub, "letter", `'x'`, `'x'`},
		{valuesStub, "any", `[1, "a", 2.5]`, `[1, "a", 2.5]`},
		{listStub, "evens", "not a value", "not a value"},
		{listStub, "evens", "\"a string\"", "\"a string\""},
	} {
		t.Run(tc.entry+" "+tc.value, func(t *testing.T) {
			got := j.ShowValue(tc.stub, tc.entry, tc.value)
			if got != tc.want {
				t.Fatalf("ShowValue(%s, %s) = %s, want %s", tc.entry, tc.value, got, tc.want)
			}
			want, err := j.ReadValue(context.Background(), nil, tc.stub, tc.entry, tc.value)
			if err != nil {
				return // shown as given
			}
			if back, err := j.ReadValue(context.Background(), nil, tc.stub, tc.entry, got); err != nil || back != want {
				t.Errorf("ReadValue(%s) = %s, %v; want %s, the expression of %s", got, back, err, want, tc.value)
			}
		})
	}
	if got := j.Question("MinCost.minCost(new int[][] {new int[] {1, 2}, new int[] {3, 4}}, 1, 1)", "7"); got != "MinCost.minCost(new int[][] {new int[] {1, 2}, new int[] {3, 4}}, 1, 1) == 7 ?" {
		t.Errorf("Question = %q", got)
	}
}

func FuzzReadValue(f *testing.F) {
	for _, s := range []string{"7", "new int[][] {{1}, {2}}", "Map.of(\"a\", 1)", "{1=2}", "(long) -3L", "[1, (2, 3)]", "new HashMap<>(Map.of())", "((("} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ReadValue(s)
		if err == nil {
			_, _ = Emit(v, Type{Name: "Object"})
		}
	})
}

const minCostSolution = `import java.util.*;

class MinCost {
    public static int minCost(int[][] cost, int m, int n) {
        int[][] d = new int[m + 1][n + 1];
        for (int i = 0; i <= m; i++)
            for (int j = 0; j <= n; j++) {
                int best = i == 0 && j == 0 ? 0 : Integer.MAX_VALUE;
                if (i > 0) best = Math.min(best, d[i - 1][j]);
                if (j > 0) best = Math.min(best, d[i][j - 1]);
                if (i > 0 && j > 0) best = Math.min(best, d[i - 1][j - 1]);
                d[i][j] = best + cost[i][j];
            }
        return d[m][n];
    }
}
`

// TestExportJUnitRuns exports approved tests of minCost as a JUnit 5 class
// and runs it with Debian's JUnit 5 in the sandbox: it compiles and passes
// against the right program and fails against a wrong one.
func TestExportJUnitRuns(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	if _, err := jvm.JUnitJar(); err != nil {
		if os.Getenv("TICODER_REQUIRE_JUNIT") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	pool, err := jvm.NewPool(context.Background(), execute.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	j := Java{}
	approved := []execute.Test{
		j.ValueTest("MinCost.minCost(new int[][] {new int[] {1, 2}, new int[] {3, 4}}, 1, 1)", "5"),
		{Input: "MinCost.minCost(new int[][] {new int[] {5}}, 0, 0)", Expected: "5"},
	}
	rejected := []execute.Test{{Input: "MinCost.minCost(new int[][] {new int[] {5}}, 0, 0)", Expected: "6"}}
	f, err := j.Export(minCostStub, "minCost", minCostSolution, approved, rejected)
	if err != nil {
		t.Fatal(err)
	}
	if f.CodeFile != "MinCost.java" || f.TestFile != "MinCostTest.java" || f.TestCount != 2 ||
		!strings.Contains(f.Tests, "assertEquals(5, MinCost.minCost(") || !strings.Contains(f.Tests, "//   MinCost.minCost(new int[][] {new int[] {5}}, 0, 0) == 6 ?") {
		t.Fatalf("export:\n%s", f.Tests)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	fails, err := j.CheckExport(ctx, pool, f)
	if err != nil || len(fails) != 0 {
		t.Fatalf("the exported JUnit class against the right program: %v, %v\n%s", fails, err, f.Tests)
	}
	f.Code = strings.Replace(f.Code, "return d[m][n];", "return d[m][n] + 1;", 1)
	fails, err = j.CheckExport(ctx, pool, f)
	if err != nil || len(fails) != 2 {
		t.Fatalf("against a wrong program: %v, %v; want 2 failures", fails, err)
	}
	f.Tests = strings.Replace(f.Tests, "assertEquals(5", "assertEquals(\"5\"", 1) + "}"
	fails, err = j.CheckExport(ctx, pool, f)
	if err != nil || len(fails) != 1 || !strings.Contains(fails[0], "do not compile") {
		t.Fatalf("a test class that does not compile: %v, %v", fails, err)
	}
}

func TestExtractTests(t *testing.T) {
	reply := "Here they are:\n```java\n" +
		"assertEquals(8, minCost(new int[][] {{1, 2, 3}, {4, 8, 2}, {1, 5, 3}}, 2, 2));\n" +
		"Assertions.assertEquals(5, MinCost.minCost(new int[][]{{1, 2}, {3, 4}}, 1, 1), \"diag\");\n" +
		"assertEquals(8, minCost(new int[][] {{1, 2, 3}, {4, 8, 2}, {1, 5, 3}}, 2, 2));\n" +
		"assertTrue(minCost(new int[][] {{0}}, 0, 0) == 0);\n" +
		"assertEquals(\"a,b)\", other(1));\n" +
		"assertEquals(1, minCost(new int[][] {{1}}, 0, 0);\n" +
		"assertArrayEquals(new int[] {1}, minCost(x));\n" +
		"```\n"
	got := Java{}.ExtractTests(minCostStub, "minCost", reply)
	want := []execute.Test{
		Java{}.ValueTest("MinCost.minCost(new int[][] {{1, 2, 3}, {4, 8, 2}, {1, 5, 3}}, 2, 2)", "8"),
		Java{}.ValueTest("MinCost.minCost(new int[][]{{1, 2}, {3, 4}}, 1, 1)", "5"),
		Java{}.ValueTest("MinCost.minCost(new int[][] {{0}}, 0, 0) == 0", "true"),
		Java{}.ValueTest("MinCost.minCost(x)", "new int[] {1}"),
	}
	if len(got) != len(want) {
		t.Fatalf("ExtractTests = %d tests %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("test %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func FuzzExtractTests(f *testing.F) {
	for _, s := range []string{"assertEquals(1, f(2));", "assertTrue(f(\"a)\"));", "assertEquals(f((", "```java\nassertFalse(f('x'))\n```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, tc := range (Java{}).ExtractTests("class A { static int f(int x) {} }", "f", s) {
			if !strings.HasPrefix(tc.Input, "A.f(") || tc.Expected == "" {
				t.Errorf("bad test %+v", tc)
			}
		}
	})
}

// TestCheckExportForgery: a program that prints the launcher's verdict
// lines itself, rewrites System.out and forces exit status 0 cannot pass
// the check.
func TestCheckExportForgery(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	if _, err := jvm.JUnitJar(); err != nil {
		t.Skip(err)
	}
	pool, err := jvm.NewPool(context.Background(), execute.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	forger := `import java.io.*;

class MinCost {
    static {
        // Rewrite what main prints, and leave with status 0.
        PrintStream real = System.out;
        System.setOut(new PrintStream(new OutputStream() {
            StringBuilder line = new StringBuilder();
            public void write(int b) {
                if (b != '\n') { line.append((char) b); return; }
                String s = line.toString().replaceAll(" 0 1$", " 1 0");
                line.setLength(0);
                if (!s.startsWith("TICODER-FAIL")) real.println(s);
            }
        }, true));
        System.out.println("TICODER-DONE " + System.getProperty("sun.java.command") + " 1 0");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> Runtime.getRuntime().halt(0)));
    }
    public static int minCost(int[][] cost, int m, int n) { return -1; }
}
`
	f, err := Java{}.Export(minCostStub, "minCost", forger, []execute.Test{{Input: "MinCost.minCost(new int[][] {new int[] {5}}, 0, 0)", Expected: "5"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fails, err := Java{}.CheckExport(context.Background(), pool, f)
	if err != nil || len(fails) != 1 || !strings.HasPrefix(fails[0], "minCost1()") {
		t.Fatalf("a forging program's check: %v, %v; want its one test to fail", fails, err)
	}
}
