package mcpserver

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestBadArguments calls every tool with arguments it cannot use: each call
// is a tool error whose message says what is wrong, never a crash or a
// protocol error, and the server goes on serving. Values the human types
// are literals only: code is refused before anything runs.
func TestBadArguments(t *testing.T) {
	pool := testutil.Pool(t)
	s := newTestServer(t, pool, Options{})
	cs := connect(t, s, nil)
	var st State
	if msg := call(t, cs, "start_clarification", SourceInput{Demo: "median", Mode: "output"}, &st); msg != "" || st.Question == nil {
		t.Fatalf("start: %s %+v", msg, st)
	}
	id, q := st.SessionID, st.Question.Test
	for _, tc := range []struct {
		name, tool string
		args       any
		want       string
	}{
		{"no source", "clarify", map[string]any{}, "say what to write"},
		{"two sources", "clarify", map[string]any{"demo": "median", "stub": "def f(): pass"}, "only one of demo"},
		{"unknown demo", "clarify", map[string]any{"demo": "nope"}, "unknown demo"},
		{"description alone", "start_clarification", map[string]any{"description": "add two numbers"}, "signature"},
		{"bad mode", "clarify", map[string]any{"demo": "median", "mode": "loud"}, "mode"},
		{"too many codes", "clarify", map[string]any{"demo": "median", "codes": 1000}, "codes is 1000"},
		{"negative max", "clarify", map[string]any{"demo": "median", "max_questions": -1}, "max_questions is -1"},
		{"bad questions", "clarify", map[string]any{"demo": "median", "questions": "all"}, "questions"},
		{"wrong type", "clarify", map[string]any{"demo": 3}, "demo"},
		{"unknown field", "clarify", map[string]any{"demo": "median", "shell": "rm -rf /"}, "shell"},
		{"stub syntax error", "clarify", map[string]any{"stub": "def f(x:\n    pass"}, "stub"},
		{"stub too long", "clarify", map[string]any{"stub": strings.Repeat("#", maxStub+1)}, "limit"},
		{"task path", "clarify", map[string]any{"task": "../../etc/passwd"}, "unknown dataset"},
		{"no session", "answer_question", AnswerInput{SessionID: "nope", Question: q, Answer: "yes"}, "no such clarification session"},
		{"bad answer", "answer_question", AnswerInput{SessionID: id, Question: q, Answer: "maybe"}, "answer yes, no, invalid or output"},
		{"stale question", "answer_question", AnswerInput{SessionID: id, Question: q + 1000, Answer: "yes"}, "no longer open"},
		{"value with yes", "answer_question", AnswerInput{SessionID: id, Question: q, Answer: "yes", Value: "3"}, "only with answer output"},
		{"code as value", "answer_question", AnswerInput{SessionID: id, Question: q, Answer: "output", Value: "open('/etc/passwd').read()"}, "only literal values"},
		{"no value", "answer_question", AnswerInput{SessionID: id, Question: q, Answer: "output"}, "value is empty"},
		{"value too long", "answer_question", AnswerInput{SessionID: id, Question: q, Answer: "output", Value: strings.Repeat("1", maxValue+1)}, "limit"},
		{"undo nothing", "undo", SessionInput{SessionID: id}, "no answer to take back"},
		{"finish no session", "finish", map[string]any{"session_id": ""}, "no such clarification session"},
		{"finish bad candidate", "finish", map[string]any{"session_id": id, "candidate": 9999}, "no such remaining candidate"},
		{"check nothing", "check_code", CheckInput{Code: "x = 1"}, "either session_id"},
		{"check both", "check_code", CheckInput{Code: "x = 1", SessionID: id, Tests: []string{"assert True"}}, "either session_id"},
		{"check no entry", "check_code", CheckInput{Code: "x = 1", Tests: []string{"assert True"}, Entry: "1; import os"}, "entry_point"},
		{"quality no candidates", "estimate_quality", QualityInput{Prompt: "def f(): pass"}, "candidates"},
		{"quality no prompt", "estimate_quality", QualityInput{Candidates: []string{"def f(): pass"}}, "prompt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := call(t, cs, tc.tool, tc.args, nil)
			if msg == "" {
				t.Fatalf("%s %v: no tool error", tc.tool, tc.args)
			}
			if !strings.Contains(msg, tc.want) {
				t.Errorf("%s: message %q, want it to mention %q", tc.tool, msg, tc.want)
			}
		})
	}
	// The session is untouched by the refused calls (a failed finish
	// used to leave it stopped).
	var again State
	if msg := call(t, cs, "undo", SessionInput{SessionID: id}, nil); !strings.Contains(msg, "no answer") {
		t.Errorf("undo after refused answers: %q", msg)
	}
	if msg := call(t, cs, "answer_question", AnswerInput{SessionID: id, Question: q, Answer: "output", Value: "[1, 2]"}, &again); msg != "" {
		t.Errorf("a literal value after refused ones: %s", msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Errorf("the server stopped serving: %v", err)
	}
}

