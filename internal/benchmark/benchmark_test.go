package benchmark

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/eval"
	"github.com/ticoder/ticoder/internal/generate"
	"github.com/ticoder/ticoder/internal/generate/gentest"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/store"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

func TestFatalForRun(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"problem's own error", context.Background(), errors.New("no recorded code for HumanEval/1"), false},
		{"interrupted run", canceled, errors.New("anything"), true},
		{"canceled", context.Background(), fmt.Errorf("generate: %w", context.Canceled), true},
		{"deadline", context.Background(), context.DeadlineExceeded, true},
		{"unreachable model", context.Background(), fmt.Errorf("generate HumanEval/0: %w", llm.ErrUnreachable), true},
		{"key refused", context.Background(), llm.ErrUnauthorized, true},
		{"no such model", context.Background(), llm.ErrModelNotFound, true},
		{"rate limited", context.Background(), llm.ErrRateLimited, true},
		{"server error", context.Background(), llm.ErrServer, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := FatalForRun(tc.ctx, tc.err); got != tc.want {
				t.Errorf("FatalForRun(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

func TestShortModel(t *testing.T) {
	tests := map[string]string{
		"replay:/data/samples/humaneval-codegen16b/": "replay:humaneval-codegen16b",
		"replay:rec":              "replay:rec",
		"ollama:qwen2.5-coder:7b": "ollama:qwen2.5-coder:7b",
	}
	for in, want := range tests {
		if got := shortModel(in); got != want {
			t.Errorf("shortModel(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGenKey: every setting that changes what is generated changes the
// key; the output directory, the jobs and the strategies do not.
func TestGenKey(t *testing.T) {
	p := dataset.Problem{ID: "HumanEval/0", Prompt: "def f():\n"}
	base := Config{Model: "replay:x", Style: "completion", Generate: generate.Options{Codes: 20, Tests: 20, Temperature: 0.8, TopP: 0.95}, Dir: "a", Jobs: 1}
	key := GenKey(base, p)
	tests := []struct {
		name string
		edit func(c *Config, p *dataset.Problem)
		same bool
	}{
		{"model", func(c *Config, _ *dataset.Problem) { c.Model = "replay:y" }, false},
		{"style", func(c *Config, _ *dataset.Problem) { c.Style = "chat" }, false},
		{"codes", func(c *Config, _ *dataset.Problem) { c.Generate.Codes = 21 }, false},
		{"tests", func(c *Config, _ *dataset.Problem) { c.Generate.Tests = 21 }, false},
		{"temperature", func(c *Config, _ *dataset.Problem) { c.Generate.Temperature = 0.2 }, false},
		{"top-p", func(c *Config, _ *dataset.Problem) { c.Generate.TopP = 1 }, false},
		{"problem", func(_ *Config, p *dataset.Problem) { p.Prompt += "    pass\n" }, false},
		{"output directory", func(c *Config, _ *dataset.Problem) { c.Dir = "b" }, true},
		{"jobs", func(c *Config, _ *dataset.Problem) { c.Jobs = 4 }, true},
		{"strategies", func(c *Config, _ *dataset.Problem) { c.Eval.Selectors = []string{"random"} }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, q := base, p
			tc.edit(&c, &q)
			if got := GenKey(c, q) == key; got != tc.same {
				t.Errorf("key unchanged = %v, want %v", got, tc.same)
			}
		})
	}
}

func TestPriors(t *testing.T) {
	runner := testutil.Pool(t)
	tests := []struct {
		name    string
		rankers []string
		want    []string // the priors built
		err     error
	}{
		{"none", []string{"passing", "codet"}, nil, nil},
		{"agree once for two strategies", []string{"passing+qe:agree", "qe:agree", "codet+qe:tls"}, []string{"qe:agree", "qe:tls"}, nil},
		{"needs a pool", []string{"passing+qe:knn"}, nil, ErrNeedsSetup},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Priors(context.Background(), tc.rankers, runner)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			var pe *PriorError
			if tc.err != nil && (!errors.As(err, &pe) || pe.Spec != tc.rankers[0] || pe.Estimator != "knn") {
				t.Errorf("err = %#v, want a *PriorError naming %s and knn", err, tc.rankers[0])
			}
			var names []string
			for name := range got {
				names = append(names, name)
			}
			if diff := cmp.Diff(tc.want, names, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("priors (-want +got):\n%s", diff)
			}
		})
	}
}

// testConfig is a small replayed benchmark of the fixture problems ids.
func testConfig(t *testing.T, dir string, ids ...string) (Config, Env) {
	t.Helper()
	ps, model, prov := gentest.Replay(t, ids...)
	db, err := store.Open(filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg := Config{
		Dataset: gentest.Dataset, Problems: ps, Model: model, Style: "completion",
		Generate: generate.Options{Codes: 10, Tests: 10, Temperature: generate.DefaultTemperature, TopP: generate.DefaultTopP},
		Eval: eval.Config{Modes: []rank.Mode{rank.PassFail}, Selectors: []string{"discr"}, Rankers: []string{"passing"},
			Protect: []bool{false}, MaxQuestions: 1, Ks: []int{1}, BaselineKs: []int{1, 100}, Seed: 1},
		Limits: eval.Limits{}.WithDefaults(), Dir: dir, Jobs: 2, Started: time.Now(),
	}
	return cfg, Env{Provider: prov, Runner: testutil.Pool(t), DB: db}
}

// TestRunResumesAndReportsFailures: a problem without a recording fails on
// its own and is reported; a rerun resumes the rest, and other settings
// are refused.
func TestRunResumesAndReportsFailures(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg, env := testConfig(t, dir, "HumanEval/0", "HumanEval/1")
	var heard []string
	env.Failed = func(id string, err error, n int) { heard = append(heard, fmt.Sprintf("%d %s", n, id)) }
	plan, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Resumed() != 0 {
		t.Errorf("a fresh directory resumes %d problems", plan.Resumed())
	}
	out, err := plan.Run(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"1 HumanEval/1"}, heard); diff != "" {
		t.Errorf("failures heard (-want +got):\n%s", diff)
	}
	if len(out.Failed) != 1 || out.Failed[0].ID != "HumanEval/1" || !strings.Contains(out.Failed[0].Error, "no recorded code") {
		t.Errorf("failed = %+v, want HumanEval/1 without a recording", out.Failed)
	}
	if out.Summary.Problems != 1 {
		t.Errorf("the summary counts %d problems, want 1", out.Summary.Problems)
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"TiCoder on humaneval-noexamples with replay:humaneval-codegen16b", "10 code and 10 test samples per problem",
		"protect-correct: off (strict only)", "baseline pass@k left out for k = 100: a problem has only 10 samples",
		"FAILED, left out of every figure (a rerun retries it): HumanEval/1: "} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}

	again, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if again.Resumed() != 1 || again.ResultsFile() != filepath.Join(dir, "results.jsonl") {
		t.Errorf("rerun resumes %d problems from %s, want 1 from results.jsonl", again.Resumed(), again.ResultsFile())
	}
	other := cfg
	other.Generate.Codes = 11
	if _, err := New(other); !errors.Is(err, eval.ErrOtherSettings) {
		t.Errorf("New with other settings: %v, want ErrOtherSettings", err)
	}
}

// TestRunBrokenReference: a problem whose reference solution fails its own
// hidden tests (MBJP has such tasks) is not applicable: reported apart,
// not a failure that a rerun would retry.
func TestRunBrokenReference(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg, env := testConfig(t, dir, "HumanEval/0")
	cfg.Problems[0].Reference = cfg.Problems[0].Prompt + "    return None\n"
	env.Failed = func(id string, err error, n int) { t.Errorf("heard of a failure: %s: %v", id, err) }
	plan, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	out, err := plan.Run(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Failed) != 0 || len(out.NotApplicable) != 1 || out.NotApplicable[0].ID != "HumanEval/0" ||
		!strings.Contains(out.NotApplicable[0].Error, "fails its hidden tests") {
		t.Errorf("failed %+v, not applicable %+v; want HumanEval/0 not applicable", out.Failed, out.NotApplicable)
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "not applicable, left out of every figure: HumanEval/0: ") {
		t.Errorf("summary.md does not say HumanEval/0 is not applicable:\n%s", md)
	}
}
