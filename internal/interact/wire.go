package interact

import (
	_ "embed"

	"github.com/ticoder/ticoder/internal/pyfunc"
)

// The Python tools the interactive front ends run in the sandbox
// (execute.Runner.Call), each function with its argument and its reply as
// the sandbox sends and decodes them; the Python docstrings name the same
// fields.
var (
	//go:embed tools.py
	toolsPy string
	//go:embed module.py
	modulePy string

	// toolsProgram reads what a person typed (a stub, a value) and checks
	// an export.
	toolsProgram = pyfunc.NewProgram(pyfunc.Module{Name: "tools.py", Text: toolsPy})
	// moduleProgram works on a function inside a project's module.
	moduleProgram = pyfunc.NewProgram(pyfunc.Module{Name: "module.py", Text: modulePy})

	parseStubFunc  = pyfunc.Func[sourceArg, stubReply]{Program: toolsProgram, Name: "parse_stub"}
	checkValueFunc = pyfunc.Func[sourceArg, valueReply]{Program: toolsProgram, Name: "check_value"}
	runTestsFunc   = pyfunc.Func[runTestsArg, testsReply]{Program: toolsProgram, Name: "run_tests"}

	locateFunc     = pyfunc.Func[locateArg, located]{Program: moduleProgram, Name: "locate"}
	spliceFunc     = pyfunc.Func[spliceArg, spliceReply]{Program: moduleProgram, Name: "splice"}
	functionsFunc  = pyfunc.Func[functionsArg, functionsReply]{Program: moduleProgram, Name: "functions"}
	checkTestsFunc = pyfunc.Func[checkTestsArg, testsReply]{Program: moduleProgram, Name: "check_tests"}
)

// sourceArg is the argument of tools.py's parse_stub and check_value.
type sourceArg struct {
	Source string `json:"source"`
}

// pySyntax is a syntax error as tools.py reports it.
type pySyntax struct {
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"msg"`
	Text string `json:"text"`
}

// stubReply is what parse_stub returns: the stub's parts, or its syntax
// error.
type stubReply struct {
	Error      *pySyntax `json:"error"`
	EntryPoint string    `json:"entry_point"`
	Context    string    `json:"context"`
	Signature  string    `json:"signature"`
	Docstring  string    `json:"docstring"`
}

// valueReply is what check_value returns: nothing for a literal, else the
// syntax error or the part that is code, not a value.
type valueReply struct {
	Error      *pySyntax `json:"error"`
	NotLiteral *struct {
		Part string `json:"part"`
		Msg  string `json:"msg"`
	} `json:"not_literal"`
}

// runTestsArg is the argument of tools.py's run_tests: the exported code
// and tests with their file names. The fields are in the order of their
// JSON names, as the argument has always been sent.
type runTestsArg struct {
	Code     string `json:"code"`
	CodeFile string `json:"code_file"`
	TestFile string `json:"test_file"`
	Tests    string `json:"tests"`
}

// testsReply is what run_tests and check_tests return: an error that
// stopped the file, each test function's outcome and, from check_tests,
// the version of the interpreter that ran them.
type testsReply struct {
	Error   string       `json:"error"`
	Python  string       `json:"python"`
	Results []testResult `json:"results"`
}

// testResult is one test function's outcome.
type testResult struct {
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

// locateArg is the argument of module.py's locate (fields in the order of
// their JSON names).
type locateArg struct {
	Name   string `json:"name"`
	Source string `json:"source"`
}

// located is what module.py's locate returns.
type located struct {
	Error     string   `json:"error"`
	Start     int      `json:"start"`
	Def       int      `json:"def"`
	End       int      `json:"end"`
	Indent    string   `json:"indent"`
	Cls       string   `json:"cls"`
	Spec      string   `json:"spec"`
	Signature string   `json:"signature"`
	Docstring string   `json:"docstring"`
	Stub      bool     `json:"stub"`
	Names     []string `json:"names"`
	Kind      string   `json:"kind"`
	InitArgs  []string `json:"init_args"`
}

// spliceArg is the argument of module.py's splice (fields in the order of
// their JSON names).
type spliceArg struct {
	Name     string   `json:"name"`
	Programs []string `json:"programs"`
	Source   string   `json:"source"`
}

// spliceReply is what splice returns: one result per program, or an error
// about the module.
type spliceReply struct {
	Error   string    `json:"error"`
	Results []spliced `json:"results"`
}

// spliced is one result of module.py's splice.
type spliced struct {
	Error   string   `json:"error"`
	Patched string   `json:"patched"`
	Code    string   `json:"code"`
	Imports []string `json:"imports"`
}

// functionsArg is the argument of module.py's functions: each module's
// path and source.
type functionsArg struct {
	Sources map[string]string `json:"sources"`
}

// functionsReply is what functions returns: each module's functions, and
// the modules that do not parse with why.
type functionsReply struct {
	Functions map[string][]string `json:"functions"`
	Errors    map[string]string   `json:"errors"`
}

// checkTestsArg is the argument of module.py's check_tests (fields in the
// order of their JSON names): Patched, the module's spliced source, is
// absent where the module is imported from disk.
type checkTestsArg struct {
	File     string   `json:"file"`
	Module   string   `json:"module"`
	Names    []string `json:"names"`
	Patched  *string  `json:"patched,omitempty"`
	TestFile string   `json:"test_file"`
	Tests    string   `json:"tests"`
}
