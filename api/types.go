package api

// The verdicts of an Answer.
const (
	// VerdictPass: the test matches the user's intent.
	VerdictPass = "pass"
	// VerdictFail: the test does not match the user's intent.
	VerdictFail = "fail"
	// VerdictUndefined: the test's input is outside the function's domain.
	VerdictUndefined = "undefined"
	// VerdictOutput: the test is wrong and Value is the right value of its call.
	VerdictOutput = "output"
)

// The modes of a session.
const (
	// ModePassFail: answers are pass, fail or undefined.
	ModePassFail = "passfail"
	// ModeOutput: a wrong test may be answered with the right value.
	ModeOutput = "output"
)

// Error is the body of every error response.
type Error struct {
	// Error says what went wrong and what to do, for a person to read.
	Error string `json:"error"`
}

// Demo describes one built-in demo problem.
type Demo struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Summary string `json:"summary"`
}

// CreateSession is the body of POST /api/sessions. Exactly one of Demo, Spec,
// Prompt (with Signature) and Task says what the code is for.
type CreateSession struct {
	// Demo names a built-in demo problem (no model needed).
	Demo string `json:"demo,omitempty"`
	// Spec is a stub: in Python, imports and helpers, the def line and a
	// docstring; in Java (Language "java"), a class with the static method
	// to write and its Javadoc.
	Spec string `json:"spec,omitempty"`
	// Language is Spec's language: "" or "python", or "java".
	Language string `json:"language,omitempty"`
	// Prompt is a natural-language description, used with Signature.
	Prompt string `json:"prompt,omitempty"`
	// Signature is the def line, e.g. "def f(x: int) -> int".
	Signature string `json:"signature,omitempty"`
	// Task names a dataset problem, e.g. "humaneval/HumanEval/12".
	Task string `json:"task,omitempty"`
	// File and Function name a function of the server's project (serve
	// --project): a File and a Function (NAME or Class.method) exactly as
	// GET /api/project lists them.
	File     string `json:"file,omitempty"`
	Function string `json:"function,omitempty"`
	// Mode is ModePassFail (default) or ModeOutput.
	Mode string `json:"mode,omitempty"`
	// Codes and Tests are how many candidates and tests to ask the model for
	// (0: the server's defaults).
	Codes int `json:"codes,omitempty"`
	Tests int `json:"tests,omitempty"`
	// MaxQuestions stops the session after that many answers (0: no limit).
	MaxQuestions int `json:"max_questions,omitempty"`
}

// Task is what the session's code is for.
type Task struct {
	// Name names the task (a demo's name, a dataset task id, or the function).
	Name string `json:"name"`
	// Title is a short human title, when there is one.
	Title string `json:"title,omitempty"`
	// Stub is the stub the candidates implement.
	Stub string `json:"stub"`
	// Language is the stub's language: "" (Python) or "java".
	Language string `json:"language,omitempty"`
	// EntryPoint is the function's name.
	EntryPoint string `json:"entry_point"`
	// Source says where the task came from: demo, spec, prompt or task.
	Source string `json:"source"`
}

// Question is a test put to the user.
type Question struct {
	// Number counts questions from 1.
	Number int `json:"number"`
	// Test identifies the test; an Answer must name it.
	Test int `json:"test"`
	// Code is the test's source, e.g. `assert f(1) == 2`.
	Code string `json:"code"`
	// Input and Expected split a CALL == EXPECTED test.
	Input    string `json:"input,omitempty"`
	Expected string `json:"expected,omitempty"`
	// Prompt is the question as shown: `f(1) == 2 ?`.
	Prompt string `json:"prompt"`
	// CanOutput reports whether the question takes an output answer.
	CanOutput bool `json:"can_output"`
	// Synthesized marks a question about an input no test asked about, on
	// which the candidates disagree: Expected is the value the best-ranked
	// candidate returns, and Choices the values the remaining candidates
	// return, best-ranked first.
	Synthesized bool     `json:"synthesized,omitempty"`
	Choices     []string `json:"choices,omitempty"`
}

// Counts says how many candidates remain.
type Counts struct {
	// Programs counts distinct programs.
	Programs int `json:"programs"`
	// Samples counts raw samples (programs weighted by multiplicity).
	Samples int `json:"samples"`
	// Classes counts behaviour classes (programs that act alike on every test).
	Classes int `json:"classes"`
}

// Answered is one answered question.
type Answered struct {
	Number int    `json:"number"`
	Test   int    `json:"test"`
	Code   string `json:"code"`
	// Verdict is pass, fail, undefined or output.
	Verdict string `json:"verdict"`
	// Value is the right value of an output answer.
	Value string `json:"value,omitempty"`
	// Remaining is the number of candidate samples left after the answer.
	Remaining int `json:"remaining"`
}

// Candidate is one behaviour class of the remaining candidates, shown by a
// representative program, best first.
type Candidate struct {
	// Rank counts from 1; equal ranks are ties.
	Rank int `json:"rank"`
	// Index identifies the representative program (for Export's candidate).
	Index int `json:"index"`
	// Program is the representative's source.
	Program string `json:"program"`
	// Samples is the number of raw samples in the class.
	Samples int `json:"samples"`
	// Programs is the number of distinct programs in the class.
	Programs int `json:"programs"`
	// Score is the ranking score.
	Score float64 `json:"score"`
	// Yours marks the function's existing implementation (a session on a
	// function inside a project's module that already has a body).
	Yours bool `json:"yours,omitempty"`
	// Crashes, above 0, marks a fallback: a candidate ruled out only
	// because it raised, timed out or crashed on answered inputs, where it
	// disagrees with that many more answers than the remaining candidates
	// (those with Crashes 0). Fallbacks rank after every remaining
	// candidate, fewest Crashes first.
	Crashes int `json:"crashes,omitempty"`
}

