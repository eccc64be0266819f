package generate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/generate/gentest"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

const prompt = "def f(x):\n    \"\"\"Return x.\"\"\"\n"

func TestCodeProblem(t *testing.T) {
	p := dataset.Problem{ID: "T/0", Prompt: prompt}
	tests := []struct {
		name       string
		continues  string
		style      extract.Style
		wantPrompt string
		wantStyle  extract.Style
	}{
		{"chat answer, no style chosen", "", "", prompt, extract.StyleAuto},
		{"chat answer, style chosen", "", extract.StyleFull, prompt, extract.StyleFull},
		{"continues the problem's prompt", "# header\n" + prompt, "", prompt, extract.StyleBody},
		{"continues a prompt that does not end with the problem's", prompt + "    # hint\n", "", prompt + "    # hint\n", extract.StyleBody},
		{"continuation with a chosen style", prompt, extract.StyleFull, prompt, extract.StyleFull},
		{"continuation, auto chosen", prompt, extract.StyleAuto, prompt, extract.StyleAuto},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, style := codeProblem(p, &llm.Generation{Continues: tc.continues}, tc.style)
			if got.Prompt != tc.wantPrompt || style != tc.wantStyle {
				t.Errorf("codeProblem = (prompt %q, %q), want (%q, %q)", got.Prompt, style, tc.wantPrompt, tc.wantStyle)
			}
			if got.ID != p.ID {
				t.Errorf("the problem's id changed to %q", got.ID)
			}
		})
	}
}

