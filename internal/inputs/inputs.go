package inputs

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"slices"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/pyfunc"
)

// Program is the Python half of the package: mutate.py (literal calls and
// their mutations), declared.py (what a problem's type hints and docstring
// declare of its parameters), then inputs.py. collect(arg) builds an input pool and
// classes(arg) groups values by ==. Other embedded Python programs extend
// it (Program.With) to use its mutators (the agree quality estimator does).
var Program = pyfunc.NewProgram(pyfunc.Module{Name: "mutate.py", Text: mutatePy},
	pyfunc.Module{Name: "declared.py", Text: declaredPy}, pyfunc.Module{Name: "inputs.py", Text: inputsPy})

// mutatePy, declaredPy and inputsPy are the files Program is made of;
// imported on its own (its unit tests), inputs.py imports the others' names.
var (
	//go:embed mutate.py
	mutatePy string
	//go:embed declared.py
	declaredPy string
	//go:embed inputs.py
	inputsPy string
)

// Caller runs a function of a Python source in a sandboxed child and decodes
// its JSON return value into result. *execute.Pool implements it.
type Caller = pyfunc.Caller

// Origin says where an input of the pool came from.
type Origin string

// The origins of inputs, in the order the pool lists them.
const (
	// Example: a call written in the problem's own prompt.
	Example Origin = "example"
	// TestCall: a call with literal arguments inside a generated test that
	// is not the test's own CALL (those are asked about as they are).
	TestCall Origin = "test"
	// Model: a call a model proposed when asked for inputs only.
	Model Origin = "model"
	// Mutation: one argument of a seed call mutated by its type.
	Mutation Origin = "mutation"
	// Hint: built from the signature's type hints (only without seeds).
	Hint Origin = "hint"
)

// Input is one call of the entry point with literal arguments.
type Input struct {
	// Call is the call, rendered canonically: entry(repr(arg), ...).
	Call string `json:"call"`
	// Origin says where it came from.
	Origin Origin `json:"origin"`
	// Size is the number of characters of its arguments.
	Size int `json:"size"`
	// Atypical marks a mutation that breaks a property every seed shares
	// at some argument (a number's sign, a string's case or emptiness, a
	// sequence being sorted, without duplicates or non-empty, ...): an
	// input unlike every written example, as likely outside the function's
	// domain as inside it (see rank.OutcomesInput.Atypical).
	Atypical bool `json:"atypical,omitempty"`
	// Traits are the ways the call differs from the written examples (the
	// seeds), e.g. "1:-nonneg" where its second argument is negative and
	// every example's is not, "0:char" where its first uses a character few
	// examples use: questions that share a trait are alike in how they
	// leave the examples (see session.Spec.Traits). Empty with fewer than
	// two seeds.
	Traits []string `json:"traits,omitempty"`
}

// Defaults of Request's limits.
const (
	// DefaultMaxInputs bounds the pool of one problem.
	DefaultMaxInputs = 64
	// DefaultMaxChars bounds one call's length in characters.
	DefaultMaxChars = 120
)

// Request describes the problem an input pool is built for.
type Request struct {
	// Entry is the entry point's name.
	Entry string
	// Prompt is the problem's text; calls of Entry in it are examples.
	Prompt string
	// Signature is the entry point's def line (with context lines before it
	// if they are needed to parse it); its type hints are used when there
	// is nothing else to start from.
	Signature string
	// Tests are the generated tests: their calls with literal arguments are
	// seeds, and calls equal to a test's own CALL are not repeated.
	Tests []execute.Test
	// Proposed are calls a model proposed (Model origin).
	Proposed []string
	// MaxInputs bounds the pool (default DefaultMaxInputs); MaxChars bounds
	// one call (default DefaultMaxChars).
	MaxInputs, MaxChars int
	// Seed makes the mutations' random choices reproducible.
	Seed uint64
}

// pyTest is a test as collect reads it.
type pyTest struct {
	Setup string `json:"setup,omitempty"`
	Code  string `json:"code"`
	Input string `json:"input,omitempty"`
}

// Pool is a problem's input pool, and what collecting it found about the
// tests' own calls.
type Pool struct {
	// Inputs are the calls of the pool.
	Inputs []Input
	// Unlike[i] reports that Request.Tests[i]'s own call is unlike most
	// seeds (at least five): it lacks a property nine in ten of them share,
	// or uses a character that fewer than two of them (and fewer than one in
	// ten) use. A model's test may ask about an input outside the
	// function's domain, where any answer is arbitrary: such a question is
	// atypical (rank.OutcomesInput.Atypical).
	Unlike []bool
	// Traits[i] are the traits (Input.Traits) of Request.Tests[i]'s own
	// call; nil where it has none.
	Traits [][]string
}

