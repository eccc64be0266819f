package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/progress"
)

// addRequestTimeout adds --request-timeout, the flag of every command that
// talks to a model, bound to d.
func addRequestTimeout(f *pflag.FlagSet, d *time.Duration) {
	f.DurationVar(d, "request-timeout", llm.DefaultRequestTimeout,
		"give up on a model request with no answer after this long (0: wait as long as it takes)")
}

// modelOptions returns the llm.Options of a command's model: timeout is
// --request-timeout (0: no limit) and w, if not nil, records what waits.
func modelOptions(timeout time.Duration, w *llm.Waiting) llm.Options {
	if timeout == 0 {
		timeout = -1 // llm's "no limit"
	}
	return llm.Options{RequestTimeout: timeout, Waiting: w}
}

// The model watcher's timing: the silence after which the user is told,
// how often the notice (and its clock) is redrawn, and how often it is
// repeated as a line of its own. Tests shorten them.
var (
	waitNotice = 5 * time.Second
	waitTick   = time.Second
	waitRepeat = 30 * time.Second
)

// watchModel tells the user what the command waits for while the model
// keeps silent for longer than waitNotice, with a clock kept live: in the
// progress line when rep can show it (progress.Noticer) and a phase is on,
// else as a line on errw (nil: nowhere) at once and every waitRepeat. It
// returns the function that stops it.
func watchModel(w *llm.Waiting, rep progress.Reporter, errw io.Writer) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(waitTick)
		defer t.Stop()
		n, _ := rep.(progress.Noticer)
		var noticed bool       // a notice is shown in the progress line
		var lastLine time.Time // when the last line of its own was written
		for {
			select {
			case <-done:
				if noticed {
					n.Notice("")
				}
				return
			case <-t.C:
			}
			url, since, ok := w.Silent()
			silence := time.Since(since)
			if !ok || silence < waitNotice {
				if noticed {
					n.Notice("")
					noticed = false
				}
				lastLine = time.Time{}
				continue
			}
			msg := fmt.Sprintf("waiting for the model at %s, no answer yet (%s)", url, silence.Round(time.Second))
			if n != nil && n.Notice(msg) {
				noticed = true
				continue
			}
			if errw != nil && (lastLine.IsZero() || time.Since(lastLine) >= waitRepeat) {
				fmt.Fprintf(errw, "ticoder: %s\n", msg)
				lastLine = time.Now()
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
		})
	}
}
