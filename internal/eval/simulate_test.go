package eval

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/oracle"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
)

// cell parses "P", "F", "E" or "F=v" / "P=v" (a call returning v).
func cell(t *testing.T, s string) execute.Result {
	t.Helper()
	code, val, has := strings.Cut(s, "=")
	r := execute.Result{Value: val, HasValue: has}
	switch code {
	case "P":
		r.Outcome = execute.Pass
	case "F":
		r.Outcome = execute.Fail
	case "E":
		r.Outcome = execute.Error
	default:
		t.Fatalf("bad cell %q", s)
	}
	return r
}

// problem builds a problem whose tests are calls f(j) == j. rows[c] are the
// candidates' cells, ref the reference's cells; a candidate's `output`
// comparison is decided by equal value strings (standing in for the
// sandbox's == in the precomputed table).
func problem(t *testing.T, samples int, counts []int, correct []bool, ref string, rows ...string) Problem {
	t.Helper()
	p := Problem{ID: "P/1", Samples: samples, Correct: correct, RawCorrect: -1}
	refRow := []execute.Result{}
	for _, c := range strings.Fields(ref) {
		refRow = append(refRow, cell(t, c))
	}
	for j := range refRow {
		input := fmt.Sprintf("f(%d)", j)
		p.Tests = append(p.Tests, extract.Test{Test: execute.Test{Code: fmt.Sprintf("assert %s == %d", input, j), Input: input, Expected: fmt.Sprint(j)}, Count: 1, First: j})
	}
	var programs []string
	for c, row := range rows {
		prog := fmt.Sprintf("def f(x): return %d", c)
		programs = append(programs, prog)
		p.Candidates = append(p.Candidates, extract.Candidate{Program: prog, Count: counts[c], First: c})
		var rs []execute.Result
		for _, s := range strings.Fields(row) {
			rs = append(rs, cell(t, s))
		}
		p.Results = append(p.Results, rs)
	}
	tests := make([]execute.Test, len(p.Tests))
	for j := range p.Tests {
		tests[j] = p.Tests[j].Test
	}
	eq, from := oracle.EqualTests(tests, refRow)
	all := append(append([]string{}, programs...), "REFERENCE")
	eqResults := make([][]execute.Result, len(all))
	for i := range all {
		rowOf := refRow
		if i < len(rows) {
			rowOf = p.Results[i]
		}
		for k := range eq {
			r := rowOf[from[k]]
			out := execute.Fail
			if r.HasValue && r.Value == refRow[from[k]].Value {
				out = execute.Pass
			}
			eqResults[i] = append(eqResults[i], execute.Result{Outcome: out})
		}
	}
	tab, usable := oracle.NewTable(all, eq, eqResults, len(rows), tests, refRow)
	p.Comparer = tab
	p.User = &oracle.User{Tests: tests, Reference: refRow, Usable: usable}
	return p
}

func config(modes ...rank.Mode) Config {
	return Config{
		Modes: modes, Selectors: []string{"discr"}, Rankers: []string{"passing"}, Protect: []bool{false},
		MaxQuestions: 5, Ks: []int{1, 2}, BaselineKs: []int{1, 10},
	}
}

// figure3Problem: c0 (5 samples, wrong) passes all tests, c1 (1, wrong)
// passes t1 and t2, c2 (1, correct) passes t2 only; the reference fails t0
// and t1 (returning 2 and 3) and passes t2.
func figure3Problem(t *testing.T) Problem {
	return problem(t, 10, []int{5, 1, 1}, []bool{false, false, true}, "F=2 F=3 P=2",
		"P=0 P=1 P=2",
		"F=1 P=1 P=2",
		"F=2 F=3 P=2")
}

