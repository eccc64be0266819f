package dataset

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestReadContracts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plus.jsonl")
	rows := `{"task_id": "HumanEval/1", "contract": "\n    assert n > 0, \"invalid inputs\" # $_CONTRACT_$\n", "plus_input": [[NaN], [Infinity]], "prompt": "def f(n):\r\n", "canonical_solution": "    return n\r\n", "entry_point": "f"}
{"task_id": "HumanEval/2", "contract": "", "plus_input": [[-Infinity]], "prompt": "def g(n):\n", "canonical_solution": "    return -n\n", "entry_point": " g "}
{"task_id": "HumanEval/3", "contract": "", "plus_input": [[-Infinity]], "prompt": "def g(n):\n", "canonical_solution": "", "entry_point": "g"}

`
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := ReadContracts(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.ByID) != 1 || !strings.Contains(c.ByID["HumanEval/1"], "assert n > 0") {
		t.Errorf("ByID = %q, want HumanEval/1's contract only", c.ByID)
	}
	if !strings.HasPrefix(c.Source, "plus.jsonl sha256:") {
		t.Errorf("Source = %q", c.Source)
	}
	want := map[string]Solution{"HumanEval/1": {Program: "def f(n):\n    return n\n", EntryPoint: "f"}, "HumanEval/2": {Program: "def g(n):\n    return -n\n", EntryPoint: "g"}}
	if d := cmp.Diff(want, c.Solutions); d != "" {
		t.Errorf("Solutions (-want +got):\n%s", d)
	}
	ps := []Problem{{ID: "HumanEval/1", EntryPoint: "f"}, {ID: "HumanEval/2", EntryPoint: "h", Solution: "stale"}, {ID: "HumanEval/3", EntryPoint: "g"}}
	c.Attach(ps)
	if ps[0].Contract == "" || ps[1].Contract != "" {
		t.Errorf("Attach: %q, %q", ps[0].Contract, ps[1].Contract)
	}
	// A solution of another function is not one of this problem's.
	c.AttachSolutions(ps)
	if ps[0].Solution != want["HumanEval/1"].Program || ps[1].Solution != "" || ps[2].Solution != "" {
		t.Errorf("AttachSolutions: %q, %q, %q", ps[0].Solution, ps[1].Solution, ps[2].Solution)
	}
	if _, err := ReadContracts(context.Background(), filepath.Join(dir, "none.jsonl")); !IsMissing(err) {
		t.Errorf("missing file: err = %v, want one IsMissing knows", err)
	}
	if c, err := ContractsFor(context.Background(), dir, "mbjp"); c != nil || err != nil {
		t.Errorf("mbjp has no contracts: got %v, %v", c, err)
	}
}

