package extract

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/testutil"
)

func codetRows(t *testing.T, path string) map[string][]string { return testutil.CodeTRows(t, path) }

// TestRecordedSamples extracts every recorded CodeGen-16B sample of
// HumanEval-noexamples (those of the fixtures' few problems, and all 32,800
// of the full data when present): no sample may make extraction fail, every
// piece is counted once, and every candidate defines the entry point.
func TestRecordedSamples(t *testing.T) {
	testutil.ForEachData(t, func(t *testing.T, d testutil.Data) {
		if d.Full && testing.Short() {
			t.Skip("extracts 32,800 recorded samples")
		}
		checkRecordedSamples(t, d)
	}, "humaneval/HumanEval-noexamples.jsonl", testutil.Recorded+"/codes.jsonl", testutil.Recorded+"/tests.jsonl", testutil.Recorded+"/test-prompts.jsonl")
}

// checkRecordedSamples extracts the recorded samples in d, for every
// problem that has them: all of them in the full data.
func checkRecordedSamples(t *testing.T, d testutil.Data) {
	ctx := context.Background()
	ds, err := dataset.Load(ctx, d.Dir, "humaneval-noexamples")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(d.Dir, filepath.FromSlash(testutil.Recorded))
	codes := codetRows(t, filepath.Join(dir, "codes.jsonl"))
	tests := codetRows(t, filepath.Join(dir, "tests.jsonl"))
	testPrompts := map[string]string{} // task id → the prompt its tests continue
	f, err := os.ReadFile(filepath.Join(dir, "test-prompts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(f)), "\n") {
		var row struct {
			TaskID string `json:"task_id"`
			Prompt string `json:"prompt"`
		}
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		testPrompts[row.TaskID] = row.Prompt
	}
	// The fixtures hold samples of some of their problems only.
	var problems []dataset.Problem
	for _, p := range ds.Problems {
		if _, ok := testPrompts[p.ID]; ok {
			problems = append(problems, p)
		}
	}
	if len(problems) == 0 || len(problems) != len(testPrompts) || d.Full && len(problems) != ds.Len() {
		t.Fatalf("%d problems have recorded samples, %d test prompts", len(problems), len(testPrompts))
	}
	results := make([][2]Stats, len(problems))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := problems[i]
				results[i] = checkRecorded(t, p, codes[p.Prompt], tests[testPrompts[p.ID]])
			}
		}()
	}
	for i := range problems {
		next <- i
	}
	close(next)
	wg.Wait()
	var all [2]Stats
	for _, r := range results {
		all[0].Add(r[0])
		all[1].Add(r[1])
	}
	t.Logf("codes: %+v", all[0])
	t.Logf("tests: %+v", all[1])
	if all[0].Unique == 0 || all[1].Unique == 0 {
		t.Error("nothing extracted")
	}
}

// checkRecorded extracts one problem's recorded samples and checks them.
func checkRecorded(t *testing.T, p dataset.Problem, cs, ts []string) [2]Stats {
	ctx := context.Background()
	if len(cs) == 0 || len(ts) == 0 {
		t.Errorf("%s: %d recorded codes and %d tests", p.ID, len(cs), len(ts))
		return [2]Stats{}
	}
	cands, cst, err := Codes(ctx, testPool, p, cs, StyleBody)
	if err != nil {
		t.Error(err)
		return [2]Stats{}
	}
	kept := 0
	for _, c := range cands {
		kept += c.Count
		if !strings.Contains(c.Program, "def "+p.EntryPoint+"(") {
			t.Errorf("%s: candidate %d does not define %s:\n%s", p.ID, c.First, p.EntryPoint, c.Program)
		}
	}
	checkStats(t, cst, kept)
	cut := make([]bool, len(ts))
	for i, s := range ts {
		cut[i] = !strings.HasSuffix(s, "\n")
	}
	got, tst, err := Tests(ctx, testPool, p, ts, TestOptions{Prefix: "assert ", Cut: cut})
	if err != nil {
		t.Error(err)
		return [2]Stats{}
	}
	kept = 0
	for _, x := range got {
		kept += x.Count
		if !strings.Contains(x.Setup+"\n"+x.Code, p.EntryPoint+"(") {
			t.Errorf("%s: test does not call %s: %+v", p.ID, p.EntryPoint, x)
		}
	}
	checkStats(t, tst, kept)
	return [2]Stats{cst, tst}
}