// Session is the state of one session.
type Session struct {
	ID   string `json:"id"`
	Task Task   `json:"task"`
	// Mode is ModePassFail or ModeOutput.
	Mode string `json:"mode"`
	// Question is the pending question; nil once the session is done.
	Question *Question `json:"question,omitempty"`
	// Done reports that no more questions will be asked.
	Done bool `json:"done"`
	// Stop says why the session is done: max-questions, one-class,
	// no-split or stopped (by the user); empty while running.
	Stop string `json:"stop,omitempty"`
	// StopMessage explains Stop in words.
	StopMessage string `json:"stop_message,omitempty"`
	// Total counts every candidate; Remaining those left.
	Total     Counts `json:"total"`
	Remaining Counts `json:"remaining"`
	// History lists the answers, oldest first.
	History []Answered `json:"history"`
	// Candidates are the remaining behaviour classes, best first.
	Candidates []Candidate `json:"candidates"`
	// Conflict counts the answers the remaining candidates disagree with:
	// 0 while some candidate agrees with every answer. Above 0 the
	// remaining ones are the closest, and the approved tests they fail
	// are kept as tests the code does not yet pass.
	Conflict int `json:"conflict,omitempty"`
	// Regenerated counts the rounds in which the model was asked for new
	// candidates with the approved tests in the prompt.
	Regenerated int `json:"regenerated,omitempty"`
	// ConflictMessage says Conflict and what was done about it in words
	// (or, right after a round of new candidates that resolved it, that
	// round); empty otherwise.
	ConflictMessage string `json:"conflict_message,omitempty"`
}

// Answer is the body of POST /api/sessions/{id}/answer.
type Answer struct {
	// Test must be the pending question's Test.
	Test int `json:"test"`
	// Verdict is pass, fail, undefined or output.
	Verdict string `json:"verdict"`
	// Value is, for output, a Python expression of the right value.
	Value string `json:"value,omitempty"`
}

// Export is the result of a session: the chosen code and the approved tests
// as a pytest file.
type Export struct {
	// CodeFile and TestFile are the suggested file names (NAME.py and
	// test_NAME.py).
	CodeFile string `json:"code_file"`
	Code     string `json:"code"`
	TestFile string `json:"test_file"`
	Tests    string `json:"tests"`
	// Candidate is the Index of the exported candidate.
	Candidate int `json:"candidate"`
	// TestCount is the number of test functions in Tests.
	TestCount int `json:"test_count"`
	// Checked reports that the tests were run against the code in the
	// sandbox; Passed that every one passed; Failures names those that did not.
	Checked  bool     `json:"checked"`
	Passed   bool     `json:"passed"`
	Failures []string `json:"failures,omitempty"`
	// Unchecked says why the tests could not be run (Checked false), e.g.
	// JUnit not installed.
	Unchecked string `json:"unchecked,omitempty"`
	// Command says how to run the tests, in the files' directory.
	Command string `json:"command,omitempty"`
	// PatchFile and Patch, for a function inside a project's module, are
	// NAME.patch and a unified diff of the module, relative to the
	// project's root, that puts the code in place (git apply or patch -p1
	// apply it there).
	PatchFile string `json:"patch_file,omitempty"`
	Patch     string `json:"patch,omitempty"`
	// Module is the dotted name of that module, and Patched its source with
	// the code in place.
	Module  string `json:"module,omitempty"`
	Patched string `json:"patched,omitempty"`
}

// Info describes the server: GET /api/info.
type Info struct {
	// Model is the model that writes candidates for non-demo sessions;
	// empty when the server has none (demos only).
	Model string `json:"model,omitempty"`
	// Demos lists the built-in demo problems.
	Demos []Demo `json:"demos"`
	// Mode is the default mode of new sessions.
	Mode string `json:"mode"`
	// MaxQuestions is the default limit of new sessions (0: none).
	MaxQuestions int `json:"max_questions,omitempty"`
	// Project is the root of the project whose functions the server offers
	// (serve --project); empty when there is none.
	Project string `json:"project,omitempty"`
}

// Project is the body of GET /api/project: the functions of the server's
// project that a session can work on.
type Project struct {
	// Root is the project's directory.
	Root string `json:"root"`
	// Functions are the module-level functions and methods of the
	// project's modules, by file.
	Functions []ProjectFunction `json:"functions"`
	// Problems names the modules that could not be read, with why.
	Problems []string `json:"problems,omitempty"`
}

// ProjectFunction is one function of a project.
type ProjectFunction struct {
	// File is the module's path relative to the project's root, with
	// slashes.
	File string `json:"file"`
	// Name is NAME or Class.method.
	Name string `json:"name"`
}

// WriteRequest is the body of POST /api/sessions/{id}/write: put the
// candidate into the project's file in place and append the approved
// tests to the project's tests.
type WriteRequest struct {
	// Candidate is the Index of the candidate to write; -1 is the best.
	Candidate int `json:"candidate"`
}

// Written is what POST /api/sessions/{id}/write did.
type Written struct {
	// Report says what was written, and how the added tests fared when
	// run once in the sandbox against the patched project.
	Report string `json:"report"`
}
