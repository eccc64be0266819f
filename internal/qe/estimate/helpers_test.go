package estimate

import "math"

func logf(x float64) float64  { return math.Log(x) }
func sqrtf(x float64) float64 { return math.Sqrt(x) }

// closeToF32 compares values computed through float32 vectors.
func closeToF32(a, b float64) bool { return math.Abs(a-b) <= 1e-6 }

// closeTo compares float64 results.
func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
