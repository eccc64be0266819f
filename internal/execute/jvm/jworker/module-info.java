// The JVM worker of ticoder's execution engine. Only ticoder.values (pure
// functions on plain data) is exported; the worker's own package is neither
// exported nor opened, so code under test cannot reach its fields, even by
// reflection.
module ticoder.jworker {
    requires java.compiler;
    requires jdk.compiler;
    exports ticoder.values;
}
