package mcpserver

import "github.com/ticoder/ticoder/api"

// SourceInput says what function to clarify and how: the input of clarify
// and start_clarification. Exactly one of Demo, Stub, Description (with
// Signature), Task and File (with Function) is set.
type SourceInput struct {
	Demo        string `json:"demo,omitempty" jsonschema:"name of a built-in demo problem (count_vowels, digit_sum, first_missing, is_leap_year, max_increasing_product, median, rle_encode, second_largest, text_match in Python; min_cost, sorted_union in Java); needs no model"`
	Stub        string `json:"stub,omitempty" jsonschema:"a Python stub of the function to write: any imports, then its def line and a docstring that says what it does"`
	Description string `json:"description,omitempty" jsonschema:"what the function should do, in words; give signature too"`
	Signature   string `json:"signature,omitempty" jsonschema:"the function's def line, e.g. def fib(n: int) -> int (with description)"`
	File        string `json:"file,omitempty" jsonschema:"a Python module of the project, relative to the workspace root (with function): candidates run as that module with the project's own venv, and the result is the function plus a patch of the module"`
	Function    string `json:"function,omitempty" jsonschema:"the module-level function in file to write or check (with file); its def line, decorators and docstring are the spec"`
	Task        string `json:"task,omitempty" jsonschema:"a benchmark task as DATASET/ID, e.g. humaneval-noexamples/HumanEval/12 (a live model, or the recorded samples of replay:DATA/samples/humaneval-codegen16b) or mbpp/2 (a live model)"`
	Mode        string `json:"mode,omitempty" jsonschema:"passfail (answers yes / no / invalid input) or output (also: the value a call should return); default the server's"`
	Codes       int    `json:"codes,omitempty" jsonschema:"candidate programs to generate (1-100; default the server's)"`
	Tests       int    `json:"tests,omitempty" jsonschema:"test samples to generate (1-100; default the server's)"`
	// MaxQuestions stops after that many answers.
	MaxQuestions int    `json:"max_questions,omitempty" jsonschema:"stop after this many answers (default: until the candidates are told apart)"`
	Questions    string `json:"questions,omitempty" jsonschema:"what to ask about: tests, inputs (inputs on which the candidates disagree) or both (default)"`
}

// SessionInput names a session: the input of undo.
type SessionInput struct {
	SessionID string `json:"session_id" jsonschema:"the session_id that start_clarification or clarify returned"`
}

// AnswerInput answers the pending question of a session.
type AnswerInput struct {
	SessionID string `json:"session_id" jsonschema:"the session_id that start_clarification or clarify returned"`
	Question  int    `json:"question" jsonschema:"the pending question: its test id (question.test in the last result) or its number (question.number)"`
	Answer    string `json:"answer" jsonschema:"the human's answer: yes (the call should behave so), no (it should not), invalid (the input is not valid / don't know), or output (it should return value instead; mode output only)"`
	Value     string `json:"value,omitempty" jsonschema:"with answer output: the value the call should return, as a Python literal such as 3, 'abc' or [1, 2]"`
}

// FinishInput ends a session.
type FinishInput struct {
	SessionID string `json:"session_id" jsonschema:"the session_id that start_clarification or clarify returned"`
	Candidate *int   `json:"candidate,omitempty" jsonschema:"index of the remaining candidate to take (ranked[].index of the result); default the best-ranked"`
}

// State is a session while questions remain, or once they are over but
// before finish: what the step tools return.
type State struct {
	SessionID string `json:"session_id"`
	// Task is what the code is for.
	Task api.Task `json:"task"`
	// Mode is passfail or output.
	Mode string `json:"mode"`
	// Question is the question to put to the human; nil when none remains.
	Question *api.Question `json:"question,omitempty"`
	// Answers lists the answers the question takes.
	Answers []string `json:"answers,omitempty"`
	// Done reports that no more questions will be asked; call finish.
	Done bool `json:"done"`
	// Stop explains why the questions ended.
	Stop string `json:"stop,omitempty"`
	// Conflict says, when no candidate agrees with all the answers, that
	// the remaining ones are the closest and whether the model was asked
	// for new candidates with the approved tests; tell the human.
	Conflict string `json:"conflict,omitempty"`
	// Total and Remaining count the candidates at the start and now.
	Total     api.Counts `json:"total"`
	Remaining api.Counts `json:"remaining"`
	// Next says what the agent should do now.
	Next string `json:"next"`
}

