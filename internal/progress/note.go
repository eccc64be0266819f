package progress

import (
	"fmt"
	"sync"
	"time"
)

// Describer is a Reporter whose current phase can be relabelled.
type Describer interface {
	// Describe replaces the current phase's label.
	Describe(label string)
}

// Noticer is a Reporter that can show a notice beside its current phase,
// such as what the phase waits for; a caller that repeats it keeps the
// clock of the progress line live while nothing else moves.
type Noticer interface {
	// Notice shows s beside the current phase ("" removes it) and reports
	// whether a phase is on to show it.
	Notice(s string) bool
}

// Describe replaces the bar's label.
func (b *Bar) Describe(label string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.label = label
	b.describe()
}

// Notice shows s after the bar's label and redraws the bar (its clock
// included); "" removes it.
func (b *Bar) Notice(s string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar == nil {
		return false
	}
	b.note = s
	b.describe()
	return true
}

// describe draws the label and the notice; b.mu is held.
func (b *Bar) describe() {
	if b.bar == nil {
		return
	}
	if b.note == "" {
		b.bar.Describe(b.label)
		return
	}
	b.bar.Describe(b.label + ": " + b.note)
}

// Describe replaces the label of the lines to come.
func (l *Lines) Describe(label string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.label = label
}

// Notice writes "LABEL: D/N (P%), T elapsed; S" at once for the first
// notice, then when the last line is at least the interval old; "" writes
// nothing and makes the next notice a first one.
func (l *Lines) Notice(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.active {
		return false
	}
	now := l.now()
	if s == "" {
		l.noticed = false
		return true
	}
	if l.noticed && now.Sub(l.last) < l.every {
		return true
	}
	l.last, l.noticed = now, true
	fmt.Fprintf(l.w, "%s: %d/%d (%d%%), %s elapsed; %s\n", l.label, l.done, l.total, percent(l.done, l.total), round(now.Sub(l.start)), s)
	return true
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

// Notice passes s to r when r is a Noticer.
func (n *noted) Notice(s string) bool {
	if nr, ok := n.r.(Noticer); ok {
		return nr.Notice(s)
	}
	return false
}

// full is the label with the note; n.mu is held.
func (n *noted) full() string {
	if n.shown == "" {
		return n.label
	}
	return n.label + " [" + n.shown + "]"
}
