// Package progress reports the progress of long work (benchmark runs, sample
// checks, generation) without tying library code to a terminal.
//
// Library code takes a Reporter; the CLI passes a bar on stderr, the web
// server and tests pass Nop or their own implementation.
package progress
