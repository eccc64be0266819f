package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/llm/llmtest"
)

// doublingModel is a fake model for `def f(x: int) -> int` ("Return x
// doubled."): its first programs are all wrong, its one test is
// `assert f(1) == 3`, and asked again with tests the code must pass, it
// writes the right program.
func doublingModel(c llmtest.Call) llmtest.Reply {
	text := c.Text()
	fence := func(code string) string { return "```python\n" + code + "```\n" }
	switch {
	case strings.Contains(text, "It must pass these tests:"):
		return llmtest.Reply{Texts: []string{fence("def f(x: int) -> int:\n    return x * 2\n")}}
	case strings.Contains(text, "Implement the Python function `f`"):
		return llmtest.Reply{Texts: []string{
			fence("def f(x: int) -> int:\n    return x * 2 + 1\n"),
			fence("def f(x: int) -> int:\n    return x * 2 + 2\n"),
		}}
	case strings.Contains(text, "Write 10 different tests"):
		return llmtest.Reply{Texts: []string{fence("assert f(1) == 3\n")}}
	}
	return llmtest.Reply{Status: http.StatusBadRequest, ErrorMessage: "unexpected request"}
}

// TestRunRegenerates drives `ticoder run` with a fake model whose
// candidates all disagree with the user's answer (f(1) should return 2).
// With rounds of new candidates, the model is asked again with the
// approved test in the prompt, and the new candidate is run, agrees, and is
// written with the test, which passes. Without, the closest candidate is
// kept and run says the code does not yet pass the approved test. No path
// says "start again".
func TestRunRegenerates(t *testing.T) {
	stub := filepath.Join(t.TempDir(), "f.py")
	if err := os.WriteFile(stub, []byte("def f(x: int) -> int:\n    \"\"\"Return x doubled.\"\"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name       string
		regenerate int
		asked      int // requests with tests to pass
		code       string
		says       []string
	}{
		{"a round", 2, 1, "return x * 2\n", []string{
			"No candidate agreed with all your answers, so the model wrote 1 new candidate with your approved tests",
			"Checked in the sandbox: the test passes"}},
		{"no rounds", 0, 0, "return x * 2 + ", []string{
			"No candidate agrees with all your answers", "Undo an answer, or keep the closest candidate",
			"the code does not yet pass 1 approved test"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Config{Respond: doublingModel})
			o := runDefaults(t)
			o.spec = stub
			o.flags.model = "vllm:m@" + srv.URL
			o.flags.mode, o.flags.questions, o.flags.regenerate = "output", "tests", tc.regenerate
			var out, errw bytes.Buffer
			// The one question is f(1) == 3 ?; the user says it should be 2,
			// then takes the first candidate.
			if err := runRun(context.Background(), runGlobals(t), o, strings.NewReader("o 2\n\n"), &out, &errw); err != nil {
				t.Fatalf("run: %v\n%s\n%s", err, out.String(), errw.String())
			}
			var asked []string
			for _, c := range srv.Calls() {
				if text := c.Text(); strings.Contains(text, "It must pass these tests:") {
					asked = append(asked, text)
					if !strings.Contains(text, "```python\nassert f(1) == 2\n```") {
						t.Errorf("the request for new candidates lacks the approved test:\n%s", text)
					}
					if !strings.Contains(string(c.Body), "It must pass these tests:") {
						t.Errorf("the request body lacks the tests: %s", c.Body)
					}
				}
			}
			if len(asked) != tc.asked {
				t.Errorf("%d requests with the approved tests, want %d", len(asked), tc.asked)
			}
			code, err := os.ReadFile(filepath.Join(o.out, "f.py"))
			if err != nil || !strings.Contains(string(code), tc.code) {
				t.Errorf("f.py (%v):\n%s\nwant it to hold %q\n%s", err, code, tc.code, out.String())
			}
			tests, err := os.ReadFile(filepath.Join(o.out, "test_f.py"))
			if err != nil || !strings.Contains(string(tests), "assert f(1) == 2") {
				t.Errorf("test_f.py lacks the approved test (%v):\n%s", err, tests)
			}
			all := out.String() + errw.String()
			for _, s := range tc.says {
				if !strings.Contains(all, s) {
					t.Errorf("output does not say %q:\n%s", s, all)
				}
			}
			if strings.Contains(strings.ToLower(all), "start again") {
				t.Errorf("output says start again:\n%s", all)
			}
		})
	}
}
