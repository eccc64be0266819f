package extract

import "github.com/ticoder/ticoder/internal/execute"

// Candidate is one distinct program (after normalisation) with the number of
// raw samples that produced it.
type Candidate struct {
	// Program is the complete, parsing program (context, signature, body).
	Program string `json:"program"`
	// Count is the candidate's multiplicity: how many samples normalised to it.
	Count int `json:"count"`
	// First is the index of the first raw sample that produced it.
	First int `json:"first"`
}

// Test is one distinct single-assertion test with its multiplicity.
type Test struct {
	execute.Test
	// Count is how many raw pieces normalised to this test.
	Count int `json:"count"`
	// First is the index of the first raw sample that produced it.
	First int `json:"first"`
}
