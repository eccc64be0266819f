package qetest

import "github.com/ticoder/ticoder/internal/qe"

// TinyExamples returns a fresh labelled example set of three MBPP-like
// problems with two or three solutions each.
func TinyExamples() *qe.ExampleSet {
	return &qe.ExampleSet{Name: "tiny", Tasks: []qe.Task{
		{Problem: qe.Problem{Dataset: "mbpp", TaskID: "MBPP/1", Prompt: "def add(a, b):\n    \"\"\"Add two numbers.\"\"\"\n"},
			Solutions: []qe.Solution{{Code: "def add(a, b):\n    return a + b", Correct: true}, {Code: "def add(a, b):\n    return a - b"}}},
		{Problem: qe.Problem{Dataset: "mbpp", TaskID: "MBPP/2", Prompt: "def rev(s):\n    \"\"\"Reverse a string.\"\"\"\n"},
			Solutions: []qe.Solution{{Code: "def rev(s):\n    return s[::-1]", Correct: true}, {Code: "def rev(s):\n    return s"}}},
		{Problem: qe.Problem{Dataset: "mbpp", TaskID: "MBPP/3", Prompt: "def total(xs):\n    \"\"\"Add up a list of numbers.\"\"\"\n"},
			Solutions: []qe.Solution{{Code: "def total(xs):\n    return sum(xs)", Correct: true}, {Code: "def total(xs):\n    return len(xs)"}, {Code: "def total(xs):\n    return max(xs)"}}},
	}}
}
