package testutil

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Terminal is a pseudo-terminal for tests of terminal output: TTY is the
// terminal side, to hand to the code under test as its stderr or stdout;
// Output returns what was written to it so far. It is safe for concurrent
// use.
type Terminal struct {
	TTY *os.File

	master *os.File
	mu     sync.Mutex
	out    bytes.Buffer
	done   chan struct{}
}

// OpenTerminal opens a pseudo-terminal of rows × cols for the test and
// closes it when the test ends; it skips the test where no pseudo-terminal
// can be opened.
func OpenTerminal(t testing.TB, rows, cols int) *Terminal {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	tty, err := openTTY(master)
	if err != nil {
		master.Close()
		t.Skipf("no pseudo-terminal: %v", err)
	}
	ws := &unix.Winsize{Row: uint16(rows), Col: uint16(cols)}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, ws); err != nil {
		t.Fatalf("set the terminal size: %v", err)
	}
	term := &Terminal{TTY: tty, master: master, done: make(chan struct{})}
	go term.drain()
	t.Cleanup(func() {
		tty.Close()
		master.Close()
		<-term.done
	})
	return term
}

// openTTY unlocks and opens the terminal side of the pseudo-terminal master.
func openTTY(master *os.File) (*os.File, error) {
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		return nil, fmt.Errorf("unlock: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		return nil, fmt.Errorf("terminal number: %w", err)
	}
	return os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
}

// drain copies the terminal's output into the buffer until it is closed.
func (term *Terminal) drain() {
	defer close(term.done)
	buf := make([]byte, 4096)
	for {
		n, err := term.master.Read(buf)
		term.mu.Lock()
		term.out.Write(buf[:n])
		term.mu.Unlock()
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) && !errors.Is(err, syscall.EIO) {
				fmt.Fprintf(os.Stderr, "testutil: read the pseudo-terminal: %v\n", err)
			}
			return
		}
	}
}

// Output returns everything written to the terminal so far.
func (term *Terminal) Output() string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.out.String()
}
