// Package jvm runs Java programs for the execution engine: the Driver of
// long-lived sandboxed JVM workers (the worker's Java source is embedded
// from jworker/, compiled once per version with the host's JDK) and Pool,
// the execute.DriverPool over it, which also runs ticoder's own check of an
// exported JUnit class in a fresh sandboxed JVM (RunSource).
//
// A worker compiles a program in memory and runs each test on a thread of
// its own, in a fresh class loader, under the test's limit; every frame it
// writes to Go carries a nonce the program cannot learn, and values are
// compared by the worker's plain-data comparison, never by the program's
// own equals. Go enforces the deadlines and replaces a JVM that a program
// kills, hangs or leaves with a thread it cannot stop (see Pool).
//
// jvm must not know Java's syntax beyond finding a test's main class, nor
// any benchmark's rules: internal/lang/java writes the tests, and the
// caller chooses the job. It imports nothing of ticoder above package
// execute.
package jvm
