package execute

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTimePolicy: a policy's defaults (DefaultTimeout, DefaultDegradeLimit)
// and its restriction to some of its tests (Columns).
func TestTimePolicy(t *testing.T) {
	s := time.Second
	limits := []struct {
		name   string
		policy TimePolicy
		want   []time.Duration
	}{
		{"zero", TimePolicy{}, []time.Duration{DefaultTimeout, DefaultTimeout, DefaultTimeout}},
		{"within", Within(s), []time.Duration{s, s, s}},
		{"per test", PerTest([]time.Duration{s, 0, 2 * s}), []time.Duration{s, DefaultTimeout, 2 * s}},
		{"per test overrides", TimePolicy{Timeout: 5 * s, Timeouts: []time.Duration{s, 0, 2 * s}}, []time.Duration{s, DefaultTimeout, 2 * s}},
	}
	for _, c := range limits {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.policy.EachLimit(3)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("EachLimit (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := PerTest([]time.Duration{s}).EachLimit(2); err == nil {
		t.Error("EachLimit accepted one limit for two tests")
	}
	reduced := []struct {
		policy TimePolicy
		want   time.Duration
	}{
		{TimePolicy{}, 0},
		{TimePolicy{DegradeLimit: s}, 0},
		{TimePolicy{DegradeAfter: 2}, DefaultDegradeLimit},
		{TimePolicy{DegradeAfter: 2, DegradeLimit: s}, s},
	}
	for _, c := range reduced {
		if got := c.policy.reducedLimit(); got != c.want {
			t.Errorf("%+v: reduced limit %v, want %v", c.policy, got, c.want)
		}
	}
	p := TimePolicy{Timeouts: []time.Duration{1, 2, 3, 4, 5}, SkipAfter: 4, SkipFrom: 2}
	cols := []struct {
		cols []int
		want TimePolicy
	}{
		{[]int{0, 1, 2, 3, 4}, p},
		{[]int{1, 3}, TimePolicy{Timeouts: []time.Duration{2, 4}, SkipAfter: 4, SkipFrom: 1}},
		{[]int{3, 4}, TimePolicy{Timeouts: []time.Duration{4, 5}, SkipAfter: 4, SkipFrom: 0}},
		{[]int{0, 1}, TimePolicy{Timeouts: []time.Duration{1, 2}, SkipAfter: 4, SkipFrom: 2}},
	}
	for _, c := range cols {
		t.Run(fmt.Sprint("columns ", c.cols), func(t *testing.T) {
			if diff := cmp.Diff(c.want, p.Columns(c.cols)); diff != "" {
				t.Errorf("Columns (-want +got):\n%s", diff)
			}
		})
	}
}
