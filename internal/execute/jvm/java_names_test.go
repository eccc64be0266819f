package jvm

import (
	"context"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
)

// mbjpStyleTest is MBJP's test class (its compare helper made the worker's
// Values.equal, as dataset does) checking that call equals want.
func mbjpStyleTest(call, want string) execute.Test {
	return execute.Test{Code: `class Main {
    public static boolean compare(Object obj1, Object obj2) {
        if (obj1 == null && obj2 == null) { return true; } else if (obj1 == null || obj2 == null) { return false; } else {
            return ticoder.values.Values.equal(obj1, obj2);
        }
    }
    public static void main(String[] args) throws Exception {
        Object x0 = ` + call + `;
        Object v0 = ` + want + `;
        if (!(compare(x0, v0))) { throw new java.lang.Exception("Exception -- test case 0 did not pass."); }
    }
}
`}
}

// mbjpImports are the imports of MBJP's prompts.
const mbjpImports = "import java.io.*;\nimport java.lang.*;\nimport java.util.*;\nimport java.math.*;\n\n"

// TestJavaProgramNames: a program's own types, whatever they are named,
// never change what the tests' names mean. A wrong F.f() (it returns an
// empty collection) declares types named like a package the tests name
// (ticoder, java) or like a type of java.lang or java.util they use; every
// test of it must still fail. The same names as helpers of a right program
// are no obstacle: the tests see the class they call.
func TestJavaProgramNames(t *testing.T) {
	p := newTestJavaPool(t)
	const wrongList = "\nclass F {\n    static java.util.List<Integer> f() { return new java.util.ArrayList<>(); }\n}\n"
	cases := []struct {
		name    string
		program string
		tests   []execute.Test
		// want is every test's outcome: Fail (the default; the tests
		// compile and see the JDK's types), or Error where the program
		// declares a class the tests declare.
		want execute.Outcome
	}{
		{
			name: "a class ticoder obscures the package ticoder.values",
			program: `class ticoder { static class values { static class Values {
    static boolean equal(Object a, Object b) { return true; }
    static boolean sameValue(Object a, Object b) { return true; }
} } }` + wrongList,
			tests: []execute.Test{mbjpStyleTest("F.f()", "java.util.List.of(1, 2, 3)")},
		},
		{
			name: "a class java obscures the package java",
			program: `import java.util.*;

class java { static class util {
    static class Arrays { static Object asList(Object... a) { return new ArrayList<Integer>(); } }
    static class List { static Object of(Object... a) { return new ArrayList<Integer>(); } }
} }
class F {
    static Object f() { return new ArrayList<Integer>(); }
}
`,
			tests: []execute.Test{
				{Input: "F.f()", Expected: "java.util.Arrays.asList(1, 2, 3)"},
				mbjpStyleTest("F.f()", "java.util.List.of(1, 2, 3)"),
			},
		},
		{
			name:    "a class Arrays",
			program: `class Arrays { @SafeVarargs static <T> java.util.List<T> asList(T... a) { return new java.util.ArrayList<>(); } }` + wrongList,
			tests: []execute.Test{
				{Input: "F.f()", Expected: "Arrays.<Integer>asList(1, 2, 3)"},
				{Input: "F.f()", Expected: "new ArrayList<Integer>(Arrays.<Integer>asList(1, 2, 3))"},
				mbjpStyleTest("F.f()", "Arrays.asList(1, 2, 3)"),
			},
		},
		{
			name:    "a class List",
			program: `class List { static java.util.List<Integer> of(Object... a) { return new java.util.ArrayList<>(); } }` + wrongList,
			tests: []execute.Test{
				{Input: "F.f()", Expected: "List.of(1, 2, 3)"},
				mbjpStyleTest("F.f()", "List.of(1, 2, 3)"),
			},
		},
		{
			name: "a class HashSet",
			program: `import java.util.*;

class HashSet<T> extends java.util.HashSet<T> { HashSet(java.util.Collection<T> c) { } }
class F {
    static java.util.Set<Integer> f() { return new java.util.HashSet<>(); }
}
`,
			tests: []execute.Test{
				{Input: "F.f()", Expected: "new HashSet<Integer>(Arrays.<Integer>asList(1, 2))"},
				mbjpStyleTest("F.f()", "new HashSet<Integer>(Arrays.asList(1, 2))"),
			},
		},
		{
			name: "a class HashMap",
			program: `class HashMap<K, V> extends java.util.HashMap<K, V> { public V put(K k, V v) { return null; } }
class F {
    static java.util.Map<String, Integer> f() { return new java.util.HashMap<>(); }
}
`,
			tests: []execute.Test{
				{Input: "F.f()", Expected: `new HashMap<String, Integer>() {{ put("a", 1); }}`},
				mbjpStyleTest("F.f()", `new HashMap<String, Integer>() {{ put("a", 1); }}`),
			},
		},
		{
			name: "a class Objects",
			program: `class Objects { static boolean equals(Object a, Object b) { return true; } }
class F {
    static int f() { return 2; }
}
`,
			tests: []execute.Test{
				{Code: "class Main { public static void main(String[] a) throws Exception { if (!Objects.equals(F.f(), 3)) throw new Exception(\"no\"); } }"},
			},
		},
		{
			name:    "a class Main of its own",
			program: "class Main { public static void main(String[] args) { } }" + wrongList,
			tests:   []execute.Test{mbjpStyleTest("F.f()", "java.util.List.of(1, 2, 3)")},
			want:    execute.Error,
		},
		{
			name:    "a class with the name of the value tests' class",
			program: "final class TicoderCalls__ { static Object c0() { return 1; } static Object e0() { return 1; } }" + wrongList,
			tests:   []execute.Test{{Input: "F.f()", Expected: "Arrays.asList(1, 2, 3)"}},
			want:    execute.Error,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// With MBJP's imports, the worker could compile the program and
			// the tests as one unit, were it not for the program's types.
			m, err := p.Run(context.Background(), execute.Job{Programs: []string{c.program, mbjpImports + c.program}, Tests: c.tests, TimePolicy: execute.Within(5 * time.Second)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			if want == execute.Pass {
				want = execute.Fail
			}
			for j, r := range append(m.Results[0], m.Results[1]...) {
				if r.Outcome == execute.Pass {
					t.Errorf("test %d passed the wrong program (value %s): its types renamed the test's names", j, r.Value)
				} else if r.Outcome != want {
					t.Errorf("test %d: %v (%s), want %v", j, r.Outcome, r.Exception, want)
				}
			}
		})
	}
}

// TestJavaProgramNamesRightProgram: a right program whose helper types
// are named like JDK types (hidden from the tests) still passes.
func TestJavaProgramNamesRightProgram(t *testing.T) {
	p := newTestJavaPool(t)
	prog := `import java.util.*;

class Stack {
    private final ArrayDeque<Integer> items = new ArrayDeque<>();
    void push(int x) { items.push(x); }
    int pop() { return items.pop(); }
}
class Arrays { static int three() { return 3; } }
class Rev {
    static List<Integer> rev(List<Integer> xs) {
        Stack s = new Stack();
        for (int x : xs) s.push(x);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < xs.size() && Arrays.three() == 3; i++) out.add(s.pop());
        return out;
    }
}
`
	tests := []execute.Test{
		{Input: "Rev.rev(Arrays.<Integer>asList(1, 2, 3))", Expected: "Arrays.<Integer>asList(3, 2, 1)"},
		mbjpStyleTest("Rev.rev(Arrays.asList(1, 2))", "Arrays.asList(2, 1)"),
	}
	m, err := p.Run(context.Background(), execute.Job{Programs: []string{prog, mbjpImports + prog}, Tests: tests, TimePolicy: execute.Within(5 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j, r := range append(m.Results[0], m.Results[1]...) {
		if r.Outcome != execute.Pass {
			t.Errorf("test %d: %v (%s, value %s), want pass", j, r.Outcome, r.Exception, r.Value)
		}
	}
}

// TestJavaTestImports: tests import java.io, java.lang, java.util and
// java.math whatever the program imports, and the program sees only its
// own imports.
func TestJavaTestImports(t *testing.T) {
	p := newTestJavaPool(t)
	progs := []string{
		"class B {\n    static Object two() { return 2; }\n}\n",
		"import java.util.*;\n\nclass B {\n    static Object two() { return new ArrayList<Integer>(List.of(2)).get(0); }\n}\n",
		"class B {\n    static Object two() { return new BigInteger(\"2\"); }\n}\n", // java.math is not imported
	}
	tests := []execute.Test{
		{Input: "B.two()", Expected: "BigInteger.valueOf(2).intValue()"},
		{Input: "B.two()", Expected: "Arrays.asList(2).get(0)"},
		mbjpStyleTest("B.two()", "new BigDecimal(\"2\").intValue()"),
	}
	m, err := p.Run(context.Background(), execute.Job{Programs: progs, Tests: tests, TimePolicy: execute.Within(5 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range m.Results {
		for j, r := range row {
			want := execute.Pass
			if i == 2 {
				want = execute.Error
			}
			if r.Outcome != want {
				t.Errorf("program %d, test %d: %v (%s), want %v", i, j, r.Outcome, r.Exception, want)
			}
		}
	}
}
