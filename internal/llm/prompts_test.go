package llm_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestCompletionPromptsMatchRecordedData checks that the completion-style
// prompts are exactly those the recorded CodeGen samples were generated
// from, for all 164 problems (the fixtures' few without the full data).
func TestCompletionPromptsMatchRecordedData(t *testing.T) {
	testutil.ForEachData(t, checkCompletionPrompts, recordedFiles...)
}

// checkCompletionPrompts renders the prompts of the recorded problems in d
// and compares them with the recorded ones.
func checkCompletionPrompts(t *testing.T, d testutil.Data) {
	f, err := os.Open(filepath.Join(d.Dir, filepath.FromSlash(testutil.Recorded), "test-prompts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recorded := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var row struct {
			TaskID string `json:"task_id"`
			Prompt string `json:"prompt"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		recorded[row.TaskID] = row.Prompt
	}
	prompts := llm.DefaultPrompts()
	for _, prob := range recordedProblems(t, d) {
		task := llm.TaskFrom(prob)
		code, err := prompts.Render(llm.Request{Purpose: llm.PurposeCode, Task: task}, llm.StyleCompletion)
		if err != nil {
			t.Fatal(err)
		}
		if code.Prompt != prob.Prompt {
			t.Fatalf("%s: code prompt differs from the dataset prompt:\n%q", prob.ID, code.Prompt)
		}
		tests, err := prompts.Render(llm.Request{Purpose: llm.PurposeTests, Task: task}, llm.StyleCompletion)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(recorded[prob.ID], tests.Prompt); diff != "" {
			t.Fatalf("%s: test prompt (-recorded +rendered):\n%s", prob.ID, diff)
		}
	}
}

func TestChatPrompts(t *testing.T) {
	p := llm.DefaultPrompts()
	tests := []struct {
		purpose llm.Purpose
		want    []string
	}{
		{llm.PurposeCode, []string{"```python\n" + strings.TrimRight(humanEval0.Prompt, "\n") + "\n```", "`has_close_elements`", "single ```python code block"}},
		{llm.PurposeTests, []string{"    pass\n```", "assert has_close_elements(...) == ...", "do not implement"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.purpose), func(t *testing.T) {
			req, err := p.Render(llm.Request{Purpose: tt.purpose, Task: humanEval0}, llm.StyleChat)
			if err != nil {
				t.Fatal(err)
			}
			if len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" || req.Prompt != "" {
				t.Fatalf("messages = %+v, prompt %q", req.Messages, req.Prompt)
			}
			for _, w := range tt.want {
				if !strings.Contains(req.Messages[1].Content, w) {
					t.Errorf("user message lacks %q:\n%s", w, req.Messages[1].Content)
				}
			}
		})
	}
}

func TestPromptOverrides(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "prompts.tmpl")
	writeFile(t, dir, "prompts.tmpl", `{{define "code_chat_system"}}{{""}}{{end}}{{define "code_chat_user"}}Write {{.EntryPoint}} ({{.ID}}).{{end}}`)
	p, err := llm.LoadPrompts(path)
	if err != nil {
		t.Fatal(err)
	}
	req, err := p.Render(llm.Request{Purpose: llm.PurposeCode, Task: humanEval0}, llm.StyleChat)
	if err != nil {
		t.Fatal(err)
	}
	// A system block that renders to nothing (an empty body would not
	// replace the default: text/template's rule) sends no system message;
	// the other blocks keep their defaults.
	want := []llm.Message{{Role: "user", Content: "Write has_close_elements (HumanEval/0)."}}
	if diff := cmp.Diff(want, req.Messages); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	tests, err := p.Render(llm.Request{Purpose: llm.PurposeTests, Task: humanEval0}, llm.StyleCompletion)
	if err != nil || !strings.HasSuffix(tests.Prompt, "# check the correctness of has_close_elements\nassert ") {
		t.Errorf("default tests prompt lost: %q, %v", tests.Prompt, err)
	}

	for _, bad := range []struct{ text, want string }{
		{`{{define "code_user"}}x{{end}}`, `unknown prompt template "code_user"`},
		{`{{define "code_chat_user"}}{{.Nope}}{{end}}`, ""},
		{`{{define "code_chat_user"}}{{if}}{{end}}`, "parse prompt templates"},
	} {
		p, err := llm.ParsePrompts(bad.text)
		if bad.want != "" {
			if err == nil || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("ParsePrompts(%q) err = %v, want %q", bad.text, err, bad.want)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Render(llm.Request{Purpose: llm.PurposeCode, Task: humanEval0}, llm.StyleChat); err == nil || !strings.Contains(err.Error(), "Nope") {
			t.Errorf("rendering a template with an unknown field: err = %v", err)
		}
	}
	if _, err := llm.LoadPrompts(filepath.Join(dir, "missing.tmpl")); err == nil {
		t.Error("LoadPrompts of a missing file succeeded")
	}
}

