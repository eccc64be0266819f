package dataset

// Problem is one programming task of a benchmark: what the user asks for, the
// reference solution that a simulated user consults, and the hidden tests that
// decide functional correctness.
//
// For HumanEval a candidate body completes Prompt: the program is
// Prompt + completion. For MBPP there is no stub in the data; Prompt is built
// from the description and the signature of the reference solution.
type Problem struct {
	// ID is the dataset's own task id, e.g. "HumanEval/12" or "Mbpp/2".
	ID string `json:"task_id"`
	// Dataset names the benchmark the problem came from (e.g. "humaneval").
	Dataset string `json:"dataset"`
	// Prompt is the text a body-only completion is appended to: context,
	// signature and docstring, exactly as the dataset gives it.
	Prompt string `json:"prompt"`
	// Description is the natural-language part of the task (the docstring
	// text, or MBPP's "text").
	Description string `json:"description"`
	// Context is the code that precedes the function's def line (imports,
	// helper functions); it may be empty.
	Context string `json:"context"`
	// Signature is the function's def line, e.g. "def f(x: int) -> int:".
	Signature string `json:"signature"`
	// EntryPoint is the name of the function under test.
	EntryPoint string `json:"entry_point"`
	// Reference is a complete program (context included) that solves the task.
	Reference string `json:"reference"`
	// Test is a Python program that, run after a candidate program, raises
	// (usually AssertionError) unless the candidate is correct. For HumanEval
	// it is the dataset's check function followed by check(entry_point).
	Test string `json:"test"`
	// Asserts lists the hidden tests one assertion at a time where the dataset
	// gives them that way (MBPP); it may be empty.
	Asserts []string `json:"asserts,omitempty"`
	// TestSetup is code the hidden assertions need first (MBPP's
	// test_setup_code and test_imports); it is already part of Test.
	TestSetup string `json:"test_setup,omitempty"`
	// Language is the language of Prompt, Reference and Test: "" for
	// Python, "java" for MBJP (see java.go).
	Language string `json:"language,omitempty"`
	// Contract, if not empty, is the input contract of the reference (see
	// Contracts): assertions that fail on inputs the function is not meant
	// for. Loading a dataset leaves it empty; Contracts.Attach sets it.
	Contract string `json:"contract,omitempty"`
	// Solution, if not empty, is another reference solution of the same
	// function that a simulated user answers by instead of Reference:
	// EvalPlus's corrected one (see Contracts.Solutions). Loading a
	// dataset leaves it empty; Contracts.AttachSolutions sets it.
	Solution string `json:"solution,omitempty"`
	// Plus holds the test inputs of an evalplus row (HumanEval+, MBPP+),
	// which check and eval judge by; nil for other datasets.
	Plus *PlusTests `json:"-"`
}
