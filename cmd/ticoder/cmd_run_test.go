package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/testutil"
)

// runGlobals returns global options with a fresh cache and the test
// fixtures as the data directory.
func runGlobals(t *testing.T) *globalOptions {
	t.Helper()
	return &globalOptions{dataDir: testutil.Fixtures(t), cachePath: filepath.Join(t.TempDir(), "cache.db")}
}

// runDefaults returns run options with the flags' defaults.
func runDefaults(t *testing.T) *runOptions {
	t.Helper()
	o := &runOptions{out: t.TempDir()}
	o.flags = interactFlags{style: "chat", mode: "passfail", codes: 20, tests: 20, selectBy: "infogain", rankBy: "codet", timeout: 5 * time.Second}
	return o
}

// labelLines answers demo p by its labels on a twin conversation and
// returns the lines a user would type.
func labelLines(t *testing.T, p demo.Problem) ([]string, []string) {
	t.Helper()
	ctx := context.Background()
	pool, err := execute.NewPool(ctx, execute.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	prep, err := (&interact.Builder{Runner: pool}).Build(ctx, interact.Source{Demo: p.Name}, interact.Options{Mode: rank.PassFail, Select: "infogain", Rank: "codet"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := interact.Start(prep, pool)
	if err != nil {
		t.Fatal(err)
	}
	var lines, approved []string
	for {
		q, ok := c.Question()
		if !ok {
			return lines, approved
		}
		line, verdict := "y", "pass"
		switch {
		case q.Synthesized:
			// No label covers an input no test asked about: the reference answers.
			if verdict, _, err = p.AnswerCall(ctx, pool, "", q.Input, q.Expected, false); err != nil {
				t.Fatal(err)
			}
			line = map[string]string{"pass": "y", "fail": "n", "undefined": "d"}[verdict]
		case p.TestLabels[q.Test] == demo.Wrong:
			line, verdict = "n", "fail"
		case p.TestLabels[q.Test] == demo.Undefined:
			line, verdict = "d", "undefined"
		}
		if verdict == "pass" {
			approved = append(approved, q.Code)
		}
		if err := c.Answer(ctx, q.Test, verdict, ""); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
}

// docstringLines finds a triple-quoted docstring with its indentation and
// line end.
var docstringLines = regexp.MustCompile(`(?s)[ \t]*""".*?"""\n`)

func TestRunDemoScripted(t *testing.T) {
	p, _ := demo.Get("first_missing")
	lines, approved := labelLines(t, p)
	o := runDefaults(t)
	o.demo = p.Name
	var out, errw bytes.Buffer
	in := strings.NewReader(strings.Join(lines, "\n") + "\n\n")
	if err := runRun(context.Background(), runGlobals(t), o, in, &out, &errw); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	code, err := os.ReadFile(filepath.Join(o.out, "first_missing.py"))
	if err != nil {
		t.Fatal(err)
	}
	tests, err := os.ReadFile(filepath.Join(o.out, "test_first_missing.py"))
	if err != nil {
		t.Fatal(err)
	}
	// The written code is a candidate with the stub's docstring.
	doc := docstringLines.FindString(p.Stub)
	if doc == "" || !strings.Contains(string(code), doc) {
		t.Errorf("the written code lacks the stub's docstring %q:\n%s", doc, code)
	}
	found := false
	for i, c := range p.Candidates {
		if c.Program == strings.Replace(string(code), doc, "", 1) {
			found = true
			if p.CandidateLabels[i] != demo.Correct {
				t.Errorf("wrote buggy candidate %d (%s)", i, p.CandidateNotes[i])
			}
		}
	}
	if !found {
		t.Errorf("wrote code that is no candidate:\n%s", code)
	}
	for _, a := range approved {
		if !strings.Contains(string(tests), a) {
			t.Errorf("test file lacks approved %q:\n%s", a, tests)
		}
	}
	if !strings.Contains(out.String(), "Checked in the sandbox: all") {
		t.Errorf("output:\n%s", out.String())
	}
}

// TestRunReplayTask runs a HumanEval task with the recorded generations of a
// real model, offline: the model path end to end.
func TestRunReplayTask(t *testing.T) {
	g := runGlobals(t)
	o := runDefaults(t)
	o.task = "humaneval-noexamples/HumanEval/53"
	o.flags.model = "replay:" + filepath.Join(g.dataDir, "samples", "humaneval-codegen16b")
	o.flags.style = "completion"
	o.flags.codes, o.flags.tests = 100, 100
	var out, errw bytes.Buffer
	if err := runRun(context.Background(), g, o, strings.NewReader("q\n\n"), &out, &errw); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	code, err := os.ReadFile(filepath.Join(o.out, "add.py"))
	if err != nil || !strings.Contains(string(code), "def add(") {
		t.Errorf("add.py: %v\n%s\n%s", err, code, out.String())
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.py")
	if err := os.WriteFile(broken, []byte("import re\n\ndef f(x)\n    \"\"\"Doc.\"\"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.py")
	if err := os.WriteFile(good, []byte("def double(x: int) -> int:\n    \"\"\"Return x doubled.\"\"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	taken := t.TempDir()
	if err := os.WriteFile(filepath.Join(taken, "median.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "vllm:m@http://" + ln.Addr().String() + "/v1"
	ln.Close()
	tests := []struct {
		name  string
		set   func(o *runOptions)
		usage bool
		says  []string
	}{
		{"no source", func(o *runOptions) {}, true, []string{"say what to write"}},
		{"prompt without signature", func(o *runOptions) { o.prompt = "Add one." }, true, []string{"--signature"}},
		{"two sources", func(o *runOptions) { o.demo, o.task = "median", "mbpp/2" }, true, []string{"only one"}},
		{"bad mode", func(o *runOptions) { o.demo, o.flags.mode = "median", "loud" }, true, []string{"unknown mode"}},
		{"missing spec", func(o *runOptions) { o.spec = filepath.Join(dir, "nope.py") }, false, []string{"read the spec file", "nope.py"}},
		{"spec syntax error", func(o *runOptions) { o.spec = broken }, false, []string{"spec file " + broken + " is not valid Python (line 3", "def f(x)"}},
		{"spec without model", func(o *runOptions) { o.spec = good }, false, []string{"--model"}},
		{"model down", func(o *runOptions) { o.spec, o.flags.model = good, dead }, false, []string{"did not answer", "--demo"}},
		{"output exists", func(o *runOptions) { o.demo, o.out = "median", taken }, true, []string{"median.py exists", "--force"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := runDefaults(t)
			tc.set(o)
			var out, errw bytes.Buffer
			err := runRun(context.Background(), runGlobals(t), o, strings.NewReader(""), &out, &errw)
			if err == nil {
				t.Fatal("no error")
			}
			var u usageError
			if errors.As(err, &u) != tc.usage {
				t.Errorf("usage error %v, want %v: %v", errors.As(err, &u), tc.usage, err)
			}
			for _, s := range tc.says {
				if msg := cliMessage(err); !strings.Contains(msg, s) {
					t.Errorf("error %q does not say %q", msg, s)
				}
			}
		})
	}
}

// TestRunOutDirCheckedFirst: an --out that cannot be created fails before
// the first question, not after the user has answered them all.
func TestRunOutDirCheckedFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	o := runDefaults(t)
	o.demo, o.out = "median", filepath.Join(file, "sub")
	var out, errw bytes.Buffer
	err := runRun(context.Background(), runGlobals(t), o, strings.NewReader("y\n"), &out, &errw)
	if err == nil || !strings.Contains(err.Error(), "create the output directory") || !strings.Contains(err.Error(), "--out") {
		t.Errorf("error %v, want one about the output directory naming --out", err)
	}
	if strings.Contains(out.String(), "Question") {
		t.Errorf("questions were asked before the output directory was checked:\n%s", out.String())
	}
}

func TestRunListDemos(t *testing.T) {
	o := runDefaults(t)
	o.demo = "list"
	var out bytes.Buffer
	if err := runRun(context.Background(), runGlobals(t), o, nil, &out, &out); err != nil {
		t.Fatal(err)
	}
	for _, name := range demo.Names() {
		if !strings.Contains(out.String(), name) {
			t.Errorf("list lacks %s:\n%s", name, out.String())
		}
	}
}

// TestRunDefaultOutputIsNewDirectoryPerRun: without --out, run writes
// nothing into the current directory; each run gets a new directory, named
// in the output, and a second run does not collide with the first.
func TestRunDefaultOutputIsNewDirectoryPerRun(t *testing.T) {
	data, cwd := t.TempDir(), t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	t.Chdir(cwd)
	p, _ := demo.Get("text_match")
	lines, _ := labelLines(t, p)
	g := runGlobals(t)
	var dirs []string
	for run := 1; run <= 2; run++ {
		o := runDefaults(t)
		o.out, o.demo = "", p.Name
		var out, errw bytes.Buffer
		if err := runRun(context.Background(), g, o, strings.NewReader(strings.Join(lines, "\n")+"\n\n"), &out, &errw); err != nil {
			t.Fatalf("run %d: %v\n%s%s", run, err, out.String(), errw.String())
		}
		matches, _ := filepath.Glob(filepath.Join(data, "ticoder", "runs", "text_match-*", "text_match.py"))
		if len(matches) != run {
			t.Fatalf("after run %d: %d run directories with text_match.py, want %d", run, len(matches), run)
		}
		dirs = matches
		if !strings.Contains(out.String(), "Wrote "+filepath.Join(data, "ticoder", "runs", "text_match-")) {
			t.Errorf("run %d does not say where it wrote:\n%s", run, out.String())
		}
	}
	if dirs[0] == dirs[1] {
		t.Errorf("both runs wrote %s", dirs[0])
	}
	if entries, _ := os.ReadDir(cwd); len(entries) != 0 {
		t.Errorf("run wrote into the current directory: %v", entries)
	}
}

// TestRunStdinEnds: with stdin at its end before the first answer nothing
// is written (nobody approved anything); when it ends after some answers,
// the top-ranked candidate is written and run says so.
func TestRunStdinEnds(t *testing.T) {
	cases := []struct {
		name    string
		input   string
		wrote   bool
		wantErr string
		stderr  string
	}{
		{"no answer", "", false, "stdin ended before the first answer", ""},
		{"one answer", "y\n", true, "", "stdin ended after 1 answer, before a candidate was chosen: writing the top-ranked one"},
		{"answers and a choice", "q\n1\n", true, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := runDefaults(t)
			o.demo = "text_match"
			var out, errw bytes.Buffer
			err := runRun(context.Background(), runGlobals(t), o, strings.NewReader(c.input), &out, &errw)
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Errorf("err = %v, want %q", err, c.wantErr)
			}
			_, statErr := os.Stat(filepath.Join(o.out, "text_match.py"))
			if wrote := statErr == nil; wrote != c.wrote {
				t.Errorf("text_match.py written = %v, want %v\n%s", wrote, c.wrote, out.String())
			}
			if c.stderr != "" && !strings.Contains(errw.String(), c.stderr) || c.stderr == "" && strings.Contains(errw.String(), "stdin ended") {
				t.Errorf("stderr %q, want %q", errw.String(), c.stderr)
			}
		})
	}
}

// TestRunQuitKeepsSession: quitting without writing asks first, exits 1
// (nothing written), keeps the answers in a session file and says how to
// resume; --resume takes the session up and writes the code with the
// approved test, then removes the file.
func TestRunQuitKeepsSession(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	o := runDefaults(t)
	o.demo = "text_match"
	var out, errw bytes.Buffer
	err := runRun(context.Background(), runGlobals(t), o, strings.NewReader("y\nq\nq\nn\nq\ny\n"), &out, &errw)
	if !errors.Is(err, errNothingWritten) || exitCode(err, &bytes.Buffer{}) != 1 {
		t.Fatalf("err = %v (exit %d), want %v (exit 1)\n%s", err, exitCode(err, &bytes.Buffer{}), errNothingWritten, out.String())
	}
	if n := strings.Count(out.String(), "Quit without writing the code? Your 1 answer will be kept"); n != 2 {
		t.Errorf("asked %d times before quitting, want 2 (the first refused):\n%s", n, out.String())
	}
	_, path, ok := strings.Cut(errw.String(), "resume with ticoder run --resume ")
	path = strings.TrimSpace(path)
	if !ok || !strings.HasPrefix(path, os.Getenv("XDG_DATA_HOME")) {
		t.Fatalf("stderr does not say how to resume: %q", errw.String())
	}
	if _, err := os.Stat(filepath.Join(o.out, "text_match.py")); err == nil {
		t.Error("the code was written after quitting")
	}

	r := runDefaults(t)
	r.resume = path
	out.Reset()
	errw.Reset()
	if err := runRun(context.Background(), runGlobals(t), r, strings.NewReader("\n"), &out, &errw); err != nil {
		t.Fatalf("resume: %v\n%s\n%s", err, out.String(), errw.String())
	}
	tests, err := os.ReadFile(filepath.Join(r.out, "test_text_match.py"))
	if err != nil || !strings.Contains(out.String(), "1 approved test") {
		t.Errorf("after resuming: %v\n%s\n%s", err, out.String(), tests)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("the session file %s is left after the code was written", path)
	}
}
