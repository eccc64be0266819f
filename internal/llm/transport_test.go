package llm

import (
	"net/http"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC)
	limit := 2 * time.Minute
	tests := []struct {
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"", 0, false},
		{"3", 3 * time.Second, true},
		{" 0 ", 0, true},
		{"1.5", 1500 * time.Millisecond, true},
		{"-1", 0, false},
		{"NaN", 0, false},
		{"86400", limit, true},
		{"Inf", limit, true},
		{now.Add(30 * time.Second).Format(http.TimeFormat), 30 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{now.Add(time.Hour).Format(http.TimeFormat), limit, true},
		{"Tuesday, 03-Nov-26 12:00:10 GMT", 10 * time.Second, true}, // RFC 850
		{"soon", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := parseRetryAfter(tt.in, now, limit)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestBackoffIsBounded(t *testing.T) {
	r := Retry{Base: 100 * time.Millisecond, Max: time.Second}.withDefaults()
	for attempt := 1; attempt <= 40; attempt++ {
		full := min(r.Base<<min(attempt-1, 20), r.Max)
		for range 20 {
			d := r.backoff(attempt)
			if d < full/2 || d > full {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", attempt, d, full/2, full)
			}
		}
	}
}

func TestRetryableStatus(t *testing.T) {
	for code, want := range map[int]bool{
		200: false, 400: false, 401: false, 404: false, 408: true, 429: true,
		500: true, 501: false, 502: true, 503: true, 504: true, 505: false, 529: true,
	} {
		if got := retryableStatus(code); got != want {
			t.Errorf("retryableStatus(%d) = %v, want %v", code, got, want)
		}
	}
}
