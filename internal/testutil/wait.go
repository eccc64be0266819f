package testutil

import (
	"sync"
	"testing"
	"time"
)

// Receive waits up to d for a value from ch and returns it (the zero value
// if ch is closed). If nothing comes in time it fails the test, saying what
// it waited for. Call it from the test's own goroutine only.
func Receive[T any](t testing.TB, ch <-chan T, d time.Duration, what string) T {
	t.Helper()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("waited %v for %s", d, what)
	}
	var zero T
	return zero
}

// Wait waits up to d for wg. If the group is not done in time it fails the
// test, saying what it waited for; the goroutines are left running. Call it
// from the test's own goroutine only.
func Wait(t testing.TB, wg *sync.WaitGroup, d time.Duration, what string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	Receive(t, done, d, what)
}
