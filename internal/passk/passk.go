package passk

// Estimate returns the unbiased estimate of pass@k for one problem with n
// samples of which c are correct: 1 - C(n-c, k) / C(n, k). It is computed as
// a product, 1 - prod_{i=n-c+1..n} (1 - k/i), which stays exact in floating
// point for large n. When n < k the estimate is 1 if any sample is correct
// (the convention of OpenAI's human-eval); n = 0 gives 0.
func Estimate(n, c, k int) float64 {
	if n <= 0 || c <= 0 || k <= 0 {
		return 0
	}
	if n-c < k {
		return 1
	}
	prod := 1.0
	for i := n - c + 1; i <= n; i++ {
		prod *= 1 - float64(k)/float64(i)
	}
	return 1 - prod
}

// Mean returns the average of Estimate over problems, given each problem's
// sample count and correct count. It is meaningful only when Reportable(ns,
// k): a problem with fewer than k samples would count as solved as soon as
// one sample passes.
func Mean(ns, cs []int, k int) float64 {
	if len(ns) == 0 {
		return 0
	}
	sum := 0.0
	for i := range ns {
		sum += Estimate(ns[i], cs[i], k)
	}
	return sum / float64(len(ns))
}

// Reportable reports whether pass@k can be estimated for problems with ns
// samples: every problem has at least k. OpenAI's human-eval reports a k
// only then, and so do we.
func Reportable(ns []int, k int) bool {
	if len(ns) == 0 || k <= 0 {
		return false
	}
	for _, n := range ns {
		if n < k {
			return false
		}
	}
	return true
}
