package main

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// plusSample is one sample of the HumanEval+/MBPP+ fixtures and what check
// must say of it.
type plusSample struct {
	name     string
	task     string
	solution string // a whole program
	base     string // base_status
	plus     string // plus_status ("" when not run)
	part     string // the first failing input's part, "" if none
	input    int    // and its index there
	why      string // a part of the failure's text
}

// heHeader is HumanEval/32's prompt code a find_zero sample needs.
const heHeader = "import math\n\ndef poly(xs: list, x: float):\n    return sum([coeff * math.pow(x, i) for i, coeff in enumerate(xs)])\n\n"

var plusSamples = []plusSample{
	{name: "exact", task: "HumanEval/2", solution: "def truncate_number(number):\n    return number - int(number)\n",
		base: "pass", plus: "pass"},
	{name: "within the task's atol", task: "HumanEval/2",
		solution: "def truncate_number(number):\n    return round(number - int(number), 7)\n", base: "pass", plus: "pass"},
	{name: "beyond the task's atol", task: "HumanEval/2",
		solution: "def truncate_number(number):\n    return round(number - int(number), 3)\n",
		base:     "pass", plus: "fail", part: "plus", input: 0, why: "atol"},
	{name: "an int where a float is expected", task: "HumanEval/2",
		solution: "def truncate_number(number):\n    return 0\n", base: "fail", part: "base", input: 0, why: "int"},
	{name: "a root other than the expected value", task: "HumanEval/32",
		solution: heHeader + "def find_zero(xs):\n    dxs = [xs[i] * i for i in range(1, len(xs))]\n    x = 0.0\n" +
			"    for _ in range(1000):\n        fx = poly(xs, x)\n        if abs(fx) < 1e-12:\n            break\n        x = x - fx / poly(dxs, x)\n    return x\n",
		base: "pass", plus: "pass"},
	{name: "not a root", task: "HumanEval/32", solution: heHeader + "def find_zero(xs):\n    return 0.5\n",
		base: "fail", part: "base", input: 0, why: "not a root"},
	{name: "with its contract", task: "HumanEval/63",
		solution: "def fibfib(n):\n    assert isinstance(n, int), 'invalid inputs'\n    assert n >= 0, 'invalid inputs'\n" +
			"    a, b, c = 0, 0, 1\n    if n < 2:\n        return 0\n    for _ in range(n - 2):\n        a, b, c = b, c, a + b + c\n    return c\n",
		base: "pass", plus: "pass"},
	{name: "slow but correct: every input within its own limit", task: "HumanEval/55",
		solution: "import time\ndef fib(n):\n    time.sleep(0.03)\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n",
		base:     "pass", plus: "pass"},
	{name: "loops on one plus input", task: "HumanEval/55",
		solution: "def fib(n):\n    while n == 16:\n        pass\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n",
		base:     "pass", plus: "fail", part: "plus", input: 4, why: "limit"},
	{name: "wrong on a plus input only", task: "HumanEval/55",
		solution: "def fib(n):\n    if n > 12:\n        return 0\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n",
		base:     "pass", plus: "fail", part: "plus", input: 4, why: "differs"},
	{name: "raises", task: "HumanEval/55", solution: "def fib(n):\n    return 1 // 0\n",
		base: "fail", part: "base", input: 0, why: "ZeroDivisionError"},
	{name: "sets compared as sets, tuples restored", task: "Mbpp/2",
		solution: "def similar_elements(a, b):\n    assert type(a) is tuple\n    return tuple(sorted(set(a) & set(b), reverse=True))\n",
		base:     "pass", plus: "pass"},
	{name: "complex inputs restored", task: "Mbpp/124",
		solution: "import cmath\ndef angle_complex(a, b):\n    return cmath.phase(a + b)\n", base: "pass", plus: "pass"},
	{name: "infinite inputs and outputs", task: "Mbpp/404", solution: "def minimum(a, b):\n    return min(a, b)\n", base: "pass", plus: "pass"},
	{name: "not-None oracle", task: "Mbpp/737",
		solution: "import re\ndef check_str(s):\n    return re.search('^[aeiouAEIOU][A-Za-z0-9_]*', s)\n", base: "pass", plus: "pass"},
	{name: "no plus inputs", task: "Mbpp/793",
		solution: "def last(arr, x):\n    return len(arr) - 1 - arr[::-1].index(x)\n", base: "pass", plus: "pass"},
	{name: "an object that claims to be equal", task: "HumanEval/55",
		solution: "class Yes:\n    def __eq__(self, other):\n        return True\ndef fib(n):\n    return Yes()\n",
		base:     "fail", part: "base", input: 0, why: "not plain data"},
}

