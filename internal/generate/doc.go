// Package generate turns a problem into candidate programs and tests: it
// asks a model (package llm) for code and test completions and extracts
// clean candidates and single-assertion tests from them (package extract,
// Python's ast in the sandbox).
//
// Problem is the one place where the rules of that step live, and every
// front end calls it: `ticoder gen` (one JSONL row per problem), `ticoder
// eval` (through package benchmark, which caches its results), and the
// interactive sessions of `ticoder run`, `ticoder serve` and the MCP server
// (through interact.ModelGenerator). The rules are:
//
//   - Sampling: the caller's temperature and top-p (DefaultTemperature and
//     DefaultTopP, the TiCoder paper's, are what the commands offer), an
//     optional token limit and seed.
//   - Continuation: when the model continued a prompt (completion-style
//     models, replayed CodeT samples), code completions are function bodies
//     joined to the text they continue — the problem's own prompt when the
//     rendered prompt ends with it, else the whole rendered prompt — and are
//     extracted as bodies unless the caller chose a code style.
//   - Cut-off: a test completion the server stopped at the length limit, or
//     a recorded continuation (no finish reason) that does not end with a
//     newline, is cut off, and its last, incomplete line is dropped; test
//     completions that continue a line of the prompt (CodeT's "assert ")
//     get that line's text as a prefix.
//   - Raw programs: RawPrograms gives the raw code samples as `ticoder
//     check` runs them, prompt + completion, when the completions continue
//     the problem's prompt.
//
// RulesVersion names these rules; caches of generated candidates are keyed
// on it (with extract.RulesVersion), not on the binary.
//
// generate must not run the candidates it makes: running and judging them is
// the execution engine's, through the caller's runner.
package generate
