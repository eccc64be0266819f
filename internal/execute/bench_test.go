package execute

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// BenchmarkTrivialTests measures test executions per second on one worker:
// one program, 2,000 trivial `assert f(i) == i + 1` tests per iteration.
// Reported as tests/s (per core, since the pool has one worker).
func BenchmarkTrivialTests(b *testing.B) {
	p, err := NewPool(context.Background(), Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	const n = 2000
	tests := make([]Test, n)
	for i := range tests {
		tests[i] = Test{Code: fmt.Sprintf("assert f(%d) == %d", i, i+1), Input: fmt.Sprintf("f(%d)", i), Expected: fmt.Sprint(i + 1)}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// A different program each iteration: nothing is cached or deduplicated.
		prog := fmt.Sprintf("def f(x):\n    return x + 1  # %d\n", i)
		if _, err := p.Run(context.Background(), Job{Programs: []string{prog}, Tests: tests, TimePolicy: Within(time.Second)}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "tests/s")
}

// BenchmarkPerCandidate measures the overhead of one candidate (fork, limits,
// compile, one trivial test, cleanup) on one worker.
func BenchmarkPerCandidate(b *testing.B) {
	p, err := NewPool(context.Background(), Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	const n = 200
	tests := []Test{{Code: "assert f(1) == 2", Input: "f(1)", Expected: "2"}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		progs := make([]string, n)
		for k := range progs {
			progs[k] = fmt.Sprintf("def f(x):\n    return x + 1  # %d %d\n", i, k)
		}
		if _, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(time.Second)}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(n*b.N), "ms/candidate")
}

// BenchmarkHiddenTest measures one candidate against a HumanEval-style
// hidden test (a check function with ten asserts), the shape `ticoder
// check` runs: the test is trusted and judges the program through proxies.
func BenchmarkHiddenTest(b *testing.B) {
	p, err := NewPool(context.Background(), Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	const n = 200
	check := "def check(candidate):\n"
	for i := range 10 {
		check += fmt.Sprintf("    assert candidate(%d) == %d\n", i, i+1)
	}
	check += "check(f)\n"
	tests := []Test{{Code: check, Trusted: true}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		progs := make([]string, n)
		for k := range progs {
			progs[k] = fmt.Sprintf("from typing import List\n\ndef f(x):\n    return x + 1  # %d %d\n", i, k)
		}
		if _, err := p.Run(context.Background(), Job{Programs: progs, Tests: tests, TimePolicy: Within(time.Second)}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(n*b.N), "ms/candidate")
}

// BenchmarkRunRequestEncode measures encoding one run request of 200
// programs and 50 tests: as the typed runRequest, and as the map[string]any
// it replaced (built here only to compare).
func BenchmarkRunRequestEncode(b *testing.B) {
	job := Job{AllowObjects: false, TimePolicy: TimePolicy{DegradeAfter: 2}}
	tests := make([]Test, 50)
	timeouts := make([]float64, len(tests))
	for i := range tests {
		tests[i] = Test{Code: fmt.Sprintf("assert f(%d) == %d", i, i+1), Input: fmt.Sprintf("f(%d)", i), Expected: fmt.Sprint(i + 1)}
		timeouts[i] = 1
	}
	progs := make([]wireProgram, 200)
	for i := range progs {
		progs[i] = wireProgram{ID: i, Code: fmt.Sprintf("def f(x):\n    return x + %d\n", i%3)}
	}
	b.Run("struct", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(newRunRequest(&job, tests, timeouts, progs, Limits{})); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		for b.Loop() {
			mp := make([]map[string]any, len(progs))
			for i, p := range progs {
				mp[i] = map[string]any{"id": p.ID, "code": p.Code}
			}
			req := map[string]any{"op": "run", "tests": tests, "timeouts": timeouts, "programs": mp, "limits": Limits{},
				"allow_objects": job.AllowObjects, "degrade_after": job.DegradeAfter, "degrade_limit": 0.1}
			if _, err := json.Marshal(req); err != nil {
				b.Fatal(err)
			}
		}
	})
}