func TestCheckPlus(t *testing.T) {
	for _, ds := range []string{"humanevalplus", "mbppplus"} {
		t.Run(ds, func(t *testing.T) {
			var lines []string
			var want []plusSample
			for _, s := range plusSamples {
				if strings.HasPrefix(s.task, "Mbpp") == (ds == "mbppplus") {
					lines = append(lines, jsonLine(t, map[string]string{"task_id": s.task, "solution": s.solution}))
					want = append(want, s)
				}
			}
			sum, results, err := checkFileWith(t, lines, func(o *checkOptions) {
				o.dataset, o.timeout, o.ks = ds, 0, "1"
				o.minTimeLimit = time.Second
			})
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := sum["base"].(map[string]any)["pass@1"]; !ok {
				t.Errorf("summary without base pass@1: %v", sum)
			}
			if sum["dataset_md5"] == "" || sum["dataset_sha256"] == "" {
				t.Errorf("summary without the dataset's hashes: %v", sum)
			}
			checkPlusResults(t, want, results)
		})
	}
}

// checkPlusResults compares per-sample results with want, in file order
// within each task (results are ordered by task, then sample).
func checkPlusResults(t *testing.T, want []plusSample, results []map[string]any) {
	t.Helper()
	if len(results) != len(want) {
		t.Fatalf("%d results, want %d", len(results), len(want))
	}
	next := map[string]int{}
	for _, r := range results {
		task := r["task_id"].(string)
		idx := int(r["sample_index"].(float64))
		var w *plusSample
		for i, k := 0, 0; i < len(want); i++ {
			if want[i].task == task {
				if k == idx {
					w = &want[i]
				}
				k++
			}
		}
		next[task]++
		if w == nil {
			t.Fatalf("unexpected result %v", r)
		}
		plus, _ := r["plus_status"].(string)
		if r["base_status"] != w.base || plus != w.plus {
			t.Errorf("%s: base %v plus %q, want %s %q (%v)", w.name, r["base_status"], plus, w.base, w.plus, r["result"])
		}
		if r["passed"] != (w.base == "pass" && w.plus == "pass") {
			t.Errorf("%s: passed = %v", w.name, r["passed"])
		}
		f, _ := r["failure"].(map[string]any)
		if (f == nil) != (w.part == "") {
			t.Errorf("%s: failure %v, want one on %q", w.name, f, w.part)
			continue
		}
		if f != nil && (f["part"] != w.part || int(f["input"].(float64)) != w.input || !strings.Contains(f["why"].(string), w.why)) {
			t.Errorf("%s: failure %v, want %s input %d (%s)", w.name, f, w.part, w.input, w.why)
		}
	}
}

// TestCheckPlusShowsFailingInput: a failure names its input, the expected
// value and the sample's.
func TestCheckPlusShowsFailingInput(t *testing.T) {
	line := jsonLine(t, map[string]string{"task_id": "HumanEval/55", "solution": "def fib(n):\n    return 7\n"})
	_, results, err := checkFileWith(t, []string{line}, func(o *checkOptions) { o.dataset, o.timeout, o.ks = "humanevalplus", 0, "1" })
	if err != nil {
		t.Fatal(err)
	}
	f := results[0]["failure"].(map[string]any)
	if f["args"] != "[10]" || f["expected"] != "55" || f["got"] != "7" {
		t.Errorf("failure %v, want args [10], expected 55, got 7", f)
	}
}

// TestCheckPlusTestDetails: with --test-details every input runs, and every
// failing one is listed.
func TestCheckPlusTestDetails(t *testing.T) {
	line := jsonLine(t, map[string]string{"task_id": "HumanEval/55",
		"solution": "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a if n % 2 else a + (n > 12)\n"})
	_, results, err := checkFileWith(t, []string{line}, func(o *checkOptions) {
		o.dataset, o.timeout, o.ks, o.testDetails = "humanevalplus", 0, "1", true
	})
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	if r["base_status"] != "pass" || r["plus_status"] != "fail" {
		t.Fatalf("statuses %v %v", r["base_status"], r["plus_status"])
	}
	failed, _ := r["plus_fail_tests"].([]any)
	if len(failed) < 2 || failed[0].(float64) != 4 {
		t.Errorf("plus_fail_tests %v, want every even n > 12, from input 4 (16) on", failed)
	}
}

func TestCheckPlusRefusesAllowObjects(t *testing.T) {
	_, _, err := checkFileWith(t, []string{`{"task_id": "HumanEval/2", "completion": "    return 0.0\n"}`}, func(o *checkOptions) {
		o.dataset, o.allowObjects = "humanevalplus", true
	})
	var u usageError
	if !errors.As(err, &u) {
		t.Errorf("--allow-objects on humanevalplus: %v, want a usage error", err)
	}
}
