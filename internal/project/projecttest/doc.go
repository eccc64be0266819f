// Package projecttest gives tests a copy of ticoder's fixture project
// (testdata/project) with a virtual environment of its own.
//
// Only tests (and other test helpers) import it; ticoder's own code must
// not.
package projecttest
