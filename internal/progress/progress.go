package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Reporter receives progress. Implementations must be safe for concurrent use.
type Reporter interface {
	// Start announces a new phase of total units of work.
	Start(label string, total int)
	// Add records n more finished units.
	Add(n int)
	// Finish ends the current phase, finished or not (an error or an
	// interrupt may end it early; it is then shown as it stands).
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

// New returns the Reporter a command shows on w (normally stderr): Nop when
// quiet, a Bar when w is a terminal, and otherwise Lines, which writes a
// plain line at most every LineInterval, so that a redirected log holds a
// few lines instead of a bar's redraws.
func New(w io.Writer, quiet bool) Reporter {
	switch {
	case quiet:
		return Nop{}
	case IsTerminal(w):
		return NewBar(w)
	}
	return NewLines(w, LineInterval)
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Bar is a Reporter that draws a progress bar on a writer (normally a
// terminal), redrawn in place. It is safe for concurrent use.
type Bar struct {
	w   io.Writer
	mu  sync.Mutex
	bar *progressbar.ProgressBar
	// done and total count the current phase's units.
	done, total int
	// label is the phase's label and note the notice shown after it.
	label, note string
	// throttle is the shortest time between two drawings; tests set 0.
	throttle time.Duration
	// transient erases a completed bar instead of keeping it.
	transient bool
}

// NewBar returns a Bar drawing on w; a finished phase's bar stays on its
// line.
func NewBar(w io.Writer) *Bar { return &Bar{w: w, throttle: 100 * time.Millisecond} }

// NewTransientBar returns a Bar drawing on w that erases a phase's bar when
// every unit is done, for work whose result replaces it on the screen (a
// full-screen program started after it would leave the bar, stale, above
// whatever is printed when it exits). A phase that ends early is kept, as
// NewBar keeps it.
func NewTransientBar(w io.Writer) *Bar {
	return &Bar{w: w, throttle: 100 * time.Millisecond, transient: true}
}

// Start begins a new bar.
func (b *Bar) Start(label string, total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.finish()
	b.done, b.total, b.label, b.note = 0, total, label, ""
	b.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(b.w),
		progressbar.OptionSetDescription(label),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("it"),
		progressbar.OptionThrottle(b.throttle),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionFullWidth(),
		progressbar.OptionOnCompletion(func() {
			// A complete bar ends its line, unless it is to be erased.
			if !b.transient {
				_, _ = io.WriteString(b.w, "\n")
			}
		}),
	)
	_ = b.bar.RenderBlank()
}

// Add advances the bar.
func (b *Bar) Add(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		b.done += n
		_ = b.bar.Add(n)
	}
}

// Finish ends the bar: at 100% when every unit was done, else where it
// stands (an error or Ctrl-C must not look like a finished run).
func (b *Bar) Finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.finish()
}

func (b *Bar) finish() {
	if b.bar == nil {
		return
	}
	switch {
	case b.done >= b.total && b.transient:
		// The bar is drawn on the cursor's line, which it has not ended:
		// go to the line's start and erase it.
		_, _ = io.WriteString(b.w, "\r\x1b[2K")
	case b.done >= b.total:
		_ = b.bar.Finish()
	default:
		// Exit keeps the bar as it is and ends its line; the throttled
		// last drawing may lag, so say where it stopped.
		_ = b.bar.Exit()
		if b.transient {
			_, _ = io.WriteString(b.w, "\n") // kept: end its line
		}
		fmt.Fprintf(b.w, "stopped at %d of %d\n", b.done, b.total)
	}
	b.bar = nil
}

// LineInterval is how often Lines writes a line while work goes on.
const LineInterval = 5 * time.Second

// Lines is a Reporter for a log file or pipe: one line when a phase starts,
// then at most one line every interval while units finish, and one line
// when it ends. It is safe for concurrent use.
type Lines struct {
	w     io.Writer
	every time.Duration
	// now returns the time; tests replace it.
	now func() time.Time

	mu          sync.Mutex
	label       string
	total, done int
	active      bool
	start, last time.Time
	// noticed: a notice was written since the last "" notice.
	noticed bool
}

// NewLines returns a Lines writing to w at most once every interval (a
// non-positive interval writes on every Add).
func NewLines(w io.Writer, every time.Duration) *Lines {
	return &Lines{w: w, every: every, now: time.Now}
}

// Start writes "LABEL: N to do".
func (l *Lines) Start(label string, total int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.finish()
	l.label, l.total, l.done, l.active = label, total, 0, true
	l.start = l.now()
	l.last = l.start
	fmt.Fprintf(l.w, "%s: %d to do\n", label, total)
}

// Add records n units and writes "LABEL: D/N (P%), T elapsed, about R left"
// when the last line is at least the interval old.
func (l *Lines) Add(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.active {
		return
	}
	l.done += n
	now := l.now()
	if now.Sub(l.last) < l.every || l.done >= l.total {
		return
	}
	l.last = now
	elapsed := now.Sub(l.start)
	line := fmt.Sprintf("%s: %d/%d (%d%%), %s elapsed", l.label, l.done, l.total, percent(l.done, l.total), round(elapsed))
	if l.done > 0 {
		left := time.Duration(float64(elapsed) * float64(l.total-l.done) / float64(l.done))
		line += ", about " + round(left).String() + " left"
	}
	fmt.Fprintln(l.w, line)
}

// Finish writes "LABEL: done, N in T", or "LABEL: stopped at D of N after T"
// when not every unit was done.
func (l *Lines) Finish() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.finish()
}

func (l *Lines) finish() {
	if !l.active {
		return
	}
	l.active = false
	took := round(l.now().Sub(l.start))
	if l.done >= l.total {
		fmt.Fprintf(l.w, "%s: done, %d in %s\n", l.label, l.total, took)
		return
	}
	fmt.Fprintf(l.w, "%s: stopped at %d of %d after %s\n", l.label, l.done, l.total, took)
}

// percent returns 100·done/total, rounded down.
func percent(done, total int) int {
	if total <= 0 {
		return 100
	}
	return 100 * done / total
}

// round rounds d for display: to 0.1 s below a minute, else to the second.
func round(d time.Duration) time.Duration {
	if d < time.Minute {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
