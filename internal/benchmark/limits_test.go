package benchmark

import (
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/eval"
)

// TestLimitsSettingsAndSummary: the summary says the time limits in words,
// while the settings that runs resume under keep the limits' %+v form
// byte for byte (a change would make every earlier run unresumable).
func TestLimitsSettingsAndSummary(t *testing.T) {
	for _, tc := range []struct {
		name     string
		limits   eval.Limits
		settings string
		says     []string
	}{
		{"defaults", eval.Limits{},
			"{Timeout:0s Factor:0 Floor:0s HiddenFloor:0s Short:0s Confirm:0 Cap:0s Reference:0s HiddenReference:0s}",
			[]string{"20 × the reference's time, 100ms to 1s", "at most 25ms", "its first time-out", "at least 500ms", "20s on the hidden tests"}},
		{"set", eval.Limits{Factor: 10, Floor: 50 * time.Millisecond, Confirm: 2},
			"{Timeout:0s Factor:10 Floor:50ms HiddenFloor:0s Short:0s Confirm:2 Cap:0s Reference:0s HiddenReference:0s}",
			[]string{"10 × the reference's time, 50ms to 1s", "its first 2 time-outs"}},
		{"one timeout", eval.Limits{Timeout: 3 * time.Second},
			"{Timeout:3s Factor:0 Floor:0s HiddenFloor:0s Short:0s Confirm:0 Cap:0s Reference:0s HiddenReference:0s}",
			[]string{"every test 3s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Config{Limits: tc.limits}).Settings().Extra["limits"]; got != tc.settings {
				t.Errorf("settings limits %q, want %q (the resume key must not change)", got, tc.settings)
			}
			d := tc.limits.Describe()
			for _, w := range tc.says {
				if !strings.Contains(d, w) {
					t.Errorf("Describe() = %q, want it to say %q", d, w)
				}
			}
			if strings.ContainsAny(d, "{}") || strings.Contains(d, "Timeout:") {
				t.Errorf("Describe() = %q prints a Go struct", d)
			}
		})
	}
}
