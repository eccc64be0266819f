package progress

import (
	"sync"
	"time"
)

// Describer is a Reporter whose current phase can be relabelled.
type Describer interface {
	// Describe replaces the current phase's label.
	Describe(label string)
}

// Describe replaces the bar's label.
func (b *Bar) Describe(label string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		b.bar.Describe(label)
	}
}

// Describe replaces the label of the lines to come.
func (l *Lines) Describe(label string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.label = label
}

// WithNote returns a Reporter that shows note() after r's labels, such as
// "checking samples [2 workers, 3 jobs running]", and updates it as the
// note changes (looked at, at most, once a second). A Reporter that is not
// a Describer gets the note only when a phase starts.
func WithNote(r Reporter, note func() string) Reporter {
	return &noted{r: r, note: note, now: time.Now}
}

type noted struct {
	r    Reporter
	note func() string
	// now returns the time; tests replace it.
	now func() time.Time

	mu      sync.Mutex
	label   string
	shown   string
	checked time.Time
}

func (n *noted) Start(label string, total int) {
	n.mu.Lock()
	n.label, n.shown, n.checked = label, n.note(), n.now()
	full := n.full()
	n.mu.Unlock()
	n.r.Start(full, total)
}

func (n *noted) Add(k int) {
	n.r.Add(k)
	d, ok := n.r.(Describer)
	if !ok {
		return
	}
	n.mu.Lock()
	if n.now().Sub(n.checked) < time.Second {
		n.mu.Unlock()
		return
	}
	n.checked = n.now()
	note := n.note()
	changed := note != n.shown
	n.shown = note
	full := n.full()
	n.mu.Unlock()
	if changed {
		d.Describe(full)
	}
}

func (n *noted) Finish() { n.r.Finish() }

// full is the label with the note; n.mu is held.
func (n *noted) full() string {
	if n.shown == "" {
		return n.label
	}
	return n.label + " [" + n.shown + "]"
}
