package passk

import (
	"math"
	"testing"
)

// binom is C(n, k) as a float, for checking the product form.
func binom(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

func TestEstimate(t *testing.T) {
	cases := []struct {
		n, c, k int
		want    float64
	}{
		{10, 0, 1, 0},
		{10, 10, 1, 1},
		{10, 3, 1, 0.3},
		{100, 1, 1, 0.01},
		{5, 1, 10, 1}, // fewer samples than k: 1 if any is correct
		{5, 0, 10, 0},
		{0, 0, 1, 0},
		{4, 2, 2, 1 - 1.0/6}, // C(2,2)/C(4,2) = 1/6
	}
	for _, c := range cases {
		if got := Estimate(c.n, c.c, c.k); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Estimate(%d, %d, %d) = %v, want %v", c.n, c.c, c.k, got, c.want)
		}
	}
	// The product form equals the binomial form.
	for n := 1; n <= 30; n++ {
		for c := 0; c <= n; c++ {
			for _, k := range []int{1, 2, 5, 10} {
				if k > n {
					continue
				}
				want := 1 - binom(n-c, k)/binom(n, k)
				if got := Estimate(n, c, k); math.Abs(got-want) > 1e-9 {
					t.Fatalf("Estimate(%d, %d, %d) = %v, binomial form %v", n, c, k, got, want)
				}
			}
		}
	}
}

func TestMean(t *testing.T) {
	if got := Mean([]int{10, 10}, []int{10, 0}, 1); got != 0.5 {
		t.Errorf("Mean = %v, want 0.5", got)
	}
	if got := Mean(nil, nil, 1); got != 0 {
		t.Errorf("Mean of nothing = %v, want 0", got)
	}
}

func TestReportable(t *testing.T) {
	cases := []struct {
		name string
		ns   []int
		k    int
		want bool
	}{
		{"every problem has k samples", []int{10, 12}, 10, true},
		{"one problem has fewer", []int{10, 3}, 10, false},
		{"k = 1 with samples", []int{1, 3}, 1, true},
		{"no problems", nil, 1, false},
		{"k not positive", []int{5}, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Reportable(c.ns, c.k); got != c.want {
				t.Errorf("Reportable(%v, %d) = %v, want %v", c.ns, c.k, got, c.want)
			}
		})
	}
}
