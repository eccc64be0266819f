package eval

import "slices"

// LeaveOutLargeK removes from s's baseline and extracted pass@k every k that
// some problem has fewer than k raw samples for, since the estimate would
// count such a problem as solved as soon as one sample passes; OpenAI's
// harness leaves such k out too. It returns the k removed and the smallest
// number of samples of a problem (0 without results).
func (s *Summary) LeaveOutLargeK(results []Result) (omitted []int, minSamples int) {
	if len(results) == 0 {
		return nil, 0
	}
	minSamples = results[0].Samples
	for _, r := range results {
		minSamples = min(minSamples, r.Samples)
	}
	for _, k := range sortedKeys(s.Baseline) {
		if k > minSamples {
			omitted = append(omitted, k)
			delete(s.Baseline, k)
		}
	}
	for _, k := range sortedKeys(s.Extracted) {
		if k > minSamples {
			if !slices.Contains(omitted, k) {
				omitted = append(omitted, k)
			}
			delete(s.Extracted, k)
		}
	}
	slices.Sort(omitted)
	return omitted, minSamples
}
