// Package dataset loads code-generation benchmarks into Problems, and
// fetches and verifies the known benchmark files.
//
// Known datasets (see Known): humaneval (OpenAI's HumanEval.jsonl.gz),
// humaneval-noexamples (HumanEval with the docstring examples removed, from
// microsoft/CodeT; the TiCoder paper's setting), mbpp (MBPP full) and
// mbpp-sanitized (a JSON array), humanevalplus and mbppplus (evalplus's
// HumanEval+ v0.1.10 and MBPP+ v0.2.0). Any other file may be given by path: JSONL,
// gzip-compressed JSONL (detected by content) or a JSON array, of
// HumanEval-style rows {task_id, prompt, entry_point, canonical_solution,
// test} or MBPP-style rows (detected per row by a "test_list" field). The
// data directory is resolved by DataDir: the --data-dir flag, else
// $TICODER_DATA, else ./data.
//
// HumanEval-style rows: Prompt is the row's prompt; Context the code before
// the entry point's def line; Signature that def line up to its colon
// (possibly several lines); Description the docstring, cleaned like Python's
// inspect.cleandoc (escape sequences are kept as written); Reference is
// prompt + canonical_solution; Test is test + "\ncheck(entry_point)\n".
//
// MBPP rows have no stub, so the Prompt is built so that a body completion
// appended to it makes a whole program, as for HumanEval: the reference
// code's context (imports, constants and classes before the function under
// test; helper functions are left out, because they would give the solution
// away), the reference's def line, and the description as a docstring in
// HumanEval's layout:
//
//	def similar_elements(test_tup1, test_tup2):
//	    """ Write a function to find the similar elements from the given two tuple lists.
//	    """
//
// The function under test is the first function called in the first
// assertion of test_list that the reference code defines (so
// "assert set(f(x)) == ..." finds f). Task ids become "Mbpp/N". Reference is
// the code; Asserts the test_list; TestSetup the test_setup_code (full) or
// test_imports (sanitized); Test is TestSetup followed by the assertions.
// Windows line ends are normalised to "\n"; challenge_test_list is ignored.
//
// HumanEval+ and MBPP+ (humanevalplus, mbppplus: evalplus's own format,
// rows with "base_input" and "plus_input") are read as HumanEval rows, with
// Problem.Plus holding the test inputs, atol and contract; Reference is
// prompt + canonical_solution, as evalplus runs it. MBPP+'s prompt is a
// docstring alone, so its Prompt is built as MBPP's is, with that text as
// the description. Python's NaN and Infinity, which MBPP+ rows hold and JSON
// does not allow, are read as the strings MarkNaN and MarkInf (see
// PythonConstants); the execution harness turns them back into floats.
//
// Loading never panics on bad input: a malformed file yields a *LineError
// naming the file and line, e.g. "HumanEval.jsonl:17: missing field "test"".
//
// dataset must not run code or call a model: it reads and checks files, and
// fetches the known ones.
package dataset