func TestSimulatePassFailCarriesForward(t *testing.T) {
	res, err := Simulate(context.Background(), figure3Problem(t), config(rank.PassFail))
	if err != nil {
		t.Fatal(err)
	}
	if res.Samples != 10 || res.CorrectSamples != 1 || !near(res.Baseline[1], 0.1) || !near(res.Baseline[10], 1) {
		t.Errorf("baseline: n=%d c=%d %v", res.Samples, res.CorrectSamples, res.Baseline)
	}
	run := res.Runs[0]
	// m=0: c0 ranks first (passes 3). t0 fail drops c0; c1 still ranks
	// first; t1 fail drops c1; then one class is left: carried to m=5.
	want := map[int][]float64{1: {0, 0, 1, 1, 1, 1}, 2: {0, 1, 1, 1, 1, 1}}
	if diff := cmp.Diff(want, run.PassAt); diff != "" {
		t.Errorf("pass@k@m (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{3, 2, 1, 1, 1, 1}, run.Remaining); diff != "" {
		t.Errorf("remaining (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Asked{{Test: 0, Answer: "fail", Code: "assert f(0) == 0"}, {Test: 1, Answer: "fail", Code: "assert f(1) == 1"}}, run.Asked); diff != "" {
		t.Errorf("asked (-want +got):\n%s", diff)
	}
	if run.Stop != "one-class" {
		t.Errorf("stop = %q, want one-class", run.Stop)
	}
}

func TestSimulateOutput(t *testing.T) {
	res, err := Simulate(context.Background(), figure3Problem(t), config(rank.Output))
	if err != nil {
		t.Fatal(err)
	}
	run := res.Runs[0]
	// t0's answer `output 2` keeps only c2.
	if diff := cmp.Diff([]float64{0, 1, 1, 1, 1, 1}, run.PassAt[1]); diff != "" {
		t.Errorf("pass@1@m (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Asked{{Test: 0, Answer: "output 2", Code: "assert f(0) == 0"}}, run.Asked); diff != "" {
		t.Errorf("asked (-want +got):\n%s", diff)
	}
}

func TestSimulateEmptySetAndProtect(t *testing.T) {
	// The correct candidate (1) returns a value the reference does not: no
	// candidate agrees with the answer `output 9`, so both remain, ranked
	// as before, and the run reports the conflict (no candidate left would
	// count as a failure); with protect-correct candidate 1 agrees.
	p := problem(t, 2, []int{1, 1}, []bool{false, true}, "F=9 P=1",
		"F=5 P=1",
		"F=6 P=1")
	cfg := config(rank.Output)
	cfg.Protect = []bool{false, true}
	res, err := Simulate(context.Background(), p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	strict, protect := res.Runs[0], res.Runs[1]
	if diff := cmp.Diff([]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, strict.PassAt[1]); diff != "" {
		t.Errorf("strict pass@1@m (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{2, 2, 2, 2, 2, 2}, strict.Remaining); diff != "" {
		t.Errorf("strict remaining (-want +got):\n%s", diff)
	}
	if strict.Conflict != 1 || strict.Lost != 0 || protect.Conflict != 0 {
		t.Errorf("conflict %d, lost %d (protected: conflict %d); want 1, 0, 0", strict.Conflict, strict.Lost, protect.Conflict)
	}
	if diff := cmp.Diff([]float64{0.5, 1, 1, 1, 1, 1}, protect.PassAt[1]); diff != "" {
		t.Errorf("protected pass@1@m (-want +got):\n%s", diff)
	}
	if !protect.Protect || strict.Protect {
		t.Error("runs do not report their protect setting")
	}
}

// TestSimulateFallback: the correct candidate (1) raises on f(0), which
// the reference answers; the wrong one (0) returns its value. The answer
// rules out the correct one only to rank it second, as run lists it: it
// counts at pass@2 and is not lost. Candidate 2 returns another value and
// is ruled out.
func TestSimulateFallback(t *testing.T) {
	p := problem(t, 3, []int{1, 1, 1}, []bool{false, true, false}, "P=0 F=3",
		"P=0 F=5",
		"E F=3",
		"F=7 F=3")
	for _, mode := range []rank.Mode{rank.PassFail, rank.Output} {
		res, err := Simulate(context.Background(), p, config(mode))
		if err != nil {
			t.Fatal(err)
		}
		run := res.Runs[0]
		if len(run.Asked) == 0 || run.Asked[0].Test != 0 {
			t.Fatalf("%v: asked %+v, want f(0) first", mode, run.Asked)
		}
		if got := run.PassAt[1][1]; got != 0 {
			t.Errorf("%v: pass@1@1 = %v, want 0 (a fallback never ranks first)", mode, got)
		}
		if got := run.PassAt[2][1]; got != 1 {
			t.Errorf("%v: pass@2@1 = %v, want 1 (the fallback ranks second)", mode, got)
		}
		if run.Lost != 0 || run.Remaining[1] != 1 {
			t.Errorf("%v: lost %d, remaining %v; want 0 and one remaining candidate", mode, run.Lost, run.Remaining)
		}
	}
}

func TestSummarizeAndReports(t *testing.T) {
	ctx := context.Background()
	cfg := config(rank.PassFail, rank.Output)
	cfg.Selectors = []string{"discr", "infogain"}
	cfg.Rankers = []string{"passing", "codet"}
	var results []Result
	for _, p := range []Problem{figure3Problem(t), problem(t, 4, []int{1, 3}, []bool{true, false}, "P=0", "P=0", "F=1")} {
		r, err := Simulate(ctx, p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	s := Summarize(results, cfg)
	s.Title = "test"
	if s.Problems != 2 || len(s.Rows) != 2*2*2 {
		t.Fatalf("summary: %d problems, %d rows", s.Problems, len(s.Rows))
	}
	// Problem 1 goes 0, 0, 1, …; problem 2's correct candidate ranks first
	// from the start.
	row := s.find(rowKey{rank.PassFail, "discr", "passing", false, session.Both})
	if diff := cmp.Diff([]float64{0.5, 0.5, 1, 1, 1, 1}, row.PassAt[1]); diff != "" {
		t.Errorf("mean pass@1@m (-want +got):\n%s", diff)
	}
	if !near(s.Baseline[1], (0.1+0.25)/2) {
		t.Errorf("baseline pass@1 = %v", s.Baseline[1])
	}
	var md, csv bytes.Buffer
	if err := s.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## pass@1@m — code ranking `passing`, strict", "| discr | 17.50 | 100.00 | 50.00 | 50.00 | 100.00 |", "PassFail m=0", "Output m=5"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	if err := s.CSV(&csv); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if want := 1 + 2 + 2 + 8*2*6; len(lines) != want { // header, baseline, extracted, rows
		t.Errorf("csv has %d lines, want %d", len(lines), want)
	}
	if !strings.Contains(csv.String(), "passfail,discr,passing,false,1,1,0.500000,2") {
		t.Errorf("csv lacks the pass@1@1 line:\n%s", csv.String())
	}
	dir := t.TempDir()
	files, err := s.Plot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2*1*2 {
		t.Errorf("plot files: %v", files)
	}
	png, _ := os.ReadFile(filepath.Join(dir, "pass1_passing_strict.png"))
	svg, _ := os.ReadFile(filepath.Join(dir, "pass1_codet_strict.svg"))
	if !bytes.HasPrefix(png, []byte("\x89PNG")) || !bytes.Contains(svg, []byte("<svg")) {
		t.Error("plots are not PNG and SVG")
	}
}

func TestResultsResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	settings := Settings{Dataset: "d", Model: "m", Config: config(rank.PassFail)}
	other := settings
	other.Config.MaxQuestions = 3
	if settings.Hash() == other.Hash() {
		t.Fatal("different settings hash alike")
	}
	a, err := OpenAppender(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Simulate(context.Background(), figure3Problem(t), settings.Config)
	if err != nil {
		t.Fatal(err)
	}
	res.Config = settings.Hash()
	mustAppend := func(r Result) {
		if err := a.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	mustAppend(res)
	res2 := res
	res2.ID, res2.Config = "P/2", other.Hash()
	mustAppend(res2)
	a.Close()
	// A run killed mid-line leaves a partial line.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"task_id":"P/3","con`)
	f.Close()
	got, err := ReadResults(path, settings.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]Result{"P/1": res}, got); diff != "" {
		t.Errorf("resumed results (-want +got):\n%s", diff)
	}
	if got, err := ReadResults(filepath.Join(t.TempDir(), "none.jsonl"), "x"); err != nil || len(got) != 0 {
		t.Errorf("missing file: %v, %v", got, err)
	}
}

var _ session.Comparer = (*oracle.Table)(nil)

func TestPriorRankers(t *testing.T) {
	// Candidates 0 and 1 tie on passing (both pass test 0); the prior
	// prefers 1, the correct one; alone it also puts 1 first.
	p := problem(t, 4, []int{3, 1, 2}, []bool{false, true, false}, "P=0 F=1", "P=0 P=1", "P=0 P=1", "F=2 F=3")
	p.Priors = map[string][]float64{"qe:x": {0.1, 0.9, 0.5}}
	cfg := config(rank.PassFail)
	cfg.Rankers = []string{"passing", "passing+qe:x", "qe:x"}
	cfg.MaxQuestions = 0
	res, err := Simulate(context.Background(), p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, r := range res.Runs {
		got[r.Rank] = r.PassAt[1][0]
	}
	// passing alone: 0 and 1 tie (2 tests each), weighted pick 1/(3+1).
	want := map[string]float64{"passing": 0.25, "passing+qe:x": 1, "qe:x": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pass@1@0 by ranker (-want +got):\n%s", diff)
	}
	p.Priors = nil
	if _, err := Simulate(context.Background(), p, cfg); err == nil {
		t.Error("Simulate ran a prior ranker without its scores")
	}
}

func TestParseRanker(t *testing.T) {
	tests := []struct {
		spec, base, prior string
		ok                bool
	}{
		{"passing", "passing", "", true},
		{"codet+qe:agree", "codet", "qe:agree", true},
		{"qe:knn", "prior", "qe:knn", true},
		{"passing+agree", "", "", false},
		{"qe:", "", "", false},
		{"best", "", "", false},
	}
	for _, tc := range tests {
		r, prior, err := ParseRanker(tc.spec)
		if (err == nil) != tc.ok {
			t.Errorf("ParseRanker(%q): err %v", tc.spec, err)
			continue
		}
		if tc.ok && (r.Name() != tc.base || prior != tc.prior) {
			t.Errorf("ParseRanker(%q) = %s, %q", tc.spec, r.Name(), prior)
		}
	}
}

func TestSimulateNothingToRank(t *testing.T) {
	// No candidate extracted: every m scores 0, nothing is asked, whether
	// tests were extracted or not; without tests the stop says so.
	stops := map[string]string{"no test": "no-tests", "tests": "one-class"}
	for name, ref := range map[string]string{"no test": "", "tests": "P=0 F=2 E"} {
		t.Run(name, func(t *testing.T) {
			p := problem(t, 5, nil, nil, ref)
			res, err := Simulate(context.Background(), p, config(rank.PassFail, rank.Output))
			if err != nil {
				t.Fatal(err)
			}
			for _, run := range res.Runs {
				if diff := cmp.Diff([]float64{0, 0, 0, 0, 0, 0}, run.PassAt[1]); diff != "" {
					t.Errorf("%s pass@1@m (-want +got):\n%s", run.Mode, diff)
				}
				if len(run.Asked) != 0 || run.Stop != stops[name] {
					t.Errorf("%s: asked %v, stop %q", run.Mode, run.Asked, run.Stop)
				}
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(c *Config)
		ok   bool
	}{
		{"valid", func(c *Config) {}, true},
		{"both modes and protect settings", func(c *Config) { c.Modes = []rank.Mode{rank.PassFail, rank.Output}; c.Protect = []bool{false, true} }, true},
		{"no selector", func(c *Config) { c.Selectors = nil }, false},
		{"unknown selector", func(c *Config) { c.Selectors = []string{"best"} }, false},
		{"negative max questions", func(c *Config) { c.MaxQuestions = -1 }, false},
		{"noise above 1", func(c *Config) { c.Noise = 1.5 }, false},
		// Duplicates would run twice and double the summary's means.
		{"selector twice", func(c *Config) { c.Selectors = []string{"discr", " Discr"} }, false},
		{"ranker twice", func(c *Config) { c.Rankers = []string{"passing", "codet", "passing"} }, false},
		{"mode twice", func(c *Config) { c.Modes = []rank.Mode{rank.Output, rank.Output} }, false},
		{"protect setting twice", func(c *Config) { c.Protect = []bool{false, false} }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := config(rank.PassFail)
			tc.edit(&c)
			if err := c.Validate(); (err == nil) != tc.ok {
				t.Errorf("Validate() = %v, want ok %v", err, tc.ok)
			}
		})
	}
}
