package mcpserver

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestAskWhat: the next text of a question is one line, whatever the
// question's prompt looks like.
func TestAskWhat(t *testing.T) {
	for _, tc := range []struct {
		name string
		q    api.Question
		want string
	}{
		{"synthesized", api.Question{Input: "longest(['', 'a'])", Expected: "'a'", Choices: []string{"'a'", "''", "None"},
			Prompt: "longest(['', 'a']) == 'a' ?\n(what should longest(['', 'a']) return? the candidates return 'a', '', None)"},
			"whether longest(['', 'a']) should return 'a' (the candidates return 'a', '', None)"},
		{"call and value", api.Question{Input: "f(1)", Expected: "2", Prompt: "f(1) == 2 ?"}, "whether f(1) should return 2"},
		{"other test", api.Question{Prompt: "assert f(1) != 2\nassert f(2) > 0 ?"}, "whether this should hold: assert f(1) != 2; assert f(2) > 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := askWhat(&tc.q); got != tc.want {
				t.Errorf("askWhat = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTaskExample starts a session on the task the task argument's
// description gives as its example, with the recorded replay samples as
// the model: the example works as documented.
func TestTaskExample(t *testing.T) {
	dir := testutil.FullData(t, "humaneval/HumanEval-noexamples.jsonl", testutil.Recorded+"/codes.jsonl", testutil.Recorded+"/tests.jsonl")
	f, _ := reflect.TypeFor[SourceInput]().FieldByName("Task")
	m := regexp.MustCompile(`e\.g\. (\S+)`).FindStringSubmatch(f.Tag.Get("jsonschema"))
	if m == nil {
		t.Fatalf("no example in %q", f.Tag.Get("jsonschema"))
	}
	pool := testutil.Pool(t)
	prov, err := llm.OpenReplay(dir+"/"+testutil.Recorded, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, pool, Options{Builder: &interact.Builder{Runner: pool, DataDir: dir,
		Generator: &interact.ModelGenerator{Provider: prov, Caller: pool}}})
	cs := connect(t, s, &mcp.ClientOptions{})
	for _, mode := range []string{"passfail", "output"} {
		var st State
		if msg := call(t, cs, "start_clarification", SourceInput{Task: m[1], Mode: mode, Codes: 20, Tests: 20}, &st); msg != "" {
			t.Fatalf("task %s: %s", m[1], msg)
		}
		if st.Question == nil || strings.Contains(st.Next, "\n") {
			t.Errorf("task %s, mode %s: question %+v, next %q (want one line)", m[1], mode, st.Question, st.Next)
		}
	}
}
