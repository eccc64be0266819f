package demo

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/extract"
	"github.com/ticoder/ticoder/internal/lang/java"
	"github.com/ticoder/ticoder/internal/srcscan"
)

// splitJava splits a Java demo test `CALL == EXPECTED` at its last ` == `.
func splitJava(line string) (string, string, bool) {
	i := strings.LastIndex(line, " == ")
	if i <= 0 {
		return "", "", false
	}
	return strings.TrimSpace(line[:i]), strings.TrimSpace(line[i+4:]), true
}

//go:embed problems
var problemFS embed.FS

// ErrUnknown is returned by Get for a name that is not a demo problem.
var ErrUnknown = errors.New("unknown demo problem")

// order lists the problems in the order they are offered: the three tasks of
// the paper's user study first.
var order = []string{
	"text_match", "first_missing", "max_increasing_product",
	"second_largest", "rle_encode", "is_leap_year", "median", "count_vowels",
	"digit_sum", "min_cost", "sorted_union",
}

// entries are the entry points of demos whose name is not their entry
// point's (Java methods are camelCase).
var entries = map[string]string{"min_cost": "minCost", "sorted_union": "sortedUnion"}

// Label is the author's verdict on a candidate or a test.
type Label string

// The labels of candidates and tests.
const (
	// Correct: the candidate agrees with the reference on every test whose
	// input is in the domain; for a test, the reference passes it.
	Correct Label = "correct"
	// Buggy: the candidate differs from the reference on some such test.
	Buggy Label = "bug"
	// HiddenBug: a buggy candidate that agrees with the reference on every
	// test: only an input no test tries (a synthesized question) tells it
	// apart.
	HiddenBug Label = "hidden bug"
	// Wrong: a test whose expected value is not what the reference returns.
	Wrong Label = "wrong"
	// Undefined: a test whose input the reference rejects by raising.
	Undefined Label = "undefined"
)

// Problem is one demo problem. A Problem is a value; its slices are not
// shared with any other Problem returned by this package.
type Problem struct {
	// Name is the problem's short name, also its entry point's name.
	Name string `json:"name"`
	// Title is a few words for menus.
	Title string `json:"title"`
	// Summary is one sentence describing what is wanted.
	Summary string `json:"summary"`
	// Stub is what a user would type: context, def line and docstring.
	Stub string `json:"stub"`
	// EntryPoint is the function under test.
	EntryPoint string `json:"entry_point"`
	// Language is the problem's language: "" (Python) or "java" (its files
	// are stub.java, reference.java, candidates.java with `// candidate`
	// headers, and tests.java with one `CALL == EXPECTED` a line, labels
	// as `  // wrong`).
	Language string `json:"language,omitempty"`
	// Reference is a complete program solving the problem as intended.
	Reference string `json:"reference"`
	// Candidates are the candidate programs with their multiplicities.
	Candidates []extract.Candidate `json:"candidates"`
	// CandidateLabels[i] is Correct, Buggy or HiddenBug for Candidates[i].
	CandidateLabels []Label `json:"candidate_labels"`
	// CandidateNotes[i] says what is wrong with a buggy candidate.
	CandidateNotes []string `json:"candidate_notes"`
	// Tests are the candidate tests, each `assert CALL == EXPECTED`.
	Tests []extract.Test `json:"tests"`
	// TestLabels[j] is Correct, Wrong or Undefined for Tests[j].
	TestLabels []Label `json:"test_labels"`
}

// Names returns the names of the demo problems in their usual order.
func Names() []string { return slices.Clone(order) }

