package check

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/passk"
	"github.com/ticoder/ticoder/internal/progress"
)

// Default time-limit policy when no explicit timeout is given.
const (
	DefaultFloor  = 500 * time.Millisecond
	DefaultFactor = 20.0
	// referenceLimit bounds the reference solution's own run.
	referenceLimit = 20 * time.Second
)

// Sample is one program to check.
type Sample struct {
	TaskID string
	// Index is the sample's position among its task's samples.
	Index int
	// Completion is the sample as the file gave it (body or whole program).
	Completion string
	// Program is the complete program to run; empty when Err is set.
	Program string
	// Err, if not empty, says why the line is not a sample (invalid JSON,
	// no completion, unknown task): it is skipped, not counted as failing.
	Err string
	// Line is the line of the samples file the sample came from (0: unknown).
	Line int
}

// Skipped is a line of input that is not a sample of the dataset: it is left
// out of pass@k and of the per-sample results.
type Skipped struct {
	// Line is the line of the samples file (0: unknown).
	Line int `json:"line"`
	// TaskID is the task the line names, if any.
	TaskID string `json:"task_id,omitempty"`
	// Reason says why the line is not a sample.
	Reason string `json:"reason"`
	// Samples counts the samples the line held (a CodeT line holds many).
	Samples int `json:"samples"`
}

// Result is the verdict on one sample, in human-eval's per-sample format.
type Result struct {
	TaskID     string `json:"task_id"`
	Completion string `json:"completion"`
	// Result is "passed", "failed: <reason>", "timed out" or "error: <why>".
	Result string `json:"result"`
	Passed bool   `json:"passed"`
	// Index is the sample's position among its task's samples.
	Index int `json:"sample_index"`
	// PlusResult holds, on HumanEval+ and MBPP+, the base and plus
	// statuses and the first failing input; Passed is then the plus
	// verdict (base and plus inputs passed).
	*PlusResult
}

// Options configure a check.
type Options struct {
	// Ks are the k of pass@k to report (default 1, 10, 100).
	Ks []int
	// Timeout, if positive, is every sample's time limit.
	Timeout time.Duration
	// Floor and Factor set the reference-scaled limit when Timeout is 0.
	Floor  time.Duration
	Factor float64
	// MinTimeLimit and TimeFactor set, on HumanEval+ and MBPP+, each
	// input's limit: max(MinTimeLimit, TimeFactor × the reference's time on
	// it); defaults DefaultMinTimeLimit and DefaultTimeFactor, as evalplus.
	MinTimeLimit time.Duration
	TimeFactor   float64
	// AllInputs runs every input of HumanEval+ and MBPP+ and lists every
	// failing one (evalplus's --test-details); by default a sample stops at
	// its first failing input.
	AllInputs bool
	// AllowObjects lets samples return objects that are not plain data and
	// compares them in the sample's own process, as OpenAI's harness does
	// (a hostile sample can then forge its verdict). Off by default: such a
	// return value fails with a reason.
	AllowObjects bool
	// Progress receives one unit per sample.
	Progress progress.Reporter
	// OnResult, if not nil, receives each sample's result as it is decided
	// (from several goroutines, serialised by the caller's needs).
	OnResult func(Result)
}

// Summary is the outcome of a check.
type Summary struct {
	// PassAtK maps k to the mean unbiased pass@k over problems with samples,
	// for the asked-for k that every such problem has at least k samples of.
	PassAtK map[int]float64
	// BasePassAtK is, on HumanEval+ and MBPP+, pass@k on the base inputs
	// alone (PassAtK is then on base and plus inputs, as evalplus's
	// "plus"); nil for other datasets.
	BasePassAtK map[int]float64
	// Suites are, on HumanEval+ and MBPP+, the suites the samples were
	// judged by, by task.
	Suites map[string]*execute.Suite
	// Omitted lists the asked-for k left out of PassAtK because a problem
	// has fewer than k samples (as OpenAI's harness leaves them out).
	Omitted []int
	// MinSamples is the smallest number of samples of a problem.
	MinSamples int
	// Samples and Problems count what pass@k covers: the samples of the
	// dataset's problems, and those problems.
	Samples  int
	Problems int
	// Results holds every sample's result, ordered by task then index.
	Results []Result
	// Skipped lists the input lines that are not samples, in input order.
	Skipped []Skipped
}

