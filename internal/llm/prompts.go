package llm

import (
	_ "embed"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"text/template"

	"github.com/ticoder/ticoder/internal/dataset"
)

//go:embed templates/default.tmpl
var defaultTemplates string

// The names of the prompt templates; a template file redefines any of them
// with {{define "NAME"}}...{{end}}.
const (
	TmplCodeChatSystem  = "code_chat_system"
	TmplCodeChatUser    = "code_chat_user"
	TmplCodeCompletion  = "code_completion"
	TmplTestsChatSystem = "tests_chat_system"
	TmplTestsChatUser   = "tests_chat_user"
	TmplTestsCompletion = "tests_completion"
)

var templateNames = []string{
	TmplCodeChatSystem, TmplCodeChatUser, TmplCodeCompletion,
	TmplTestsChatSystem, TmplTestsChatUser, TmplTestsCompletion,
	"java_" + TmplCodeChatSystem, "java_" + TmplCodeChatUser, "java_" + TmplCodeCompletion,
	"java_" + TmplTestsChatSystem, "java_" + TmplTestsChatUser, "java_" + TmplTestsCompletion,
}

// Default lengths of a completion, in tokens, when Params.MaxTokens is 0.
const (
	DefaultMaxTokensCode  = 512
	DefaultMaxTokensTests = 384
)

// Prompts renders requests from their Purpose and Task with Go text/template.
// It is immutable and safe for concurrent use; a nil *Prompts means the
// defaults.
type Prompts struct {
	t *template.Template
}

var templateFuncs = template.FuncMap{
	"trim":      strings.TrimSpace,
	"trimRight": func(s string) string { return strings.TrimRight(s, " \t\r\n") },
	"lines":     func(s string) []string { return strings.Split(strings.TrimRight(s, " \t\r\n"), "\n") },
}

// DefaultPrompts returns ticoder's built-in prompts.
func DefaultPrompts() *Prompts { return defaultPrompts() }

// defaultPrompts parses the built-in templates once; the result is immutable.
var defaultPrompts = sync.OnceValue(func() *Prompts {
	p, err := parsePrompts("")
	if err != nil {
		panic("llm: built-in prompt templates do not parse: " + err.Error()) // a bug, caught by tests
	}
	return p
})

// ParsePrompts returns the defaults with the blocks defined in text
// redefined. A block with an unknown name is an error, so that a misspelt
// name does not silently keep the default.
func ParsePrompts(text string) (*Prompts, error) { return parsePrompts(text) }

// LoadPrompts reads a template file (see ParsePrompts).
func LoadPrompts(path string) (*Prompts, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load prompt templates: %w", err)
	}
	p, err := parsePrompts(string(b))
	if err != nil {
		return nil, fmt.Errorf("load prompt templates %s: %w", path, err)
	}
	return p, nil
}

var defineRE = regexp.MustCompile(`\{\{-?\s*define\s+"([^"]*)"`)

func parsePrompts(override string) (*Prompts, error) {
	t, err := template.New("defaults").Funcs(templateFuncs).Option("missingkey=error").Parse(defaultTemplates)
	if err != nil {
		return nil, err
	}
	if override != "" {
		for _, m := range defineRE.FindAllStringSubmatch(override, -1) {
			if !isTemplateName(m[1]) {
				return nil, fmt.Errorf("unknown prompt template %q: the names are %s", m[1], strings.Join(templateNames, ", "))
			}
		}
		if _, err := t.New("override").Parse(override); err != nil {
			return nil, fmt.Errorf("parse prompt templates: %w", err)
		}
	}
	return &Prompts{t: t}, nil
}

func isTemplateName(s string) bool {
	for _, n := range templateNames {
		if n == s {
			return true
		}
	}
	return false
}

// promptData is what the templates see: the task's visible fields, the
// stub with a `pass` body, and the method when the entry point names one
// (nil otherwise).
type promptData struct {
	Task
	Stub   string
	Method *Method
}

// Method is a method of a class that a task's EntryPoint names by how
// tests call it: CLASS().METHOD (on an instance made without arguments) or
// CLASS.METHOD (a static or class method). Tests cannot hold the project's
// objects (they get plain data only), so they call Alias, a module-level
// function that makes the call: Alias(ARGS) is Call(ARGS).
type Method struct {
	// Class and Name are the class's and the method's names.
	Class, Name string
	// Call is the entry point: CLASS().METHOD or CLASS.METHOD.
	Call string
	// Alias is the stand-in's name, CLASS_METHOD.
	Alias string
}

