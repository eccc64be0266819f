package mcpserver

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ticoder/ticoder/internal/interact"
)

// ErrNoSession is returned for a session id the server does not hold.
var ErrNoSession = errors.New("no such clarification session")

// convo is one clarification session and the lock that serialises the tool
// calls on it (an interact.Conversation is not safe for concurrent use).
type convo struct {
	mu   sync.Mutex
	id   string
	conv *interact.Conversation
	// used is when a tool call last held the session; guarded by store.mu.
	used time.Time
}

// store holds the live sessions in memory, at most max of them: adding one
// more forgets the one untouched longest. It is safe for concurrent use.
type store struct {
	mu  sync.Mutex
	max int
	m   map[string]*convo
	now func() time.Time
}

func newStore(max int) *store {
	if max <= 0 {
		max = 64
	}
	return &store{max: max, m: map[string]*convo{}, now: time.Now}
}

// add keeps c under a new random id and returns the session.
func (s *store) add(c *interact.Conversation) *convo {
	b := make([]byte, 12)
	_, _ = rand.Read(b) // never fails (crypto/rand panics rather)
	cv := &convo{id: hex.EncodeToString(b), conv: c}
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.m) >= s.max {
		var oldest *convo
		for _, v := range s.m {
			if oldest == nil || v.used.Before(oldest.used) {
				oldest = v
			}
		}
		delete(s.m, oldest.id)
	}
	cv.used = s.now()
	s.m[cv.id] = cv
	return cv
}

// get returns the session with id, locked; the caller unlocks cv.mu.
func (s *store) get(id string) (*convo, error) {
	s.mu.Lock()
	cv, ok := s.m[id]
	if ok {
		cv.used = s.now()
	}
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("%w %q: start one with start_clarification (sessions live in the server's memory, at most %d, and end when it stops)", ErrNoSession, clipID(id), s.max)
	}
	cv.mu.Lock()
	return cv, nil
}

// clipID shortens an id quoted in a message.
func clipID(id string) string {
	if len(id) > 40 {
		return id[:40] + "…"
	}
	return id
}
