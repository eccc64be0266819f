package mcpserver

import (
	"errors"
	"testing"
	"time"
)

// TestStoreForgetsTheOldest: a full store forgets the session untouched
// longest, and an unknown id is ErrNoSession with what to do.
func TestStoreForgetsTheOldest(t *testing.T) {
	s := newStore(2)
	now := time.Unix(0, 0)
	s.now = func() time.Time { now = now.Add(time.Second); return now }
	a, b := s.add(nil), s.add(nil)
	cv, err := s.get(a.id) // a is now newer than b
	if err != nil {
		t.Fatal(err)
	}
	cv.mu.Unlock()
	c := s.add(nil)
	for _, tc := range []struct {
		id   string
		kept bool
	}{{a.id, true}, {b.id, false}, {c.id, true}, {"nope", false}} {
		cv, err := s.get(tc.id)
		if cv != nil {
			cv.mu.Unlock()
		}
		if (err == nil) != tc.kept || (err != nil && !errors.Is(err, ErrNoSession)) {
			t.Errorf("get(%s) = %v, want kept %v", tc.id, err, tc.kept)
		}
	}
	if len(a.id) != 24 || a.id == b.id {
		t.Errorf("ids %q %q: want 24 random hex digits each", a.id, b.id)
	}
}
