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

// Stats counts what happened to the raw pieces of one problem's completions.
// For codes a piece is a sample; for tests it is a top-level statement (after
// test wrappers are removed) or a piece of text that did not parse. Every
// piece is counted exactly once, so Pieces = Kept + Setup + Dropped().
type Stats struct {
	// Samples is the number of completions.
	Samples int `json:"samples"`
	// Pieces is the number of raw pieces examined.
	Pieces int `json:"pieces"`
	// Kept is the number of pieces that became a candidate or a test, before
	// deduplication.
	Kept int `json:"kept"`
	// Unique is the number of distinct candidates or tests.
	Unique int `json:"unique"`
	// Setup counts statements kept as the setup of some test.
	Setup int `json:"setup,omitempty"`
	// Trimmed counts kept code samples from which trailing code (examples,
	// prints, asserts, other functions) was cut; they are not dropped.
	Trimmed int `json:"trimmed,omitempty"`
	// Empty counts blank completions and bare "assert" statements.
	Empty int `json:"empty"`
	// Syntax counts pieces that did not parse.
	Syntax int `json:"syntax"`
	// Truncated counts pieces cut off at the end of a completion.
	Truncated int `json:"truncated"`
	// NoEntryPoint counts programs that do not define the entry point and
	// tests that do not call it.
	NoEntryPoint int `json:"no_entry_point"`
	// Unbound counts tests that read a name nothing defines (not the test,
	// its setup, the builtins nor the problem's prompt), such as the
	// placeholder in assert f(1) == ____.
	Unbound int `json:"unbound,omitempty"`
	// NotTest counts statements that are neither an assertion nor the setup
	// of one (prints, stray imports, stubs of the function).
	NotTest int `json:"not_test,omitempty"`
	// Failed counts samples that extraction itself failed on (a bug, or a
	// sample that crashed the sandboxed parser); each counts as one piece.
	Failed int `json:"failed"`
}

// Dropped returns the number of pieces dropped, whatever the reason.
func (s Stats) Dropped() int {
	return s.Empty + s.Syntax + s.Truncated + s.NoEntryPoint + s.Unbound + s.NotTest + s.Failed
}

// Add adds o's counters to s.
func (s *Stats) Add(o Stats) {
	s.Samples += o.Samples
	s.Pieces += o.Pieces
	s.Kept += o.Kept
	s.Unique += o.Unique
	s.Setup += o.Setup
	s.Trimmed += o.Trimmed
	s.Empty += o.Empty
	s.Syntax += o.Syntax
	s.Truncated += o.Truncated
	s.NoEntryPoint += o.NoEntryPoint
	s.Unbound += o.Unbound
	s.NotTest += o.NotTest
	s.Failed += o.Failed
}
