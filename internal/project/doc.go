// Package project finds what ticoder needs to work on a function inside a
// real Python project: the project's root directory, the module the function
// lives in and its dotted name, the project's interpreter (a virtual
// environment's python, by default) and what of it the sandbox must show,
// and the entries no candidate may see (masks).
//
// A Target names the function (FILE::NAME or FILE::Class.method). Resolve
// turns it into a Project: the root (the nearest ancestor of FILE with
// pyproject.toml, setup.cfg, setup.py or .git, unless given), the masks
// (sandbox.DefaultMask, the project's own [tool.ticoder] mask list in
// pyproject.toml, and any given), the module's dotted name and the
// directories Python must search for it (pytest's rootdir rules: the first
// directory above the module that is not a package, and the root). Inspect
// asks the interpreter for its version, prefixes and sys.path, and Sandbox
// returns the sandbox configuration that shows exactly those paths and the
// project, read-only, without its masked entries.
//
// A Java target (FILE.java::Class.method) resolves the same way, with
// Maven's and Gradle's markers (pom.xml, build.gradle(.kts),
// settings.gradle(.kts), .git); Classpath returns the project's build
// output and the jars given, JavaSandbox the sandbox's view of the project
// and JavaFingerprint what cached results depend on.
//
// project must not run candidates: it only says where they run and what they
// may see.
package project
