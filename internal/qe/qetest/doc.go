// Package qetest holds fixtures shared by the tests of qe's packages.
//
// Only tests (and other test helpers) import it; ticoder's own code must
// not.
package qetest