// methodEntry matches a method's entry point.
var methodEntry = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)(\(\))?\.([A-Za-z_][A-Za-z0-9_]*)$`)

// ParseMethod returns the method that entry names; ok is false when entry
// is a plain function's name.
func ParseMethod(entry string) (Method, bool) {
	m := methodEntry.FindStringSubmatch(entry)
	if m == nil {
		return Method{}, false
	}
	return Method{Class: m[1], Name: m[3], Call: entry, Alias: m[1] + "_" + m[3]}, true
}

func (p *Prompts) exec(name string, task Task) (string, error) {
	if p == nil {
		p = DefaultPrompts()
	}
	if task.Language != "" {
		name = task.Language + "_" + name
		if p.t.Lookup(name) == nil {
			return "", fmt.Errorf("render prompt for %s: no template %s for %s tasks", task.ID, name, task.Language)
		}
	}
	var b strings.Builder
	data := promptData{Task: task, Stub: Stub(task)}
	if m, ok := ParseMethod(task.EntryPoint); ok {
		data.Method = &m
	}
	if err := p.t.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("render prompt %s for %s: %w", name, task.ID, err)
	}
	return b.String(), nil
}

// Render fills req.Messages (chat style) or req.Prompt (completion style)
// from req.Purpose and req.Task. It is an error to render PurposeOther.
func (p *Prompts) Render(req Request, style Style) (Request, error) {
	if req.Task.Prompt == "" && req.Task.Signature == "" {
		return req, fmt.Errorf("render prompt: task %q has neither a prompt nor a signature", req.Task.ID)
	}
	var prefix string
	switch req.purpose() {
	case PurposeCode:
		prefix = "code"
	case PurposeTests:
		prefix = "tests"
	default:
		return req, fmt.Errorf("render prompt: purpose %q has no template: set Messages or Prompt", req.Purpose)
	}
	if style == StyleCompletion {
		text, err := p.exec(prefix+"_completion", req.Task)
		if err != nil {
			return req, err
		}
		req.Prompt, req.Messages = text, nil
		return req, nil
	}
	system, err := p.exec(prefix+"_chat_system", req.Task)
	if err != nil {
		return req, err
	}
	user, err := p.exec(prefix+"_chat_user", req.Task)
	if err != nil {
		return req, err
	}
	req.Prompt = ""
	req.Messages = nil
	if strings.TrimSpace(system) != "" {
		req.Messages = append(req.Messages, Message{Role: "system", Content: system})
	}
	req.Messages = append(req.Messages, Message{Role: "user", Content: user})
	return req, nil
}

// Stub returns the task's prompt with a `pass` body: the function stub that
// test prompts show (as the TiCoder and CodeT papers do). It is
// dataset.Problem.Stub of the task's visible fields.
func Stub(t Task) string {
	return dataset.Problem{
		ID: t.ID, Prompt: t.Prompt, Context: t.Context, Signature: t.Signature,
		Description: t.Description, EntryPoint: t.EntryPoint,
	}.Stub()
}

// DefaultStop returns the stop sequences used when Params.Stop is nil:
// for completion-style code and tests, the starts of top-level statements
// that follow a finished function or assertion block (at most 4, OpenAI's
// limit); none for chat, whose answers end on their own.
func DefaultStop(purpose Purpose, style Style) []string {
	if style == StyleCompletion && (purpose == PurposeCode || purpose == PurposeTests) {
		return []string{"\ndef ", "\nclass ", "\nif __name__", "\nprint("}
	}
	return []string{}
}

// prepare is the shared part of Provider.Prepare: normalise the purpose and
// N, render the prompt if the request has none, keep exactly one of
// Messages and Prompt, and fill in the default length and stops.
func prepare(req Request, style Style, p *Prompts) (Request, error) {
	req.Purpose = req.purpose()
	if req.Params.N <= 0 {
		req.Params.N = 1
	}
	if style == "" {
		style = StyleChat
	}
	var err error
	switch {
	case len(req.Messages) == 0 && req.Prompt == "":
		if req, err = p.Render(req, style); err != nil {
			return req, err
		}
	case len(req.Messages) > 0 && req.Prompt != "":
		if style == StyleCompletion {
			req.Messages = nil
		} else {
			req.Prompt = ""
		}
	}
	sent := StyleChat
	if !req.IsChat() {
		sent = StyleCompletion
	}
	if req.Params.MaxTokens == 0 {
		switch req.Purpose {
		case PurposeCode:
			req.Params.MaxTokens = DefaultMaxTokensCode
		case PurposeTests:
			req.Params.MaxTokens = DefaultMaxTokensTests
		}
	}
	if req.Params.Stop == nil {
		req.Params.Stop = DefaultStop(req.Purpose, sent)
	}
	return req, nil
}
