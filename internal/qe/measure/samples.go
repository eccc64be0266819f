package measure

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/ticoder/ticoder/internal/check"
)

// Ranks returns the rank of every score among scores (one problem's
// candidates): 1 for the highest, and tied scores share the best rank of
// their group (competition ranking: 1, 1, 3).
func Ranks(scores []float64) []int {
	sorted := append([]float64(nil), scores...)
	sort.Sort(sort.Reverse(sort.Float64Slice(sorted)))
	ranks := make([]int, len(scores))
	for j, s := range scores {
		ranks[j] = sort.Search(len(sorted), func(k int) bool { return sorted[k] <= s }) + 1
	}
	return ranks
}

// SampleCheck is how well an estimator ranked the samples of a samples file
// against their hidden tests.
type SampleCheck struct {
	Estimator string `json:"estimator"`
	// Problems is the number of problems with scored samples.
	Problems int `json:"problems"`
	// RawPass1 is pass@1 of the samples as they came.
	RawPass1 float64 `json:"raw_pass@1"`
	// TopPass1 is pass@1 of each problem's top-ranked sample (ties broken
	// uniformly at random, as an expectation).
	TopPass1 float64 `json:"top1_pass@1"`
	Ranking
}

// CheckSamples measures scores (scores[i][j] of sample refs[i][j]) against
// passed, the hidden tests' verdicts; a sample missing from passed failed.
func CheckSamples(estimator string, refs [][]check.Ref, scores [][]float64, passed map[check.Ref]bool) (SampleCheck, error) {
	labels := make([][]float64, len(refs))
	for i := range refs {
		labels[i] = make([]float64, len(refs[i]))
		for j, r := range refs[i] {
			if passed[r] {
				labels[i][j] = 1
			}
		}
	}
	rk, err := Rank(labels, scores, 0)
	if err != nil {
		return SampleCheck{}, err
	}
	return SampleCheck{Estimator: estimator, Problems: len(refs), RawPass1: MeanPass(labels), TopPass1: TopOnePass(labels, scores), Ranking: rk}, nil
}

// PaperTestSet reports whether the test set at path is the one of the
// paper's Table 2 (HumanEval with Codestral-22B, judged by its file name)
// and cutOff leaves the ranking whole, so that Plan.PaperFigures applies.
func PaperTestSet(path string, cutOff int) bool {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return base == "heval-codestral-22b" && cutOff == 0
}
