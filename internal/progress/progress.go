package progress

import (
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Reporter receives progress. Implementations must be safe for concurrent use.
type Reporter interface {
	// Start announces a new phase of total units of work.
	Start(label string, total int)
	// Add records n more finished units.
	Add(n int)
	// Finish ends the current phase.
	Finish()
}

// Nop is a Reporter that ignores everything.
type Nop struct{}

// Start does nothing.
func (Nop) Start(string, int) {}

// Add does nothing.
func (Nop) Add(int) {}

// Finish does nothing.
func (Nop) Finish() {}

// OrNop returns r, or Nop if r is nil.
func OrNop(r Reporter) Reporter {
	if r == nil {
		return Nop{}
	}
	return r
}

// Bar is a Reporter that draws a progress bar on a writer (normally stderr).
// It is safe for concurrent use.
type Bar struct {
	w   io.Writer
	mu  sync.Mutex
	bar *progressbar.ProgressBar
}

// NewBar returns a Bar drawing on w.
func NewBar(w io.Writer) *Bar { return &Bar{w: w} }

// Start begins a new bar.
func (b *Bar) Start(label string, total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		_ = b.bar.Finish()
	}
	b.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(b.w),
		progressbar.OptionSetDescription(label),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("it"),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionFullWidth(),
		progressbar.OptionOnCompletion(func() { _, _ = io.WriteString(b.w, "\n") }),
	)
}

// Add advances the bar.
func (b *Bar) Add(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		_ = b.bar.Add(n)
	}
}

// Finish completes the bar.
func (b *Bar) Finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		_ = b.bar.Finish()
		b.bar = nil
	}
}