// TestGuarded runs guarded references with Python: they return what the
// reference returns on a valid input, even where the contract assigns to
// a parameter, and raise on an invalid one.
func TestGuarded(t *testing.T) {
	python := "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		t.Skip("needs " + python)
	}
	for _, tc := range []struct {
		name    string
		p       Problem
		calls   string // Python statements run after the guarded program
		placed  bool
		failing string // a call that must raise
	}{{
		name: "assigns to its parameter",
		p: Problem{EntryPoint: "closest", Reference: "def closest(value: str) -> int:\n    \"\"\"Round.\"\"\"\n    return round(float(value))\n",
			Contract: "\n    try: # $_CONTRACT_$\n        assert isinstance(value, str) # $_CONTRACT_$\n        value = float(value) # $_CONTRACT_$\n    except: # $_CONTRACT_$\n        raise Exception(\"invalid inputs\") # $_CONTRACT_$\n"},
		calls: "assert closest('2.4') == 2", placed: true, failing: "closest(2.4)",
	}, {
		name: "comprehension over a parameter, nested in a class, tab-indented",
		p: Problem{EntryPoint: "count", Reference: "import re\nclass K:\n\tdef count(self, s, n):\n\t\treturn len(s) * n\n",
			Contract: "\n        assert all(c.isalpha() for c in s) and n >= 0, \"invalid inputs\"\n        assert re.match('[a-z]*', s)\n"},
		calls: "assert K().count('ab', 2) == 4", placed: true, failing: "K().count('a b', 1)",
	}, {
		name:  "multi-line signature",
		p:     Problem{EntryPoint: "f", Reference: "def f(a,\n      b):  # two\n    return a + b\n", Contract: "    assert b != 0\n"},
		calls: "assert f(1, 2) == 3", placed: true, failing: "f(1, 0)",
	}, {
		name: "body on the def line",
		p:    Problem{EntryPoint: "f", Reference: "def f(a): return a\n", Contract: "    assert a\n"},
	}, {
		name: "no contract",
		p:    Problem{EntryPoint: "f", Reference: "def f(a):\n    return a\n"},
	}, {
		name: "Java",
		p:    Problem{EntryPoint: "f", Reference: "class A {}", Contract: "    assert a\n", Language: Java},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			g, ok := tc.p.Guarded()
			if ok != tc.placed {
				t.Fatalf("Guarded placed = %v, want %v:\n%s", ok, tc.placed, g)
			}
			if !ok {
				return
			}
			prog := g + "\n" + tc.calls + "\ntry:\n    " + tc.failing + "\nexcept ValueError:\n    pass\nelse:\n    raise SystemExit('no ValueError on an invalid input')\n"
			if out, err := exec.Command(python, "-c", prog).CombinedOutput(); err != nil {
				t.Errorf("%v: %s\nprogram:\n%s", err, out, prog)
			}
		})
	}
}

// TestGuardedData checks every contract EvalPlus gives for HumanEval and
// sanitized MBPP is placed, and that the guarded references compile.
func TestGuardedData(t *testing.T) {
	dir := testutil.FullData(t, "humanevalplus/HumanEvalPlus.jsonl.gz", "mbppplus/MbppPlus.jsonl.gz")
	python := "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		t.Skip("needs " + python)
	}
	for _, name := range []string{"humaneval-noexamples", "mbpp-sanitized"} {
		ds, err := Load(context.Background(), dir, name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ContractsFor(context.Background(), dir, name)
		if err != nil {
			t.Fatal(err)
		}
		c.Attach(ds.Problems)
		var src strings.Builder
		n := 0
		for _, p := range ds.Problems {
			if p.Contract == "" {
				continue
			}
			g, ok := p.Guarded()
			if !ok {
				t.Logf("%s: contract not placed", p.ID)
				continue
			}
			n++
			// Each program compiles on its own.
			src.WriteString("compile(" + pyString(g) + ", " + pyString(p.ID) + ", 'exec')\n")
		}
		if n < len(c.ByID)*9/10 {
			t.Errorf("%s: %d of %d contracts placed", name, n, len(c.ByID))
		}
		// EvalPlus's references, guarded too, for every problem it extended.
		c.AttachSolutions(ds.Problems)
		solutions := 0
		for _, p := range ds.Problems {
			if p.Solution == "" {
				continue
			}
			solutions++
			if g, ok := p.Guard(p.Solution); ok {
				src.WriteString("compile(" + pyString(g) + ", " + pyString(p.ID+" EvalPlus") + ", 'exec')\n")
			} else if p.Contract != "" {
				t.Logf("%s: contract not placed in EvalPlus's reference", p.ID)
			}
		}
		if solutions < len(c.ByID)*9/10 {
			t.Errorf("%s: %d EvalPlus references attached for %d contracts", name, solutions, len(c.ByID))
		}
		t.Logf("%s: %d contracts placed, %d EvalPlus references", name, n, solutions)
		cmd := exec.Command(python, "-")
		cmd.Stdin = strings.NewReader(src.String())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: a guarded reference does not compile: %v\n%s", name, err, out)
		}
	}
}

// pyString quotes s as a Python string literal.
func pyString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`).Replace(s) + "'"
}
