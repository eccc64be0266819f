package inputs

import "github.com/ticoder/ticoder/internal/pyfunc"

// The functions of Program, with their arguments and replies as Caller.Call
// sends and decodes them; inputs.py's docstrings name the same fields.
var (
	collectFunc = pyfunc.Func[collectArg, collectReply]{Program: Program, Name: "collect"}
	classesFunc = pyfunc.Func[classesArg, classesReply]{Program: Program, Name: "classes"}
)

// collectArg is the argument of inputs.py's collect.
type collectArg struct {
	Entry     string   `json:"entry"`
	Prompt    string   `json:"prompt"`
	Signature string   `json:"signature"`
	Tests     []pyTest `json:"tests"`
	Proposed  []string `json:"proposed"`
	MaxInputs int      `json:"max_inputs"`
	MaxChars  int      `json:"max_chars"`
	// Seed fits in 53 bits, so that Python reads the same number.
	Seed uint64 `json:"seed"`
}

// collectReply is what collect returns.
type collectReply struct {
	Inputs []Input `json:"inputs"`
	Unlike []bool  `json:"unlike"`
	// Traits are the traits of each test's own call.
	Traits [][]string `json:"traits"`
}

// classesArg is the argument of inputs.py's classes.
type classesArg struct {
	Values []string `json:"values"`
}

// classesReply is what classes returns: one class number and one literal
// flag per value.
type classesReply struct {
	Classes []int32 `json:"classes"`
	Literal []bool  `json:"literal"`
}