// Result is the outcome of a finished session: what finish returns, and
// clarify once the human has answered.
type Result struct {
	SessionID string   `json:"session_id"`
	Task      api.Task `json:"task"`
	// Code is the chosen program, to be saved as CodeFile.
	CodeFile string `json:"code_file"`
	Code     string `json:"code"`
	// Tests are the approved tests as a pytest file, to be saved as TestFile.
	TestFile  string `json:"test_file"`
	Tests     string `json:"tests"`
	TestCount int    `json:"test_count"`
	// PatchFile and Patch, for a file's function, are a unified diff of the
	// module relative to the project's root (git apply or patch -p1 apply
	// it there); the tests import from the real module.
	PatchFile string `json:"patch_file,omitempty"`
	Patch     string `json:"patch,omitempty"`
	// Checked and Passed report that the tests were run against the code in
	// the sandbox and passed; Failures names those that did not.
	Checked  bool     `json:"checked"`
	Passed   bool     `json:"passed"`
	Failures []string `json:"failures,omitempty"`
	// Ranked lists the remaining behaviour classes, best first, then the
	// fallbacks' (api.Candidate.Crashes); at most 5.
	Ranked []api.Candidate `json:"ranked"`
	// Explanation says, for each answer, what it ruled out.
	Explanation []string `json:"explanation"`
	// Stop says why the questions ended.
	Stop string `json:"stop,omitempty"`
	// Conflict says, when no candidate agrees with all the answers, that
	// the code is the closest and fails some approved tests (Failures).
	Conflict string `json:"conflict,omitempty"`
	// Files are the files written into the client's workspace root, if any.
	Files []string `json:"files,omitempty"`
}

// ClarifyOutput is what clarify returns: the Result once the human answered
// through elicitation, or, when the client cannot elicit, the Pending
// question for the agent to relay.
type ClarifyOutput struct {
	Result  *Result `json:"result,omitempty"`
	Pending *State  `json:"pending,omitempty"`
}

// CheckInput is the input of check_code.
type CheckInput struct {
	Code      string   `json:"code" jsonschema:"the Python code to check: the whole module that defines the function"`
	SessionID string   `json:"session_id,omitempty" jsonschema:"check against the tests approved in this session"`
	Tests     []string `json:"tests,omitempty" jsonschema:"or against these Python assert statements, one test each, e.g. assert f(1) == 2"`
	Entry     string   `json:"entry_point,omitempty" jsonschema:"the function's name (with tests; default: the one function code defines at the top level, or the session's)"`
}

// CheckOutput is the outcome of check_code.
type CheckOutput struct {
	// Passed reports that every test passed.
	Passed bool `json:"passed"`
	// TestCount is the number of tests run.
	TestCount int `json:"test_count"`
	// Failures names the failing tests and their errors.
	Failures []string `json:"failures,omitempty"`
}

// QualityInput is the input of estimate_quality.
type QualityInput struct {
	Prompt     string   `json:"prompt" jsonschema:"the problem: a Python stub (def line and docstring, ideally with examples such as >>> f(1) followed by 2)"`
	Candidates []string `json:"candidates" jsonschema:"candidate implementations, each a complete Python definition of the function"`
	Entry      string   `json:"entry_point,omitempty" jsonschema:"the function's name (default: the last def in prompt)"`
}

// QualityOutput ranks the candidates of estimate_quality.
type QualityOutput struct {
	// Estimator names the estimator and its settings.
	Estimator string `json:"estimator"`
	// Ranked lists the candidates best first.
	Ranked []Scored `json:"ranked"`
}

// Scored is one candidate's estimated quality.
type Scored struct {
	// Index is the candidate's position in the input.
	Index int `json:"index"`
	// Score is higher for candidates more likely correct.
	Score float64 `json:"score"`
}