// List returns every demo problem in the usual order.
func List() ([]Problem, error) {
	out := make([]Problem, 0, len(order))
	for _, name := range order {
		p, err := Get(name)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Get returns the demo problem called name.
func Get(name string) (Problem, error) {
	if !slices.Contains(order, name) {
		return Problem{}, fmt.Errorf("%w %q (choose one of %s)", ErrUnknown, name, strings.Join(order, ", "))
	}
	dir := path.Join("problems", name)
	read := func(file string) (string, error) {
		b, err := fs.ReadFile(problemFS, path.Join(dir, file))
		if err != nil {
			return "", fmt.Errorf("demo %s: %w", name, err)
		}
		return string(b), nil
	}
	p := Problem{Name: name, EntryPoint: name}
	ext, comment := ".py", "#"
	if _, err := fs.Stat(problemFS, path.Join(dir, "stub.java")); err == nil {
		p.Language, ext, comment = dataset.Java, ".java", "//"
	}
	if e, ok := entries[name]; ok {
		p.EntryPoint = e
	}
	meta, err := read("problem.json")
	if err != nil {
		return Problem{}, err
	}
	if err := json.Unmarshal([]byte(meta), &p); err != nil {
		return Problem{}, fmt.Errorf("demo %s: problem.json: %w", name, err)
	}
	p.Name = name
	if p.Stub, err = read("stub" + ext); err != nil {
		return Problem{}, err
	}
	if p.Reference, err = read("reference" + ext); err != nil {
		return Problem{}, err
	}
	cands, err := read("candidates" + ext)
	if err != nil {
		return Problem{}, err
	}
	if err := p.parseCandidates(cands, comment); err != nil {
		return Problem{}, fmt.Errorf("demo %s: candidates%s: %w", name, ext, err)
	}
	tests, err := read("tests" + ext)
	if err != nil {
		return Problem{}, err
	}
	if err := p.parseTests(tests, comment); err != nil {
		return Problem{}, fmt.Errorf("demo %s: tests%s: %w", name, ext, err)
	}
	return p, nil
}

var candidateHeader = regexp.MustCompile(`^(?:#|//) candidate count=(\d+) (correct|bug: .+|hidden bug: .+)$`)

func (p *Problem) parseCandidates(text, comment string) error {
	var cur *strings.Builder
	flush := func() {
		if cur != nil {
			p.Candidates[len(p.Candidates)-1].Program = strings.TrimSpace(cur.String()) + "\n"
		}
	}
	first := 0
	for n, line := range strings.Split(text, "\n") {
		m := candidateHeader.FindStringSubmatch(line)
		if m != nil && !strings.HasPrefix(line, comment+" ") {
			m = nil
		}
		if m == nil {
			if cur == nil && strings.TrimSpace(line) != "" {
				return fmt.Errorf("line %d: code before the first '%s candidate' header", n+1, comment)
			}
			if cur != nil {
				cur.WriteString(line + "\n")
			}
			continue
		}
		flush()
		count, err := strconv.Atoi(m[1])
		if err != nil || count < 1 {
			return fmt.Errorf("line %d: bad count %q", n+1, m[1])
		}
		label, note := Correct, ""
		if rest, ok := strings.CutPrefix(m[2], "bug: "); ok {
			label, note = Buggy, rest
		}
		if rest, ok := strings.CutPrefix(m[2], "hidden bug: "); ok {
			label, note = HiddenBug, rest
		}
		p.Candidates = append(p.Candidates, extract.Candidate{Count: count, First: first})
		p.CandidateLabels = append(p.CandidateLabels, label)
		p.CandidateNotes = append(p.CandidateNotes, note)
		first += count
		cur = &strings.Builder{}
	}
	flush()
	if len(p.Candidates) == 0 {
		return errors.New("no candidates")
	}
	return nil
}

func (p *Problem) parseTests(text, comment string) error {
	split := SplitAssert
	if p.Language == dataset.Java {
		split = splitJava
	}
	for n, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		label := Correct
		for _, l := range []Label{Wrong, Undefined} {
			if rest, ok := strings.CutSuffix(line, "  "+comment+" "+string(l)); ok {
				line, label = rest, l
			}
		}
		input, expected, ok := split(line)
		if !ok {
			return fmt.Errorf("line %d: %q is not of the form `assert CALL == EXPECTED`", n+1, line)
		}
		test := execute.Test{Code: line, Input: input, Expected: expected}
		if p.Language == dataset.Java {
			test = java.Java{}.ValueTest(input, expected)
		}
		p.Tests = append(p.Tests, extract.Test{
			Test:  test,
			Count: 1,
			First: len(p.Tests),
		})
		p.TestLabels = append(p.TestLabels, label)
	}
	if len(p.Tests) == 0 {
		return errors.New("no tests")
	}
	return nil
}

// Dataset returns the problem in the form benchmark code reads: Reference
// as the reference solution and the tests labelled Correct as the hidden
// tests.
func (p Problem) Dataset() dataset.Problem {
	if p.Language == dataset.Java {
		st, _ := java.Java{}.ParseStub(context.Background(), nil, p.Name, p.Stub)
		var asserts []string
		for j, t := range p.Tests {
			if p.TestLabels[j] == Correct {
				asserts = append(asserts, t.Code)
			}
		}
		return dataset.Problem{
			ID: "demo/" + p.Name, Dataset: "demo", Prompt: p.Stub, Description: st.Docstring, Context: st.Context,
			Signature: st.Signature, EntryPoint: p.EntryPoint, Reference: p.Reference, Language: dataset.Java, Asserts: asserts,
		}
	}
	context, signature, description := splitStub(p.Stub, p.EntryPoint)
	var asserts []string
	for j, t := range p.Tests {
		if p.TestLabels[j] == Correct {
			asserts = append(asserts, t.Code)
		}
	}
	return dataset.Problem{
		ID:          "demo/" + p.Name,
		Dataset:     "demo",
		Prompt:      p.Stub,
		Description: description,
		Context:     context,
		Signature:   signature,
		EntryPoint:  p.EntryPoint,
		Reference:   p.Reference,
		Test:        strings.Join(asserts, "\n") + "\n",
		Asserts:     asserts,
	}
}

// splitStub cuts a stub into the code before the top-level def line of
// entry, the def line up to its colon, and the docstring's text (its first
// string literal, white space collapsed).
func splitStub(stub, entry string) (context, signature, description string) {
	toks := srcscan.Tokens(stub)
	d, ok := srcscan.FindDef(stub, toks, entry)
	if !ok || !d.TopLevel || d.Colon < 0 {
		return "", "", ""
	}
	for _, t := range toks[d.Body:] {
		if lit, ok := srcscan.Python.LiteralAt(stub, t.Start); ok && t.Kind == srcscan.Str {
			description = strings.Join(strings.Fields(lit.Body(stub)), " ")
			break
		}
	}
	return strings.TrimSuffix(stub[:d.Start], "\n"), stub[d.Start:d.Colon], description
}