// TestElicitedAnswers checks how an elicited answer is read: only the
// labels offered count, a typed value must be there and is bounded, and
// candidate values become choices only when short, distinct and one line.
func TestElicitedAnswers(t *testing.T) {
	q := api.Question{Prompt: "f(1) == 2 ?", Input: "f(1)", Expected: "2", CanOutput: true, Choices: []string{"2", "3", "3", "'a\nb'", strings.Repeat("9", maxChoice+1)}}
	cs := choicesFor(q)
	var labels []string
	for _, c := range cs {
		labels = append(labels, c.label)
	}
	if want := []string{labelYes, labelNo, labelInvalid, "it should return 3", labelOther}; strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Errorf("choices %q, want %q", labels, want)
	}
	if n := len(choicesFor(api.Question{Prompt: "x ?"})); n != 3 {
		t.Errorf("a pass/fail question offers %d answers, want 3", n)
	}
	for _, tc := range []struct {
		name           string
		content        map[string]any
		verdict, value string
		bad            bool
	}{
		{"yes", map[string]any{"answer": labelYes}, "pass", "", false},
		{"no", map[string]any{"answer": labelNo}, "fail", "", false},
		{"invalid", map[string]any{"answer": labelInvalid}, "undefined", "", false},
		{"choice", map[string]any{"answer": "it should return 3"}, "output", "3", false},
		{"typed", map[string]any{"answer": labelOther, "value": " [1, 2] "}, "output", "[1, 2]", false},
		{"typed empty", map[string]any{"answer": labelOther, "value": "  "}, "", "", true},
		{"typed missing", map[string]any{"answer": labelOther}, "", "", true},
		{"typed too long", map[string]any{"answer": labelOther, "value": strings.Repeat("1", maxValue+1)}, "", "", true},
		{"not offered", map[string]any{"answer": "it should return 4"}, "", "", true},
		{"not a string", map[string]any{"answer": 3}, "", "", true},
		{"nothing", nil, "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, val, err := pick(tc.content, cs)
			if (err != nil) != tc.bad || v != tc.verdict || val != tc.value {
				t.Errorf("pick(%v) = %q, %q, %v", tc.content, v, val, err)
			}
		})
	}
}

// FuzzPick feeds arbitrary answers to pick: it never panics, and what it
// accepts is an offered verdict with a bounded value.
func FuzzPick(f *testing.F) {
	f.Add(labelYes, "")
	f.Add(labelOther, "[1, 2]")
	f.Add("it should return 3", "")
	f.Add(labelOther, "open('x').read()")
	cs := choicesFor(api.Question{Prompt: "f(1) == 2 ?", Expected: "2", CanOutput: true, Choices: []string{"2", "3"}})
	f.Fuzz(func(t *testing.T, answer, value string) {
		v, val, err := pick(map[string]any{"answer": answer, "value": value}, cs)
		if err != nil {
			return
		}
		if !map[string]bool{"pass": true, "fail": true, "undefined": true, "output": true}[v] || len(val) > maxValue || (v == "output") == (val == "") {
			t.Errorf("pick(%q, %q) = %q, %q", answer, value, v, val)
		}
	})
}

// FuzzLocalDir feeds arbitrary root URIs to localDir: it never panics and
// returns only absolute paths of existing directories.
func FuzzLocalDir(f *testing.F) {
	for _, s := range []string{"file:///tmp", "file://localhost/tmp", "file://evil/tmp", "http://x/", "file:relative", "file:///etc/passwd", "file:///tmp/../", "%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		d := localDir(uri)
		if d == "" {
			return
		}
		if !strings.HasPrefix(d, "/") || !strings.HasPrefix(uri, "file:") {
			t.Errorf("localDir(%q) = %q", uri, d)
		}
	})
}

// TestEstimateQuality ranks a correct candidate above wrong ones by the
// docstring's examples.
func TestEstimateQuality(t *testing.T) {
	s := newTestServer(t, testutil.Pool(t), Options{})
	cs := connect(t, s, &mcp.ClientOptions{})
	prompt := "def add(a: int, b: int) -> int:\n    \"\"\"Add two numbers.\n    >>> add(1, 2)\n    3\n    >>> add(-1, 1)\n    0\n    \"\"\"\n"
	var out QualityOutput
	if msg := call(t, cs, "estimate_quality", QualityInput{Prompt: prompt, Candidates: []string{
		"def add(a, b):\n    return a - b\n",
		"def add(a, b):\n    return a + b\n",
		"def add(a, b):\n    raise ValueError\n",
	}}, &out); msg != "" {
		t.Fatal(msg)
	}
	if len(out.Ranked) != 3 || out.Ranked[0].Index != 1 || out.Ranked[0].Score <= out.Ranked[1].Score || !strings.HasPrefix(out.Estimator, "agree") {
		t.Errorf("ranking %+v by %s: want candidate 1 first, strictly", out.Ranked, out.Estimator)
	}
}

// TestDemoListComplete: the demo argument's description names every
// built-in demo (the list is text in a struct tag).
func TestDemoListComplete(t *testing.T) {
	f, ok := reflect.TypeFor[SourceInput]().FieldByName("Demo")
	if !ok {
		t.Fatal("SourceInput has no Demo field")
	}
	tag := f.Tag.Get("jsonschema")
	for _, name := range demo.Names() {
		if !strings.Contains(tag, name) {
			t.Errorf("the demo description lacks %s: %q", name, tag)
		}
	}
}
