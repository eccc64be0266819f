package llm

import (
	"sync"
	"time"
)

// Waiting records the requests sent to model servers that have no answer
// yet, so that a front end can say what it waits for (a server that takes
// requests and never answers looks, otherwise, like a hang). Give one to
// Options.Waiting; a nil *Waiting records nothing. It is safe for
// concurrent use.
type Waiting struct {
	// Now returns the time; nil means time.Now. Tests replace it.
	Now func() time.Time

	mu      sync.Mutex
	next    uint64
	pending map[uint64]pendingAttempt
	// answered is when the last answer of any server came.
	answered time.Time
}

// pendingAttempt is one attempt without an answer.
type pendingAttempt struct {
	url   string
	since time.Time
}

func (w *Waiting) now() time.Time {
	if w.Now == nil {
		return time.Now()
	}
	return w.Now()
}

// begin records an attempt to url and returns the function that records
// its answer (or failure).
func (w *Waiting) begin(url string) (answered func()) {
	if w == nil {
		return func() {}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pending == nil {
		w.pending = map[uint64]pendingAttempt{}
	}
	id := w.next
	w.next++
	w.pending[id] = pendingAttempt{url: url, since: w.now()}
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.pending, id)
		w.answered = w.now()
	}
}

// Silent reports the model server that has kept the longest silence: a
// request to url has been waiting, and no answer from any server has come,
// since the time returned. ok is false when no request waits.
func (w *Waiting) Silent() (url string, since time.Time, ok bool) {
	if w == nil {
		return "", time.Time{}, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range w.pending {
		if !ok || p.since.Before(since) {
			url, since, ok = p.url, p.since, true
		}
	}
	if ok && w.answered.After(since) {
		since = w.answered
	}
	return url, since, ok
}
