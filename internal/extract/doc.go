// Package extract turns raw model completions into clean candidate programs
// and clean single-assertion tests.
//
// Parsing is done by Python's own ast module, inside the sandboxed workers of
// package execute (the embedded extract.py, run through Caller.Call), never by
// a Python parser written in Go. One call handles all the samples of a
// problem.
//
// Definitions:
//
//   - Candidate: one program. Identical programs (after normalising with
//     Python's ast: the ast.dump of the tree with docstrings removed; comments
//     are not in the tree) are one candidate with a multiplicity (Count) and
//     the index of the first sample that produced it (First).
//   - Test: one assertion plus the setup statements it needs. Where it has the
//     form assert CALL == EXPECTED, Input holds CALL and Expected EXPECTED.
//     Tests are deduplicated the same way as candidates, counting pieces.
//
// Rules for codes:
//
//   - A blank completion is dropped (Stats.Empty).
//   - Blocks: the fenced blocks (```python; an unclosed last fence runs to the
//     end; blocks of another language are used only when there is no other),
//     else <code>…</code> (or <python>, <tests>, <test>) tags, else the raw
//     text.
//   - StyleBody (prompt + completion, as HumanEval and CodeT do): a
//     completion that starts at column 0 and defines the entry point again
//     (a model that rewrote the whole function) is that function, taken as
//     StyleFull takes it: run as prompt + completion, its definition is the
//     one that counts. Otherwise the
//     completion is cut at its first line at column 0 that starts a statement,
//     as CodeT does (comments and continuation lines such as "else:" or ")" do
//     not cut; where the cut does not parse, the next such line is tried).
//     Top-level definitions after the cut (def, class, import, assignment)
//     are kept only if the function uses them, transitively; they are
//     appended after it. Everything else after the cut (prints, asserts,
//     __main__ blocks, other functions) is dropped (Stats.Trimmed counts
//     such samples).
//   - StyleFull (a whole program, as chat models answer): the first block
//     whose top-level statements define the entry point. Statements that do
//     not parse are skipped. Kept: the entry point's first definition and the
//     top-level definitions it uses, transitively, in source order. The
//     problem's context is prepended; statements identical to one of the
//     context's are not repeated.
//   - StyleAuto: each block whose first non-blank line is at column 0 is a
//     full program, any other is a body; the first block that yields a
//     program wins.
//   - The program must parse and compile, else Stats.Truncated when the
//     text stops in the middle of a statement (no final newline, or the
//     parser ran off its end: an unclosed bracket or string) and
//     Stats.Syntax otherwise (code nested too deeply to handle counts as a
//     syntax error). It must define the entry point, else
//     Stats.NoEntryPoint.
//
// Rules for tests:
//
//   - TestOptions.Prefix (the end of the test prompt, e.g. "assert ") is
//     prepended to each completion. A bare "assert" line followed by a more
//     indented line is joined with it ("assert \n    f(x) == y").
//   - Blocks as for codes; every python block is used.
//   - Top-level statements that do not parse are dropped: Stats.Truncated when
//     the last one of a block stops in the middle (as for codes),
//     Stats.Syntax otherwise, Stats.Empty for a bare "assert". When TestOptions.Cut says a completion was cut off at
//     the length limit, its last line is incomplete and whatever ends on it
//     is dropped as truncated.
//   - Wrappers are removed: test functions (test_*, check, any function whose
//     body asserts), unittest.TestCase methods (self.assertEqual(a, b) becomes
//     assert a == b; assertTrue, assertFalse, assertIsNone, assertIn and a few
//     more likewise), pytest.mark.parametrize (one test per parameter set) and
//     if __name__ == "__main__" blocks. A one-parameter wrapper that is named
//     check or called with the entry point (check(candidate)) has its
//     parameter renamed to the entry point.
//   - Each assertion is one test, its message removed, with the preceding
//     statements of its own scope or the module that it depends on
//     (transitively, including mutations such as x.append(1)) as setup, in
//     source order. A statement that binds the entry point itself (a stub,
//     an import) is never setup. A loop or with-block containing assertions
//     is one test.
//   - A test that never calls the entry point is dropped
//     (Stats.NoEntryPoint); so is one that reads a name that nothing binds
//     (not the test, its setup, the builtins nor the problem's prompt), such
//     as the placeholder in assert f(1) == ____ (Stats.Unbound), and one
//     that does not compile (Stats.Syntax: a stray return or break). Other
//     statements are counted as Stats.Setup when some test uses them and
//     Stats.NotTest otherwise.
//   - assert X == Y where X calls the entry point (anywhere in X) and Y does
//     not: Input X, Expected Y. Where only Y is a direct call of the entry
//     point the sides are swapped. Code is then "assert INPUT == EXPECTED",
//     rendered by ast.unparse like the setup.
//
// Candidates and tests come in the order of their first appearance (First
// ascending), which is deterministic.
//
// extract must not decide which candidates are right: it only cleans what
// the model wrote.
package extract
