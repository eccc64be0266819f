package measure

import (
	"math"
	"reflect"
	"testing"

	"github.com/ticoder/ticoder/internal/check"
)

func TestRanks(t *testing.T) {
	cases := []struct {
		name   string
		scores []float64
		want   []int
	}{
		{"empty", nil, []int{}},
		{"one", []float64{0.3}, []int{1}},
		{"distinct", []float64{0.1, 0.9, 0.5}, []int{3, 1, 2}},
		{"ties share the best rank", []float64{0.5, 0.9, 0.5, 0.1}, []int{2, 1, 2, 4}},
		{"all tied", []float64{0, 0, 0}, []int{1, 1, 1}},
		{"negative", []float64{-2, -1}, []int{2, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Ranks(c.scores); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Ranks(%v) = %v, want %v", c.scores, got, c.want)
			}
		})
	}
}

func TestCheckSamples(t *testing.T) {
	ref := func(task string, i int) check.Ref { return check.Ref{TaskID: task, Index: i} }
	refs := [][]check.Ref{{ref("A", 0), ref("A", 1)}, {ref("B", 0), ref("B", 1)}}
	cases := []struct {
		name    string
		scores  [][]float64
		passed  map[check.Ref]bool
		raw     float64
		top     float64
		global  float64
		wantErr bool
	}{
		// A: the right one ranked first; B: all wrong.
		{"perfect", [][]float64{{0.9, 0.1}, {0.5, 0.4}}, map[check.Ref]bool{ref("A", 0): true}, 0.25, 0.5, 1, false},
		// A's wrong one ranked first; missing verdicts count as failed.
		{"inverted", [][]float64{{0.1, 0.9}, {0.5, 0.4}}, map[check.Ref]bool{ref("A", 0): true, ref("B", 1): false}, 0.25, 0, 1 / math.Log2(5), false},
		// A tie breaks uniformly at random: half a pass in expectation; the
		// right one shares ranks 1-3 with two wrong ones.
		{"tie", [][]float64{{0.5, 0.5}, {0.5, 0.4}}, map[check.Ref]bool{ref("A", 1): true}, 0.25, 0.25, (1 + 1/math.Log2(3) + 0.5) / 3, false},
		{"scores do not match", [][]float64{{0.5}}, nil, 0, 0, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := CheckSamples("e", refs, c.scores, c.passed)
			if c.wantErr {
				if err == nil {
					t.Fatalf("no error for %v", c.scores)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Estimator != "e" || got.Problems != 2 || !closeTo(got.RawPass1, c.raw) || !closeTo(got.TopPass1, c.top) {
				t.Errorf("got %+v, want raw %v top %v", got, c.raw, c.top)
			}
			if !closeTo(got.Global, c.global) {
				t.Errorf("global nDCG %v, want %v", got.Global, c.global)
			}
		})
	}
}

func TestPaperTestSet(t *testing.T) {
	cases := []struct {
		path   string
		cutOff int
		want   bool
	}{
		{"/data/cqe/heval-codestral-22b.jsonl", 0, true},
		{"heval-codestral-22b.json", 0, true},
		{"heval-codestral-22b", 0, true},
		{"/data/cqe/heval-codestral-22b.jsonl", 5, false},
		{"/data/cqe/mbpp-codestral-22b.jsonl", 0, false},
		{"pool:heval-codestral-22b", 0, false},
		{"heval-codestral-22b.jsonl.gz", 0, false},
	}
	for _, c := range cases {
		if got := PaperTestSet(c.path, c.cutOff); got != c.want {
			t.Errorf("PaperTestSet(%q, %d) = %v, want %v", c.path, c.cutOff, got, c.want)
		}
	}
}