func TestTestOptions(t *testing.T) {
	tests := []struct {
		name      string
		continues string
		choices   []llm.Choice
		want      extract.TestOptions
	}{
		{"chat answers", "", []llm.Choice{{Text: "assert f(1) == 1", FinishReason: "stop"}, {Text: "assert f(2) == 2", FinishReason: "length"}},
			extract.TestOptions{Cut: []bool{false, true}}},
		{"recorded continuation of assert", prompt + "\ncheck(f)\nassert ", []llm.Choice{{Text: "f(1) == 1\n"}, {Text: "f(1) == 1\nassert f(2"}},
			extract.TestOptions{Prefix: "assert ", Cut: []bool{false, true}}},
		{"continuation after a newline has no prefix", prompt + "\n", []llm.Choice{{Text: "assert f(1) == 1"}},
			extract.TestOptions{Cut: []bool{true}}},
		{"blank last line is no prefix", prompt + "    ", []llm.Choice{{Text: "x\n", FinishReason: "stop"}},
			extract.TestOptions{Cut: []bool{false}}},
		{"server's stop is not cut", "assert ", []llm.Choice{{Text: "f(1) == 1", FinishReason: "stop"}},
			extract.TestOptions{Prefix: "assert ", Cut: []bool{false}}},
		{"no choices", "", nil, extract.TestOptions{Cut: []bool{}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := testOptions(&llm.Generation{Continues: tc.continues, Choices: tc.choices})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("testOptions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRawPrograms(t *testing.T) {
	p := dataset.Problem{Prompt: prompt}
	tests := []struct {
		name string
		raw  []string
		want []string
	}{
		{"bodies", []string{"    return x\n", "\n\treturn x\n"}, []string{prompt + "    return x\n", prompt + "\n\treturn x\n"}},
		{"most are bodies", []string{"    return x\n", "    return 1\n", "def f(x):\n    return x\n"},
			[]string{prompt + "    return x\n", prompt + "    return 1\n", prompt + "def f(x):\n    return x\n"}},
		{"half are bodies", []string{"    return x\n", "def f(x):\n    return x\n"}, nil},
		{"whole programs", []string{"def f(x):\n    return x\n"}, nil},
		{"only blank", []string{"", "\n  \n"}, nil},
		{"none", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := RawPrograms(p, Result{RawCodes: tc.raw})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("RawPrograms (-want +got):\n%s", diff)
			}
		})
	}
}

// fixtures returns the fixture problems named by ids and a replay
// provider of their recorded samples.
func fixtures(t *testing.T, ids ...string) ([]dataset.Problem, llm.Provider) {
	t.Helper()
	ps, _, prov := gentest.Replay(t, ids...)
	return ps, prov
}

// countingReporter counts the units added; safe for concurrent use.
type countingReporter struct{ n atomic.Int64 }

func (r *countingReporter) Start(string, int) {}
func (r *countingReporter) Add(n int)         { r.n.Add(int64(n)) }
func (r *countingReporter) Finish()           {}

func TestProblemReplay(t *testing.T) {
	ps, prov := fixtures(t, "HumanEval/0")
	runner := testutil.Pool(t)
	tests := []struct {
		name         string
		o            Options
		codes, tests int // raw samples
		asks         int
	}{
		{"both", Options{Codes: 10, Tests: 12, Temperature: DefaultTemperature, TopP: DefaultTopP}, 10, 12, 2},
		{"codes only", Options{Codes: 5}, 5, 0, 1},
		{"tests only", Options{Tests: 5}, 0, 5, 1},
		{"whole programs asked for", Options{Codes: 5, CodeStyle: extract.StyleFull}, 5, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var rep countingReporter
			r, err := Problem(context.Background(), prov, runner, ps[0], tc.o, &rep)
			if err != nil {
				t.Fatal(err)
			}
			if r.TaskID != "HumanEval/0" || len(r.RawCodes) != tc.codes || len(r.RawTests) != tc.tests || rep.n.Load() != int64(tc.asks) {
				t.Fatalf("got %s with %d raw codes, %d raw tests after %d answers; want %d, %d, %d",
					r.TaskID, len(r.RawCodes), len(r.RawTests), rep.n.Load(), tc.codes, tc.tests, tc.asks)
			}
			if r.Candidates == nil || r.Tests == nil {
				t.Error("nil slices in the result (gen writes them as null)")
			}
			if r.Stats.Codes.Samples != tc.codes || r.Stats.Codes.Unique != len(r.Candidates) || r.Stats.Tests.Unique != len(r.Tests) {
				t.Errorf("stats disagree with the result: %+v, %d candidates, %d tests", r.Stats, len(r.Candidates), len(r.Tests))
			}
			// The recorded samples are bodies: as bodies they extract; as
			// whole programs none does.
			if full := tc.o.CodeStyle == extract.StyleFull; tc.codes > 0 && (len(r.Candidates) == 0) != full {
				t.Errorf("%d candidates with code style %q", len(r.Candidates), tc.o.CodeStyle)
			}
			if tc.tests > 0 && len(r.Tests) == 0 {
				t.Error("no tests extracted from the recorded test samples")
			}
		})
	}
}

// TestProblemMatchesServer: a server that returns the recorded samples
// with finish reason "length" gives what the replay gives, as both are cut
// off alike.
func TestProblemMatchesServer(t *testing.T) {
	ps, replay := fixtures(t, "HumanEval/53")
	byPrompt := map[string][]string{}
	for _, name := range []string{"codes.jsonl", "tests.jsonl"} {
		for prompt, samples := range testutil.CodeTRows(t, filepath.Join(testutil.Fixtures(t), "samples", "humaneval-codegen16b", name)) {
			byPrompt[prompt] = samples
		}
	}
	samples := llmtest.Samples(byPrompt)
	srv := llmtest.New(t, llmtest.Config{Respond: func(c llmtest.Call) llmtest.Reply {
		r := samples(c)
		r.FinishReason = "length"
		return r
	}})
	live, err := llm.OpenString("vllm:codegen@"+srv.URL, llm.Options{Style: llm.StyleCompletion, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Codes: 8, Tests: 8, Temperature: DefaultTemperature, TopP: DefaultTopP}
	runner := testutil.Pool(t)
	want, err := Problem(context.Background(), replay, runner, ps[0], o, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Problem(context.Background(), live, runner, ps[0], o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("server result differs from replay (-replay +server):\n%s", diff)
	}
}

// TestProblemErrorStep: a failure names its step and keeps its cause's
// text and sentinel.
func TestProblemErrorStep(t *testing.T) {
	ps, replay := fixtures(t, "HumanEval/0")
	refused := llmtest.New(t, llmtest.Config{APIKey: "sekret"})
	denied, err := llm.OpenString("vllm:m@"+refused.URL, llm.Options{Style: llm.StyleCompletion, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	missing := ps[0]
	missing.ID, missing.Prompt = "HumanEval/9999", "def nothing_recorded():\n"
	tests := []struct {
		name     string
		prov     llm.Provider
		p        dataset.Problem
		sentinel error
	}{
		{"key refused", denied, ps[0], llm.ErrUnauthorized},
		{"no recording", replay, missing, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Problem(context.Background(), tc.prov, testutil.Pool(t), tc.p, Options{Codes: 2, Tests: 2}, nil)
			var ge *Error
			if !errors.As(err, &ge) || ge.Step != StepModel || err.Error() != ge.Err.Error() {
				t.Fatalf("err = %v, want an *Error of StepModel with its cause's text", err)
			}
			if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Errorf("err = %v, want one that is %v", err, tc.sentinel)
			}
		})
	}
}

func TestAllKeepsOrder(t *testing.T) {
	ps, prov := fixtures(t, "HumanEval/0", "HumanEval/85", "HumanEval/161")
	ps[0], ps[2] = ps[2], ps[0] // not the dataset's order
	ids := []string{"HumanEval/161", "HumanEval/85", "HumanEval/0"}
	var rep countingReporter
	rs, err := All(context.Background(), prov, testutil.Pool(t), ps, Options{Codes: 3, Tests: 3}, 3, &rep)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rs {
		got = append(got, r.TaskID)
	}
	if diff := cmp.Diff(ids, got); diff != "" || rep.n.Load() != int64(len(ids)) {
		t.Errorf("task ids (-want +got):\n%s; %d problems reported done, want %d", diff, rep.n.Load(), len(ids))
	}
	if tot := Totals(rs); tot.Codes.Samples != 9 || tot.Tests.Samples != 9 {
		t.Errorf("totals count %d code and %d test samples, want 9 each", tot.Codes.Samples, tot.Tests.Samples)
	}
}
