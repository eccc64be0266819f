package llm

import (
	"testing"
	"time"
)

// TestWaitingSilence: the silence is that of the request waiting longest,
// and starts again with each answer of any request; a nil Waiting reports
// none.
func TestWaitingSilence(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := t0
	w := &Waiting{Now: func() time.Time { return now }}
	type want struct {
		url   string
		since time.Time
		ok    bool
	}
	check := func(step string, w0 want) {
		t.Helper()
		url, since, ok := w.Silent()
		if url != w0.url || !since.Equal(w0.since) || ok != w0.ok {
			t.Errorf("%s: Silent() = %q, %v, %v; want %q, %v, %v", step, url, since, ok, w0.url, w0.since, w0.ok)
		}
	}
	check("nothing sent", want{})
	a := w.begin("http://a/v1")
	now = t0.Add(time.Second)
	b := w.begin("http://b/v1")
	check("two waiting", want{"http://a/v1", t0, true})
	now = t0.Add(3 * time.Second)
	b()
	check("b answered", want{"http://a/v1", t0.Add(3 * time.Second), true})
	a()
	check("both answered", want{})

	var none *Waiting
	none.begin("http://c/v1")()
	if _, _, ok := none.Silent(); ok {
		t.Error("a nil Waiting reports a request")
	}
}
