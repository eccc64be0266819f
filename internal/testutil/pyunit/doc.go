// Package pyunit runs the unit tests of ticoder's embedded Python files
// (the execution worker's package pyworker/, extract.py, inputs.py,
// agree.py, tools.py) from Go tests, with Debian's /usr/bin/python3, the
// interpreter that runs them in the sandbox.
//
// Those files are ticoder's own, trusted code: their tests run directly, not
// in the sandbox. Each test file imports the file it tests as a module, so
// every embedded file must import on its own (see the files' headers).
//
// Only tests (and other test helpers) import it; ticoder's own code must
// not.
package pyunit
