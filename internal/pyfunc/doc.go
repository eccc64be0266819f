// Package pyfunc declares the Python programs ticoder embeds and runs in the
// sandbox as typed Go functions.
//
// A Program is one or more embedded Python files (Modules) run as one
// source: their texts in order, separated by a blank line, so that a later
// module uses the names an earlier one defines (the agree estimator's
// agree.py runs after package inputs' inputs.py). A Func is one function of
// a program with one request type and one response type: Func.Call sends
// the request as the function's JSON argument through a Caller
// (execute.Runner's Call, in a sandboxed child) and decodes what the
// function returns into the response. The struct tags of the two types are
// the wire, and the Python function's docstring names the same fields.
//
// The source a Program builds is part of cache keys (remote workers key a
// call on its source, function and argument), so joining modules never
// changes: a program of the same files is the same bytes.
package pyfunc
