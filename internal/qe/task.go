package qe

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/srcscan"
)

// Problem is what an estimator knows of a task: its text and identity.
type Problem struct {
	// Dataset names the benchmark, lower case (e.g. "humaneval", "mbpp").
	Dataset string `json:"dataset"`
	// TaskID is the dataset's task id (e.g. "HumanEval/0", "MBPP/2").
	TaskID string `json:"task_id"`
	// Prompt is the problem as the generator saw it: natural language,
	// signature, docstring (with its examples, where the dataset has them).
	Prompt string `json:"prompt"`
	// EntryPoint is the name of the function under test; empty means "the
	// last function defined in Prompt".
	EntryPoint string `json:"entry_point,omitempty"`
	// Language is the prompt's language: "" for Python, "java".
	Language string `json:"language,omitempty"`
}

// Key returns the problem's identity for the never-the-same-problem rule.
func (p Problem) Key() ProblemKey { return MakeProblemKey(p.Dataset, p.TaskID) }

// Entry returns the entry point: EntryPoint if set, else the name of the last
// top-level function defined in Prompt, else "".
func (p Problem) Entry() string {
	if p.EntryPoint != "" {
		return p.EntryPoint
	}
	if p.Language == dataset.Java {
		return lastJavaMethod(p.Prompt)
	}
	return lastDef(p.Prompt)
}

// javaMethodRE finds the name of a static method declaration in Java.
var javaMethodRE = regexp.MustCompile(`(?m)^\s*(?:public\s+|private\s+|protected\s+)?static\s+[^(){};=]+?\s+([A-Za-z_$][A-Za-z0-9_$]*)\s*\(`)

// lastJavaMethod returns the last static method a Java prompt declares.
func lastJavaMethod(prompt string) string {
	m := javaMethodRE.FindAllStringSubmatch(prompt, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

// LanguageOf guesses a CQE row's language: MBJP's task ids, or a prompt
// that declares a class with a static method and no Python def.
func LanguageOf(id, prompt string) string {
	if strings.HasPrefix(strings.ToLower(id), "mbjp/") ||
		!defRE.MatchString(prompt) && strings.Contains(prompt, "class ") && javaMethodRE.MatchString(prompt) {
		return dataset.Java
	}
	return ""
}

var defRE = regexp.MustCompile(`(?m)^def\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(`)

// lastDef returns the name of the last top-level def in src, or "".
func lastDef(src string) string {
	m := defRE.FindAllStringSubmatch(src, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

// Syntax returns the lexical syntax of the problem's code: Java's for
// Java problems, else Python's.
func (p Problem) Syntax() srcscan.Syntax {
	if p.Language == dataset.Java {
		return srcscan.Java
	}
	return srcscan.Python
}

// ProblemKey identifies a problem across files: the dataset family (the
// lower-case dataset name up to its first "-", so "humaneval-noexamples" is
// "humaneval" and "mbpp-sanitized" is "mbpp") and the task id after its last
// "/", so that "HumanEval/3", "humaneval/3" and "3" are one problem.
type ProblemKey struct {
	Dataset string
	ID      string
}

// String formats the key as dataset/id.
func (k ProblemKey) String() string { return k.Dataset + "/" + k.ID }

// MakeProblemKey normalises a dataset name and task id into a key.
func MakeProblemKey(datasetName, taskID string) ProblemKey {
	id := strings.TrimSpace(taskID)
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	family := strings.ToLower(strings.TrimSpace(datasetName))
	if i := strings.IndexByte(family, '-'); i > 0 {
		family = family[:i]
	}
	return ProblemKey{Dataset: family, ID: id}
}

// FromDataset converts a benchmark problem into the estimator's view.
func FromDataset(p dataset.Problem) Problem {
	return Problem{Dataset: p.Dataset, TaskID: p.ID, Prompt: p.Prompt, EntryPoint: p.EntryPoint, Language: p.Language}
}

// Solution is one labelled program of a task.
type Solution struct {
	// Code is the program (for the CQE data, a complete function definition).
	Code string `json:"code"`
	// Correct reports whether it passes the task's hidden tests.
	Correct bool `json:"correct"`
}

// Task is a problem with its labelled solutions.
type Task struct {
	Problem
	// Reference is the dataset's reference solution, if known; estimators do
	// not see it.
	Reference string     `json:"reference,omitempty"`
	Solutions []Solution `json:"solutions"`
}

// Labels returns the solutions' labels as 0/1 relevance values.
func (t Task) Labels() []float64 {
	out := make([]float64, len(t.Solutions))
	for i, s := range t.Solutions {
		if s.Correct {
			out[i] = 1
		}
	}
	return out
}

// Codes returns the solutions' programs.
func (t Task) Codes() []string {
	out := make([]string, len(t.Solutions))
	for i, s := range t.Solutions {
		out[i] = s.Code
	}
	return out
}

// ExampleSet is a named set of labelled tasks. A zero ExampleSet is empty.
type ExampleSet struct {
	Name  string `json:"name"`
	Tasks []Task `json:"tasks"`
}

// Size returns the number of labelled solutions in the example set.
func (p *ExampleSet) Size() int {
	n := 0
	for _, t := range p.Tasks {
		n += len(t.Solutions)
	}
	return n
}

// Positives returns the number of correct solutions in the example set.
func (p *ExampleSet) Positives() int {
	n := 0
	for _, t := range p.Tasks {
		for _, s := range t.Solutions {
			if s.Correct {
				n++
			}
		}
	}
	return n
}

// AnyInLanguage reports whether a problem of one of the sets (nil sets are
// skipped) is in language (a dataset language: "" for Python, "java").
func AnyInLanguage(language string, sets ...*ExampleSet) bool {
	for _, p := range sets {
		if p == nil {
			continue
		}
		for _, t := range p.Tasks {
			if t.Problem.Language == language {
				return true
			}
		}
	}
	return false
}

// Validate checks that every task has an id and that no problem appears twice.
func (p *ExampleSet) Validate() error {
	seen := make(map[ProblemKey]bool, len(p.Tasks))
	for i, t := range p.Tasks {
		if t.TaskID == "" {
			return fmt.Errorf("pool %s: task %d has no task id", p.Name, i)
		}
		k := t.Key()
		if seen[k] {
			return fmt.Errorf("pool %s: problem %s appears twice", p.Name, k)
		}
		seen[k] = true
	}
	return nil
}
