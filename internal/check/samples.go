package check

import "github.com/ticoder/ticoder/internal/samples"

// FromSamples turns the samples read from a samples file (package samples)
// into Run's input.
func FromSamples(smp []samples.Sample) []Sample {
	in := make([]Sample, len(smp))
	for i, s := range smp {
		in[i] = Sample{TaskID: s.TaskID, Index: s.Index, Completion: s.Completion, Program: s.Program, Err: s.Err, Line: s.Line}
	}
	return in
}

// Ref locates a sample: its task and its index among the task's samples.
type Ref struct {
	TaskID string
	Index  int
}

// Passed returns, for every sample that ran, whether it passed.
func (s *Summary) Passed() map[Ref]bool {
	out := make(map[Ref]bool, len(s.Results))
	for _, r := range s.Results {
		out[Ref{r.TaskID, r.Index}] = r.Passed
	}
	return out
}