func TestPrepareDefaults(t *testing.T) {
	c, _ := clientFor(t, nil, "vllm:m@http://127.0.0.1:1/v1", llm.Options{Style: llm.StyleCompletion})
	tests := []struct {
		name string
		req  llm.Request
		want llm.Request
	}{
		{name: "judge chat keeps its messages and server defaults",
			req:  llm.Request{Messages: []llm.Message{{Role: "user", Content: "q"}}, Prompt: "ignored? no: kept for completion style"},
			want: llm.Request{Purpose: llm.PurposeOther, Prompt: "ignored? no: kept for completion style", Params: llm.Params{N: 1, Stop: []string{}}}},
		{name: "explicit empty stop list is kept",
			req:  llm.Request{Purpose: llm.PurposeCode, Task: humanEval0, Params: llm.Params{N: 4, MaxTokens: 50, Stop: []string{}}},
			want: llm.Request{Purpose: llm.PurposeCode, Task: humanEval0, Prompt: humanEval0.Prompt, Params: llm.Params{N: 4, MaxTokens: 50, Stop: []string{}}}},
		{name: "code defaults",
			req: llm.Request{Purpose: llm.PurposeCode, Task: humanEval0},
			want: llm.Request{Purpose: llm.PurposeCode, Task: humanEval0, Prompt: humanEval0.Prompt,
				Params: llm.Params{N: 1, MaxTokens: llm.DefaultMaxTokensCode, Stop: llm.DefaultStop(llm.PurposeCode, llm.StyleCompletion)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Prepare(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Prepare (-want +got):\n%s", diff)
			}
			again, _ := c.Prepare(got)
			if diff := cmp.Diff(got, again); diff != "" {
				t.Errorf("Prepare is not idempotent (-once +twice):\n%s", diff)
			}
		})
	}
	if _, err := c.Prepare(llm.Request{}); err == nil {
		t.Error("Prepare of an empty request succeeded")
	}
}

// TestCodePromptsShowTests: the code prompts show the tests the code must
// pass (Task.Tests) in every style and language, and a task without tests
// renders byte for byte as before the field existed (testdata holds those
// templates), so that cached answers stay valid.
func TestCodePromptsShowTests(t *testing.T) {
	before, err := llm.LoadPrompts(filepath.Join("testdata", "prompts-without-tests.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	java := llm.Task{ID: "MBJP/1", EntryPoint: "add", Language: "java",
		Prompt: "class Add {\n    /** Add a and b. */\n    public static int add(int a, int b) {\n"}
	pyTests := []string{"assert has_close_elements([1.0, 2.0], 0.5) == False", "xs = [1.0, 1.2]\nassert has_close_elements(xs, 0.5) == True\n"}
	javaTests := []string{"assertEquals(3, add(1, 2));"}
	tests := []struct {
		name  string
		task  llm.Task
		tests []string
		style llm.Style
		want  []string
	}{
		{"python chat", humanEval0, pyTests, llm.StyleChat, []string{
			"```\n\nIt must pass these tests:\n\n```python\nassert has_close_elements([1.0, 2.0], 0.5) == False\nxs = [1.0, 1.2]\nassert has_close_elements(xs, 0.5) == True\n```\n\nAnswer with one complete definition"}},
		{"python completion", humanEval0, pyTests, llm.StyleCompletion, []string{
			"# It must pass these tests:\n# assert has_close_elements([1.0, 2.0], 0.5) == False\n# xs = [1.0, 1.2]\n# assert has_close_elements(xs, 0.5) == True\n" + humanEval0.Prompt}},
		{"java chat", java, javaTests, llm.StyleChat, []string{"```\n\nIt must pass these tests:\n\n```java\nassertEquals(3, add(1, 2));\n```\n\nAnswer with the complete class"}},
		{"java completion", java, javaTests, llm.StyleCompletion, []string{"// It must pass these tests:\n// assertEquals(3, add(1, 2));\n" + java.Prompt}},
	}
	text := func(r llm.Request) string {
		if r.Prompt != "" {
			return r.Prompt
		}
		return r.Messages[len(r.Messages)-1].Content
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, purpose := range []llm.Purpose{llm.PurposeCode, llm.PurposeTests} {
				got, err := llm.DefaultPrompts().Render(llm.Request{Purpose: purpose, Task: tt.task}, tt.style)
				if err != nil {
					t.Fatal(err)
				}
				want, err := before.Render(llm.Request{Purpose: purpose, Task: tt.task}, tt.style)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s without tests differs from before (-before +now):\n%s", purpose, diff)
				}
			}
			task := tt.task
			task.Tests = tt.tests
			got, err := llm.DefaultPrompts().Render(llm.Request{Purpose: llm.PurposeCode, Task: task}, tt.style)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(text(got), w) {
					t.Errorf("prompt lacks %q:\n%s", w, text(got))
				}
			}
			if tt.style == llm.StyleCompletion && !strings.HasSuffix(got.Prompt, tt.task.Prompt) {
				t.Errorf("the completion prompt does not end with the task's prompt, so the completion would not continue it:\n%s", got.Prompt)
			}
		})
	}
	b, err := json.Marshal(humanEval0)
	if err != nil || strings.Contains(string(b), "tests") {
		t.Errorf("a task without tests encodes as %s (%v): cache keys would change", b, err)
	}
}