// Run checks samples against the hidden tests of the problems in ds. A
// sample with Err set or of a task ds does not have is not run: it is listed
// in Summary.Skipped and counts nowhere.
func Run(ctx context.Context, runner execute.Runner, ds *dataset.Dataset, samples []Sample, opts Options) (*Summary, error) {
	if len(opts.Ks) == 0 {
		opts.Ks = []int{1, 10, 100}
	}
	if opts.Floor <= 0 {
		opts.Floor = DefaultFloor
	}
	if opts.Factor <= 0 {
		opts.Factor = DefaultFactor
	}
	rep := progress.OrNop(opts.Progress)
	samples, skipped := Partition(ds, samples)
	byTask := map[string][]int{}
	var order []string
	for i, s := range samples {
		if _, ok := byTask[s.TaskID]; !ok {
			order = append(order, s.TaskID)
		}
		byTask[s.TaskID] = append(byTask[s.TaskID], i)
	}
	tests, err := hiddenTests(ctx, runner, ds, order, opts)
	if err != nil {
		return nil, err
	}
	results := make([]Result, len(samples))
	var mu sync.Mutex
	deliver := func(i int, r Result) {
		mu.Lock()
		results[i] = r
		mu.Unlock()
		rep.Add(1)
		if opts.OnResult != nil {
			opts.OnResult(r)
		}
	}
	rep.Start("checking samples", len(samples))
	defer rep.Finish()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	errs := make(chan error, len(order))
	for _, task := range order {
		wg.Add(1)
		sem <- struct{}{}
		go func(task string) {
			defer wg.Done()
			defer func() { <-sem }()
			if err := checkTask(ctx, runner, tests[task], byTask[task], samples, opts.AllowObjects, deliver); err != nil {
				errs <- err
			}
		}(task)
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	var base map[int]float64
	if isPlus(ds) { // (before summarize sorts the results)
		base = passAtK(order, byTask, results, opts.Ks, func(r Result) bool { return r.PlusResult.basePassed() })
	}
	sum := summarize(order, byTask, results, opts.Ks)
	sum.Skipped = skipped
	if isPlus(ds) {
		sum.BasePassAtK = base
		sum.Suites = map[string]*execute.Suite{}
		for task, t := range tests {
			sum.Suites[task] = t.test.Suite
		}
	}
	return sum, nil
}

// taskTest is the hidden test of one task and its time limit.
type taskTest struct {
	task  string
	test  execute.Test
	limit time.Duration
}

// hiddenTests returns each task's hidden test: its test program with a
// time limit (see timeLimits), or on HumanEval+ and MBPP+ its suite of
// inputs, whose reference outputs are recorded first.
func hiddenTests(ctx context.Context, runner execute.Runner, ds *dataset.Dataset, tasks []string, opts Options) (map[string]taskTest, error) {
	out := map[string]taskTest{}
	if isPlus(ds) {
		if opts.MinTimeLimit <= 0 {
			opts.MinTimeLimit = DefaultMinTimeLimit
		}
		if opts.TimeFactor <= 0 {
			opts.TimeFactor = DefaultTimeFactor
		}
		problems := make([]dataset.Problem, len(tasks))
		for i, t := range tasks {
			problems[i], _ = ds.Get(t)
		}
		suites, err := RecordExpected(ctx, runner, problems, opts, opts.Progress)
		if err != nil {
			return nil, err
		}
		for _, t := range tasks {
			s := suites[t]
			out[t] = taskTest{task: t, test: execute.Test{Suite: s}, limit: SuiteTimeout(s)}
		}
		return out, nil
	}
	limits, err := timeLimits(ctx, runner, ds, tasks, opts)
	if err != nil {
		return nil, err
	}
	for _, t := range tasks {
		p, _ := ds.Get(t)
		out[t] = taskTest{task: t, test: hiddenTest(p), limit: limits[t]}
	}
	return out, nil
}

// Partition splits samples into those to run and the lines that are not
// samples of ds (Err set, or a task ds does not have), one Skipped per line.
func Partition(ds *dataset.Dataset, samples []Sample) ([]Sample, []Skipped) {
	var run []Sample
	var skipped []Skipped
	for _, s := range samples {
		reason := s.Err
		if _, ok := ds.Get(s.TaskID); reason == "" && !ok {
			reason = fmt.Sprintf("unknown task %q: dataset %s has no such problem", s.TaskID, ds.Name)
		}
		if reason == "" {
			run = append(run, s)
			continue
		}
		if n := len(skipped); n > 0 && s.Line > 0 && skipped[n-1].Line == s.Line && skipped[n-1].Reason == reason {
			skipped[n-1].Samples++
			continue
		}
		skipped = append(skipped, Skipped{Line: s.Line, TaskID: s.TaskID, Reason: reason, Samples: 1})
	}
	return run, skipped
}

// checkTask runs the samples of one task as one job.
func checkTask(ctx context.Context, runner execute.Runner, t taskTest, idx []int,
	samples []Sample, allowObjects bool, deliver func(int, Result)) error {
	progs := make([]string, len(idx))
	for k, i := range idx {
		progs[k] = samples[i].Program
	}
	job := execute.Job{Programs: progs, Tests: []execute.Test{t.test}, TimePolicy: execute.Within(t.limit), AllowObjects: allowObjects && t.test.Suite == nil}
	_, err := runner.Run(ctx, job, func(k int, row []execute.Result) {
		s := samples[idx[k]]
		r := Result{TaskID: s.TaskID, Completion: s.Completion, Index: s.Index}
		if t.test.Suite != nil {
			r.PlusResult = plusVerdict(t.test.Suite, row[0])
			r.Result, r.Passed = plusResultText(r.PlusResult), r.PlusResult.plusPassed()
		} else {
			r.Result, r.Passed = verdict(row[0])
		}
		deliver(idx[k], r)
	})
	if err != nil {
		return fmt.Errorf("check %s: %w", t.task, err)
	}
	return nil
}

// hiddenTest is the problem's hidden test as the engine runs it: with the
// dataset's helpers it uses, and its entry point named, so that nothing
// else a program defines reaches it.
func hiddenTest(p dataset.Problem) execute.Test {
	return execute.Test{Setup: p.HiddenTestSetup(), Code: p.Test, Trusted: true, Entry: p.EntryPoint}
}

// verdict renders a result the way human-eval does.
func verdict(r execute.Result) (string, bool) {
	switch r.Outcome {
	case execute.Pass:
		return "passed", true
	case execute.Fail:
		if r.Exception != "" { // e.g. "returned a Foo object, not plain data"
			return "failed: " + r.Exception, false
		}
		return "failed: AssertionError", false
	case execute.Error:
		return "failed: " + r.Exception, false
	case execute.Timeout:
		return "timed out", false
	default:
		return "failed: crashed (" + r.Exception + ")", false
	}
}

// timeLimits returns each task's time limit.
func timeLimits(ctx context.Context, runner execute.Runner, ds *dataset.Dataset, tasks []string, opts Options) (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	if opts.Timeout > 0 {
		for _, t := range tasks {
			out[t] = opts.Timeout
		}
		return out, nil
	}
	var progs []string
	var tests []execute.Test
	var known []string
	for _, t := range tasks {
		out[t] = opts.Floor
		if p, ok := ds.Get(t); ok && p.Reference != "" {
			known = append(known, t)
			progs = append(progs, p.Reference)
			tests = append(tests, hiddenTest(p))
		}
	}
	// One job per reference keeps each program paired with its own test.
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, len(known))
	sem := make(chan struct{}, 16)
	for i := range known {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			m, err := runner.Run(ctx, execute.Job{Programs: progs[i : i+1], Tests: tests[i : i+1], TimePolicy: execute.Within(referenceLimit)}, nil)
			if err != nil {
				errs <- fmt.Errorf("time the reference of %s: %w", known[i], err)
				return
			}
			r := m.Results[0][0]
			scaled := time.Duration(opts.Factor * r.Seconds * float64(time.Second))
			mu.Lock()
			if r.Outcome == execute.Pass && scaled > out[known[i]] {
				out[known[i]] = scaled
			}
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	return out, nil
}

// summarize computes pass@k over the tasks in order, for the k in ks that
// every task has enough samples for.
func summarize(order []string, byTask map[string][]int, results []Result, ks []int) *Summary {
	s := &Summary{Problems: len(order), Results: results}
	for _, task := range order {
		n := len(byTask[task])
		s.Samples += n
		if s.MinSamples == 0 || n < s.MinSamples {
			s.MinSamples = n
		}
	}
	s.PassAtK = passAtK(order, byTask, results, ks, func(r Result) bool { return r.Passed })
	for _, k := range ks {
		if _, ok := s.PassAtK[k]; !ok {
			s.Omitted = append(s.Omitted, k)
		}
	}
	sort.SliceStable(s.Results, func(a, b int) bool {
		if s.Results[a].TaskID != s.Results[b].TaskID {
			return taskLess(s.Results[a].TaskID, s.Results[b].TaskID)
		}
		return s.Results[a].Index < s.Results[b].Index
	})
	return s
}

// passAtK computes pass@k over the tasks in order, counting as correct
// the results ok accepts, for the k in ks that every task has enough
// samples for.
func passAtK(order []string, byTask map[string][]int, results []Result, ks []int, ok func(Result) bool) map[int]float64 {
	var ns, cs []int
	for _, task := range order {
		c := 0
		for _, i := range byTask[task] {
			if ok(results[i]) {
				c++
			}
		}
		ns = append(ns, len(byTask[task]))
		cs = append(cs, c)
	}
	out := map[int]float64{}
	for _, k := range ks {
		if passk.Reportable(ns, k) {
			out[k] = passk.Mean(ns, cs, k)
		}
	}
	return out
}

// taskLess orders task ids like "HumanEval/9" < "HumanEval/10".
func taskLess(a, b string) bool {
	pa, na := splitNum(a)
	pb, nb := splitNum(b)
	if pa != pb {
		return pa < pb
	}
	if na != nb {
		return na < nb
	}
	return a < b
}

func splitNum(s string) (string, int) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	n := 0
	for _, c := range s[i:] {
		n = n*10 + int(c-'0')
		if n > 1<<40 {
			break
		}
	}
	return s[:i], n
}
