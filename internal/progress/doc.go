// Package progress reports the progress of long work (benchmark runs, sample
// checks, generation) without tying library code to a terminal.
//
// Library code takes a Reporter; the CLI passes the one New chooses for
// stderr (a bar redrawn in place on a terminal, a plain line every few
// seconds in a log, nothing with --quiet), the web server and tests pass Nop
// or their own implementation.
//
// Library code must not write progress to stdout or stderr itself.
package progress