// TestMethodPrompts renders the prompts of a method (entry point
// CLASS().METHOD or CLASS.METHOD): they name the method and its class, and
// the test prompts ask for calls of its stand-in, CLASS_METHOD.
func TestMethodPrompts(t *testing.T) {
	prompt := "class Cart:\n    def total(self, xs):\n        \"\"\"Sum xs.\"\"\"\n"
	tests := []struct {
		entry, want string
	}{
		{"Cart().total", "`Cart_total(...)` means `Cart().total(...)`"},
		{"Cart.total", "`Cart_total(...)` means `Cart.total(...)`"},
	}
	for _, tt := range tests {
		task := llm.Task{ID: "shop.cart.Cart.total", Prompt: prompt, EntryPoint: tt.entry}
		for _, c := range []struct {
			purpose llm.Purpose
			style   llm.Style
			want    []string
		}{
			{llm.PurposeCode, llm.StyleChat, []string{"Implement the method `total` of the Python class `Cart`", prompt, "the method `total` alone"}},
			{llm.PurposeTests, llm.StyleChat, []string{tt.want, "`assert Cart_total(...) == ...`"}},
			{llm.PurposeTests, llm.StyleCompletion, []string{"def Cart_total(*args, **kwargs):\n    return " + tt.entry + "(*args, **kwargs)\n", "assert "}},
		} {
			r, err := llm.DefaultPrompts().Render(llm.Request{Purpose: c.purpose, Task: task}, c.style)
			if err != nil {
				t.Fatal(err)
			}
			text := r.Prompt
			if text == "" {
				text = r.Messages[len(r.Messages)-1].Content
			}
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("%s %s %s lacks %q:\n%s", tt.entry, c.purpose, c.style, w, text)
				}
			}
		}
	}
	if _, ok := llm.ParseMethod("has_close_elements"); ok {
		t.Error("a function's name parsed as a method")
	}
}
