package jvm

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/sandbox"
)

// newTestJavaPool returns a sandboxed Java pool of two JVMs, closed at
// cleanup; it skips where the machine has no JDK.
func newTestJavaPool(t *testing.T) *Pool {
	t.Helper()
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	p, err := NewPool(context.Background(), execute.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

const javaAdd = `import java.util.*;

class Add {
    public static int add(int a, int b) {
        return a + b;
    }
}
`

// mainTest is an MBJP-style test: main throws on the first failing case.
func mainTest(call, want string) execute.Test {
	return execute.Test{Code: "class Main {\n    public static void main(String[] args) throws Exception {\n" +
		"        if (!java.util.Objects.equals(" + call + ", " + want + ")) throw new Exception(\"did not pass\");\n    }\n}\n"}
}

func TestJavaPoolRuns(t *testing.T) {
	p := newTestJavaPool(t)
	tests := []execute.Test{
		mainTest("Add.add(1, 2)", "3"),
		mainTest("Add.add(1, 2)", "4"),
		{Input: "Add.add(2, 2)", Expected: "4"},
		{Input: "Add.add(2, 2)", Expected: "5"},
		{Input: "Add.add(2, 2)"},
		{Input: "1 / (Add.add(1, -1))"},
		{Input: "Add.nope(1)"},
	}
	m, err := p.Run(context.Background(), execute.Job{Programs: []string{javaAdd, "class Add { int x = ; }"}, Tests: tests, TimePolicy: execute.Within(5 * time.Second)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []execute.Outcome{execute.Pass, execute.Fail, execute.Pass, execute.Fail, execute.Pass, execute.Error, execute.Error}
	for j, r := range m.Results[0] {
		if r.Outcome != want[j] {
			t.Errorf("test %d: %v (%s), want %v", j, r.Outcome, r.Exception, want[j])
		}
		t.Logf("test %d: %+v", j, r)
	}
	for j, r := range m.Results[1] {
		if r.Outcome != execute.Error {
			t.Errorf("broken program, test %d: %v, want error", j, r.Outcome)
		}
	}
}

// BenchmarkJavaPrograms measures throughput on MBJP-sized programs: each
// iteration runs 200 distinct programs (a class with a static method and
// MBJP's test class, three cases) on two JVMs, one test each.
func BenchmarkJavaPrograms(b *testing.B) {
	if _, err := exec.LookPath("javac"); err != nil {
		b.Skip("no JDK")
	}
	p, err := NewPool(context.Background(), execute.Options{Workers: 2})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	test := execute.Test{Code: `class Main {
    public static void main(String[] args) throws Exception {
        for (int k = 0; k < 3; k++) {
            List<Integer> x = Sum.f(Arrays.asList(k, k + 1, k + 2));
            if (!ticoder.values.Values.equal(x, Arrays.asList(k, 2 * k + 1, 3 * k + 3))) throw new Exception("case " + k);
        }
    }
}
`}
	round := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		progs := make([]string, 200)
		for j := range progs {
			progs[j] = fmt.Sprintf(`import java.util.*;

class Sum {
    /** Running sums (variant %d). */
    public static List<Integer> f(List<Integer> xs) {
        List<Integer> out = new ArrayList<>();
        int s = 0;
        for (int x : xs) {
            s += x;
            out.add(s);
        }
        return out;
    }
}
`, round)
			round++
		}
		m, err := p.Run(context.Background(), execute.Job{Programs: progs, Tests: []execute.Test{test}, TimePolicy: execute.Within(10 * time.Second)}, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, row := range m.Results {
			if row[0].Outcome != execute.Pass {
				b.Fatalf("%v %s", row[0].Outcome, row[0].Exception)
			}
		}
	}
	b.ReportMetric(float64(200*b.N)/b.Elapsed().Seconds(), "programs/s")
}

// TestWorkerJarWithoutLocale compiles the JVM worker with no LANG or LC_*
// in the environment (as under env -i): its UTF-8 sources must not be read
// as ASCII.
func TestWorkerJarWithoutLocale(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	home, err := sandbox.JavaHome()
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == "LANG" || name == "LANGUAGE" || strings.HasPrefix(name, "LC_") || name == "JAVA_TOOL_OPTIONS" {
			t.Setenv(name, "") // restored at cleanup
			os.Unsetenv(name)
		}
	}
	names, err := workerSourceNames()
	if err != nil {
		t.Fatal(err)
	}
	nonASCII := false
	for _, n := range names {
		b, _ := jworkerSources.ReadFile(n)
		nonASCII = nonASCII || strings.ContainsFunc(string(b), func(r rune) bool { return r > 0x7f })
	}
	if !nonASCII {
		t.Fatal("the worker's sources are all ASCII: this test would prove nothing")
	}
	jar, err := buildWorkerJar(context.Background(), home, names)
	if err != nil {
		t.Fatalf("compile the worker without a locale: %v", err)
	}
	if len(jar) == 0 {
		t.Fatal("empty jar")
	}
}
