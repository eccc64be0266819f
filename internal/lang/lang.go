package lang

import (
	"context"
	"errors"

	"github.com/ticoder/ticoder/internal/execute"
)

// Language describes one programming language.
type Language interface {
	// Name is the language's name as users write it: "python", "java".
	Name() string
	// Program assembles the program under test from a prompt and a
	// completion (a body the prompt leaves open, or a whole program).
	Program(prompt, completion string) string
	// ValueTest is the test that evaluates call (an expression of the
	// language calling the program) and compares its value with expected
	// (an expression; empty: only the value is reported).
	ValueTest(call, expected string) execute.Test
	// Extract takes the program out of a model's reply: the first fenced
	// code block of the language, or the whole reply when it has none.
	Extract(reply string) string
}

// Example is one example a prompt shows: a call and the value it should
// have, both expressions of the prompt's language.
type Example struct {
	Call     string `json:"call"`
	Expected string `json:"expected"`
}

// ExampleParser is implemented by languages whose prompts' examples ticoder
// turns into tests itself.
type ExampleParser interface {
	// Examples returns the examples the prompt shows for its function
	// entry, as tests can run them; examples it cannot read are left out.
	Examples(prompt, entry string) []Example
}

// InputHarvester is implemented by languages that derive more inputs from a
// prompt's examples (the behaviour of candidates on them is compared).
type InputHarvester interface {
	// Inputs returns at most max new call expressions of entry.
	Inputs(prompt, entry string, max int) []string
}

// TestExtractor is implemented by languages whose model-written tests
// ticoder reads itself (Python's are read by package extract).
type TestExtractor interface {
	// ExtractTests returns the value tests of entry in a model's reply
	// (prompt is the task's prompt).
	ExtractTests(prompt, entry, reply string) []execute.Test
}

// Stub is the function a user asks for, as read from a stub in the
// language.
type Stub struct {
	// Context is the code before the function (imports, helpers, the
	// class that declares a method).
	Context string
	// Signature is the function's declaration line.
	Signature string
	// Docstring is its description (a docstring, a Javadoc comment).
	Docstring string
	// EntryPoint is the function's name.
	EntryPoint string
}

// Files are the chosen program and the approved tests as files a user
// keeps.
type Files struct {
	CodeFile, Code  string
	TestFile, Tests string
	// TestCount is the number of test functions in Tests.
	TestCount int
	// Command says how to run the tests, in the files' directory.
	Command string
}

// ErrBadStub matches (errors.Is) the errors of a stub that cannot be used
// as given (not a syntax error the language's parser reports).
var ErrBadStub = errors.New("unusable stub")

// Interactive is what TiCoder's question loop (package interact) needs of a
// language. Values are read and shown for a task's function: prompt is the
// task's prompt (the stub), entry the function's name. Methods that take a
// Runner may run the language's own tools in the sandbox with it (the
// runner of the language's programs).
type Interactive interface {
	Language
	// ParseStub reads source, a stub in the language; what names it in
	// errors.
	ParseStub(ctx context.Context, r execute.Runner, what, source string) (Stub, error)
	// Question renders a value test as the yes/no question shown: `CALL ==
	// EXPECTED ?`.
	Question(call, expected string) string
	// ShowTest renders a test as code for the history of answers, its
	// expected value (if any) shown with ShowValue.
	ShowTest(prompt, entry string, t execute.Test) string
	// ShowValue renders a value the runner reported for a call of entry,
	// or one ReadValue returned, for people to read (value itself when it
	// cannot), in a form ReadValue reads back. It is for display only:
	// tests compare with the value itself.
	ShowValue(prompt, entry, value string) string
	// ReadValue checks a value the user typed as the right output of a
	// call of entry, reading it, never running it, and returns it as the
	// expression a value test compares with.
	ReadValue(ctx context.Context, r execute.Runner, prompt, entry, value string) (string, error)
	// Export renders program and the approved (and rejected) tests as the
	// files a user keeps.
	Export(prompt, entry, program string, approved, rejected []execute.Test) (Files, error)
	// CheckExport runs the exported tests against the exported code in the
	// sandbox, as the language's test runner would, and returns the
	// failures (none: they pass).
	CheckExport(ctx context.Context, r execute.Runner, f Files) ([]string, error)
}