// Collect builds the input pool of a problem in the sandbox (see the
// package doc for what it holds and in which order). Its cost is one
// sandboxed call. It is safe for concurrent use if c is.
func Collect(ctx context.Context, c Caller, req Request) (Pool, error) {
	if req.Entry == "" {
		return Pool{Unlike: make([]bool, len(req.Tests))}, nil
	}
	if req.MaxInputs <= 0 {
		req.MaxInputs = DefaultMaxInputs
	}
	if req.MaxChars <= 0 {
		req.MaxChars = DefaultMaxChars
	}
	tests := make([]pyTest, len(req.Tests))
	for i, t := range req.Tests {
		tests[i] = pyTest{Setup: t.Setup, Code: t.Code, Input: t.Input}
	}
	arg := collectArg{
		Entry: req.Entry, Prompt: req.Prompt, Signature: req.Signature, Tests: tests,
		Proposed: req.Proposed, MaxInputs: req.MaxInputs, MaxChars: req.MaxChars,
		Seed: req.Seed & (1<<53 - 1),
	}
	out, err := collectFunc.Call(ctx, c, arg)
	if err != nil {
		return Pool{}, fmt.Errorf("build the inputs of %s: %w", req.Entry, err)
	}
	if out.Unlike == nil {
		out.Unlike = make([]bool, len(req.Tests))
	}
	if len(out.Unlike) != len(req.Tests) {
		return Pool{}, fmt.Errorf("build the inputs of %s: %d flags for %d tests", req.Entry, len(out.Unlike), len(req.Tests))
	}
	if out.Traits != nil && len(out.Traits) != len(req.Tests) {
		return Pool{}, fmt.Errorf("build the inputs of %s: %d trait lists for %d tests", req.Entry, len(out.Traits), len(req.Tests))
	}
	return Pool{Inputs: out.Inputs, Unlike: out.Unlike, Traits: out.Traits}, nil
}

// Generate returns the input pool of Collect.
func Generate(ctx context.Context, c Caller, req Request) ([]Input, error) {
	p, err := Collect(ctx, c, req)
	return p.Inputs, err
}

// MaxTimeouts is how many calls of the input pool a program may time out on:
// once it has, it is not called on the rest of the pool, and those calls
// are recorded as timeouts (execute.NotRun; execute.TimePolicy.SkipAfter). The
// calls run smallest first (RunOrder), so the calls skipped are the larger
// ones, on which a program that loops or is too slow on smaller inputs most
// likely does the same. Both the simulated user (package eval) and live
// sessions (Synthesize) apply it.
const MaxTimeouts = 4

// RunOrder returns the order in which to run a pool's calls: by size,
// smallest first, ties in pool order (the pool's own order, which ranks
// questions, is unchanged).
func RunOrder(ins []Input) []int {
	order := make([]int, len(ins))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ins[a].Size, ins[b].Size) })
	return order
}

// Test returns the test that runs an input on a program: the call compared
// with None, so that the engine takes its fast path and reports the value
// the call returned (Result.Value) or the exception it raised. Its pass or
// fail outcome means nothing.
func (in Input) Test() execute.Test {
	return execute.Test{Code: "assert " + in.Call + " == None", Input: in.Call, Expected: "None"}
}

// Classes numbers the values that reprs stand for by Python's ==, computed
// in the sandbox: two reprs get the same number exactly when their values
// compare equal (1, 1.0 and True; -0.0 and 0.0; {1} and frozenset({1}); a
// list never equals a tuple). A repr that stands for no value (one cut to
// the engine's bound, an unprintable object) equals only itself; nan equals
// nan here, as a person reading the values would see it. literal reports
// the reprs that are Python literals, values a person can type as an
// answer. Duplicates in reprs are fine. It is safe for concurrent use if c
// is.
func Classes(ctx context.Context, c Caller, reprs []string) (classes map[string]int32, literal map[string]bool, err error) {
	classes, literal = map[string]int32{}, map[string]bool{}
	if len(reprs) == 0 {
		return classes, literal, nil
	}
	out, err := classesFunc.Call(ctx, c, classesArg{Values: reprs})
	if err != nil {
		return nil, nil, fmt.Errorf("compare %d values: %w", len(reprs), err)
	}
	if len(out.Classes) != len(reprs) || len(out.Literal) != len(reprs) {
		return nil, nil, fmt.Errorf("compare %d values: got %d classes", len(reprs), len(out.Classes))
	}
	for i, r := range reprs {
		classes[r] = out.Classes[i]
		literal[r] = out.Literal[i]
	}
	return classes, literal, nil
}
