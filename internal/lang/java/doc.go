// Package java is ticoder's Java language, as MBJP writes it: a prompt is a
// class whose static method is left open (its Javadoc showing examples as
// `> f(args)` and the value on the next line, in a JSON-like notation), a
// program is prompt + completion, and a value test is a Java call
// expression compared with an expected expression by the JVM worker's
// plain-data comparison (see jvm.Pool, internal/execute/jvm).
//
// java must not start a JVM or compare values itself: programs, tests and
// the JUnit check run on the runner it is given (internal/execute/jvm's
// Pool).
package java
