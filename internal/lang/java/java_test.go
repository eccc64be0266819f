package java

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

func TestEmit(t *testing.T) {
	cases := []struct {
		lit, typ, want string
	}{
		{"8", "int", "8"},
		{"-3", "int", "(-3)"},
		{"8", "Double", "8.0"},
		{"2.5", "double", "2.5"},
		{"8", "long", "8L"},
		{"true", "Boolean", "true"},
		{`"a\"b"`, "String", `"a\"b"`},
		{`'x'`, "char", `'x'`},
		{"[[1, 2], [3]]", "List<List<Integer>>", "Arrays.<List<Integer>>asList(Arrays.<Integer>asList(1, 2), Arrays.<Integer>asList(3))"},
		{"[1, 2]", "List<Double>", "Arrays.<Double>asList(1.0, 2.0)"},
		{"[1, 2]", "int[]", "new int[] {1, 2}"},
		{"[]", "ArrayList<Integer>", "new ArrayList<Integer>(Arrays.<Integer>asList())"},
		{`{"a": 1}`, "HashMap<String, Integer>", `new HashMap<String, Integer>() {{ put("a", 1); }}`},
		{"{[4, 5]}", "HashSet<List<Integer>>", "new HashSet<List<Integer>>(Arrays.<List<Integer>>asList(Arrays.<Integer>asList(4, 5)))"},
		{`[19, "red", 1.5]`, "List<Object>", `Arrays.<Object>asList(19, "red", 1.5)`},
		{"(1, 2)", "List<Integer>", "Arrays.<Integer>asList(1, 2)"},
		{"null", "String", "null"},
		{"\"a\\nb\"", "String", `"a\nb"`},
	}
	for _, c := range cases {
		v, err := ParseValue(c.lit)
		if err != nil {
			t.Fatalf("ParseValue(%s): %v", c.lit, err)
		}
		typ, err := ParseType(c.typ)
		if err != nil {
			t.Fatalf("ParseType(%s): %v", c.typ, err)
		}
		got, err := Emit(v, typ)
		if err != nil || got != c.want {
			t.Errorf("Emit(%s, %s) = %q, %v; want %q", c.lit, c.typ, got, err, c.want)
		}
	}
	for _, c := range []struct{ lit, typ string }{{"1.5", "int"}, {`"a"`, "int"}, {"null", "int"}, {"[1]", "String"}, {"99999999999", "int"}} {
		v, _ := ParseValue(c.lit)
		typ, _ := ParseType(c.typ)
		if got, err := Emit(v, typ); err == nil {
			t.Errorf("Emit(%s, %s) = %q, want an error", c.lit, c.typ, got)
		}
	}
}

func TestExamples(t *testing.T) {
	prompt := "class MinCost {\n    /**\n     * * Find it.\n     *\n     * > minCost([[1, 2, 3], [4, 8, 2]], 2, 2)\n     * 8\n" +
		"     * > minCost([[2]], \"x\", 2)\n     * 1\n     */\n    public static int minCost(List<List<Integer>> cost, int m, int n) {\n"
	got := Java{}.Examples(prompt, "minCost")
	if len(got) != 1 {
		t.Fatalf("examples: %+v, want the one that fits the signature", got)
	}
	want := "MinCost.minCost(Arrays.<List<Integer>>asList(Arrays.<Integer>asList(1, 2, 3), Arrays.<Integer>asList(4, 8, 2)), 2, 2)"
	if got[0].Call != want || got[0].Expected != "8" {
		t.Errorf("example: %+v, want call %s and 8", got[0], want)
	}
}

func FuzzParseValue(f *testing.F) {
	for _, s := range []string{"[1, [2, 3]]", `{"a": [1.5e3, null]}`, "{1, 2}", "('a', True)", "-", "[", `"\`, "{1: 2, 3}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseValue(s)
		if err != nil {
			return
		}
		_, _ = Emit(v, Type{Name: "Object"})
		_, _ = ParseArgs(s)
	})
}

func FuzzParseType(f *testing.F) {
	for _, s := range []string{"List<List<Integer>>", "int[][]", "Map<String, ? extends Number>", "<", "A<B<C>", "int..."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if typ, err := ParseType(s); err == nil {
			_ = typ.String()
		}
	})
}

// TestMBJPExamplesRunOnReferences turns every MBJP prompt's examples into
// value tests and runs them on the canonical solutions in the JVM worker:
// the reference passes its own examples.
func TestMBJPExamplesRunOnReferences(t *testing.T) {
	dir := testutil.FullData(t, "mbjp/mbjp_release_v1.2.jsonl")
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK")
	}
	f, err := os.Open(filepath.Join(dir, "mbjp", "mbjp_release_v1.2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pool, err := jvm.NewPool(context.Background(), execute.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	rows, withExamples, passed, total := 0, 0, 0, 0
	var failed []string
	for sc.Scan() {
		var r struct {
			TaskID    string  `json:"task_id"`
			Prompt    string  `json:"prompt"`
			Entry     string  `json:"entry_point"`
			Canonical *string `json:"canonical_solution"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows++
		if r.Canonical == nil || rows%4 != 0 { // a quarter of the rows keeps the test short
			continue
		}
		exs := Java{}.Examples(r.Prompt, r.Entry)
		if len(exs) == 0 {
			continue
		}
		withExamples++
		var tests []execute.Test
		for _, e := range exs {
			tests = append(tests, Java{}.ValueTest(e.Call, e.Expected))
		}
		m, err := pool.Run(context.Background(), execute.Job{Programs: []string{Java{}.Program(r.Prompt, *r.Canonical)}, Tests: tests, TimePolicy: execute.Within(5 * time.Second)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j, res := range m.Results[0] {
			total++
			if res.Outcome == execute.Pass {
				passed++
			} else if len(failed) < 10 {
				failed = append(failed, r.TaskID+": "+tests[j].Input+" = "+res.Value+" "+res.Exception)
			}
		}
	}
	t.Logf("%d of %d examples of %d problems pass on the reference; first failures: %q", passed, total, withExamples, failed)
	if total == 0 || float64(passed) < 0.9*float64(total) {
		t.Errorf("%d of %d examples pass on the reference, want at least 90%%", passed, total)
	}
}
