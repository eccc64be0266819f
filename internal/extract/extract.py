"""ticoder's extraction of candidate programs and single-assertion tests.

The Go package concatenates extract.py (shared helpers), codes.py and
tests.py into one source, which runs inside the sandboxed Python workers
(execute.Runner.Call):
extract_codes(arg) and extract_tests(arg) take and return JSON values and
never raise; every failure is counted per sample. Deduplication happens in Go
from the "key" each kept piece carries (a hash of its normalised ast.dump).

Rules, in order (the Go package documentation repeats them):

Codes
  * A blank completion is dropped ("empty").
  * Blocks: the fenced blocks (```python ... ```; an unclosed last fence runs to
    the end; blocks tagged with another language are used only when there is
    no other), else <code>...</code> style tags, else the raw text.
  * Body style (prompt + completion, HumanEval): the completion is cut at its
    first line at column 0 that starts a statement (comments and lines that
    continue a statement, like "else:" or ")", do not cut); where that does
    not parse the next such line is tried. Definitions after the cut that the
    function uses (helpers, imports, constants; transitively) are appended.
  * Full style (a whole program): the first block whose top-level statements
    define the entry point is used. Statements that do not parse are skipped.
    Kept: the entry point's first definition, and the top-level definitions
    (def, class, import, assignment) it uses, transitively, in source order;
    everything else (examples, prints, asserts, __main__ blocks, later
    redefinitions of the entry point) is dropped. The problem's context is
    prepended; statements identical to a context statement are not repeated.
  * Auto style: each block whose first line is at column 0 is a full
    program, any other is a body; the first block that yields a program wins.
Tests
  * The text is prefixed by the caller (the prompt's "assert "). A line that
    is a bare "assert" followed by a more indented line is joined with it.
  * Blocks as for codes (all python blocks are used). Statements that do not
    parse are dropped: "truncated" when the last one stops in the middle (no
    final newline, or the parser ran off its end), "syntax" otherwise;
    a bare "assert" is "empty". When the sample was cut off (Cut), its last
    line is incomplete: any statement ending on it is dropped as truncated.
  * Wrappers are removed: test functions (test_*, check, any function whose
    body asserts), unittest.TestCase methods (self.assertEqual(a, b) becomes
    assert a == b, assertTrue/False/IsNone/In likewise), pytest.mark.parametrize
    (one test per parameter set), and if __name__ == "__main__": blocks. A
    one-parameter wrapper called with the entry point (check(candidate)) has
    its parameter renamed to the entry point.
  * Each assertion becomes one test: its message removed, with the preceding
    statements it depends on (transitively) as setup; statements that bind
    the entry point itself are never setup. A loop or with-block containing
    assertions is one test. Tests that never call the entry point are dropped
    ("no_entry_point"), and so are tests that read a name nothing binds (not
    the test, its setup, the builtins nor the problem's prompt), such as the
    placeholder in assert f(1) == ____ ("unbound"). Tests that do not
    compile are "syntax". Other statements no test uses are "not_test".
  * assert X == Y where X calls the entry point and Y does not: input X,
    expected Y; where only Y is a direct call of the entry point the sides
    are swapped. The code is then "assert INPUT == EXPECTED".
Normalisation: ast.dump of the tree with docstrings removed (comments are not
in the tree); the key is its SHA-256.

Sources
  * source_keys(arg) reads whole programs without running them: each one's
    key as above (two programs with the same key compile to the same code
    but for docstrings and line and column numbers), or "syntax" where
    Python cannot parse it (it cannot compile either).
"""

import ast
import builtins
import hashlib
import re
import symtable
import sys
import warnings

_CONTINUATION = ("else", "elif", "except", "finally", ")", "]", "}")
_PY_LANGS = ("", "python", "py", "python3", "py3", "pycon", "ipython")
_TAGS = ("code", "python", "tests", "test")
_MAX_TRIES = 64  # cut points tried per sample before giving up
_BUDGET = 4 << 20  # characters split_top may parse per text before it gives up
_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
# Names every test namespace has without defining them.
_PREDEFINED = set(dir(builtins)) | {"__name__", "__builtins__", "__doc__", "__file__", "__spec__", "__loader__", "__package__"}


# ---------------------------------------------------------------------------
# Parsing helpers


def _parse(src):
    """Returns (tree, None) or (None, error); never raises."""
    try:
        return ast.parse(src), None
    except Exception as e:  # SyntaxError, ValueError (NUL), RecursionError, MemoryError
        return None, e


class _Quiet:
    """Silences SyntaxWarnings (broken samples flood them) and allows deeper
    recursion than the default for ast's recursive helpers (unparse, dump,
    visitors) on deeply nested but valid code. Python 3.11's calls between
    Python functions do not use the C stack, so this is safe."""

    def __enter__(self):
        self.limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.limit, 8000))
        self.warnings = warnings.catch_warnings()
        self.warnings.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        self.warnings.__exit__(*exc)
        sys.setrecursionlimit(self.limit)
        return False


def _failure(e):
    """The drop reason of an exception raised while handling a piece: code
    nested too deeply to handle counts as a syntax error, anything else is
    a failure of extraction itself (a bug)."""
    return "syntax" if isinstance(e, (RecursionError, MemoryError)) else "failed"


def _compiles(src):
    """None if src compiles (what ast.parse accepts may not: a stray return), else the error."""
    try:
        compile(src, "<extract>", "exec", dont_inherit=True)
        return None
    except Exception as e:
        return e


def _unbound(src, known):
    """The names src reads at module level (or as globals of its functions)
    that neither src, the builtins nor known bind; None if it cannot tell."""
    if "import *" in src:
        return None
    top = symtable.symtable(src, "<test>", "exec")
    bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    free = set()
    stack = [top]
    while stack:
        t = stack.pop()
        for sym in t.get_symbols():
            if sym.is_referenced() and (t is top or sym.is_global()):
                free.add(sym.get_name())
        stack.extend(t.get_children())
    return free - bound - known - _PREDEFINED


def _lines(text):
    """Splits text into lines, ends kept, exactly where Python's tokenizer
    does (str.splitlines also splits at form feeds and other separators)."""
    return _LINE_RE.findall(text)


def _indent(line):
    return len(line) - len(line.lstrip(" \t"))


def _is_start(line):
    """Whether a line at column 0 can start a top-level statement."""
    if not line or line[0] in " \t\r\n\f#":
        return False
    s = line.rstrip()
    if not s:
        return False
    for c in _CONTINUATION:
        if s.startswith(c) and (len(s) == len(c) or not (s[len(c)].isalnum() or s[len(c)] == "_")):
            return False
    return True


def _stmt_lines(node, offset):
    first = node.lineno
    for d in getattr(node, "decorator_list", ()):
        first = min(first, d.lineno)
    return first - 1 + offset, (node.end_lineno or node.lineno) + offset


def split_top(text):
    """Splits text into top-level statements, skipping pieces that do not parse.

    Returns a list of items: ("stmt", node, first_line, end_line) and
    ("bad", source, reason, first_line, end_line), in source order. Parsing
    stops after _BUDGET characters; the rest is then one bad piece.
    """
    lines = _lines(text)
    n = len(lines)
    starts = [i for i, l in enumerate(lines) if _is_start(l)]
    items = []
    pos = 0
    spent = 0
    while pos < n:
        rest = "".join(lines[pos:])
        spent += len(rest)
        tree, err = _parse(rest)
        if tree is not None:
            items.extend(_items(tree, pos))
            break
        errline = _error_line(err, lines, pos)
        kept = pos
        tries = 0
        for b in reversed([b for b in starts if pos < b <= errline]):
            tries += 1
            prefix = "".join(lines[pos:b])
            spent += len(prefix)
            if tries > _MAX_TRIES or spent > _BUDGET:
                break
            ptree, _ = _parse(prefix)
            if ptree is not None:
                items.extend(_items(ptree, pos))
                kept = b
                break
        nxt = next((b for b in starts if b > kept), n)
        if spent > _BUDGET:
            nxt = n
        src = "".join(lines[kept:nxt])
        if src.strip():
            items.append(("bad", src, _bad_reason(src) if nxt == n else "syntax", kept, nxt))
        pos = nxt
    return items


_EOF_ERRORS = ("never closed", "unterminated", "unexpected EOF", "was not closed")


def _bad_reason(src):
    """Why the last piece of a text does not parse: "truncated" when the text
    stops in the middle of it (no final newline, or the parser ran off its
    end), else "syntax"."""
    if not src.endswith(("\n", "\r")):
        return "truncated"
    _, err = _parse(src)
    if err is None:
        return "syntax"
    if any(k in str(getattr(err, "msg", "") or err) for k in _EOF_ERRORS):
        return "truncated"
    lineno = getattr(err, "lineno", None)
    if isinstance(lineno, int) and lineno > len(_lines(src.rstrip())):
        return "truncated"
    return "syntax"


def _error_line(err, lines, pos):
    """The index of the line a parse error of lines[pos:] is on."""
    n = len(lines)
    lineno = getattr(err, "lineno", None)
    if not isinstance(lineno, int) or lineno < 1:
        # ValueError for NUL bytes carries no line: find the first NUL.
        lineno = next((i - pos + 1 for i in range(pos, n) if "\x00" in lines[i]), n - pos)
    return min(n - 1, pos + lineno - 1)


def _items(tree, offset):
    out = []
    for node in tree.body:
        a, b = _stmt_lines(node, offset)
        out.append(("stmt", node, a, b))
    return out


def _blocks(text):
    """Returns (kind, [block texts]): kind is "fenced", "tagged" or "raw"."""
    fenced = _fenced(text)
    if fenced:
        py = [b for lang, b in fenced if lang in _PY_LANGS]
        return "fenced", py or [b for _, b in fenced]
    tagged = _tagged(text)
    if tagged:
        return "tagged", tagged
    return "raw", [text]


def _fenced(text):
    blocks = []
    lang, cur = None, []
    for line in _lines(text):
        s = line.strip()
        if s.startswith("```"):
            if lang is None:
                lang, cur = s[3:].strip().lower().split(" ")[0] if s[3:].strip() else "", []
                continue
            blocks.append((lang, "".join(cur)))
            lang = None
            continue
        if lang is not None:
            cur.append(line)
    if lang is not None and cur:
        blocks.append((lang, "".join(cur)))
    return blocks


def _tagged(text):
    blocks = []
    low = text.lower()
    for tag in _TAGS:
        open_, close = "<%s>" % tag, "</%s>" % tag
        i = low.find(open_)
        while i >= 0:
            j = low.find(close, i + len(open_))
            end = j if j >= 0 else len(text)
            blocks.append((i, text[i + len(open_):end]))
            if j < 0:
                break
            i = low.find(open_, j + len(close))
        if blocks:
            break
    return [b for _, b in sorted(blocks)]


# ---------------------------------------------------------------------------
# Names


def _used(node):
    """Names a statement reads (loads), including in nested scopes."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store):
            out.add(n.id)
    return out


def _bound(node):
    """Names a statement binds at its own level (not inside nested scopes)."""
    out = set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        out.add(node.name)
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        for a in node.names:
            out.add(a.asname or a.name.split(".")[0])
    else:
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                out.add(n.id)
            stack.extend(ast.iter_child_nodes(n))
    return out


def _calls(node, name):
    """Whether node calls the function called name."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name:
            return True
    return False


def _mutated(node):
    """Base names a simple statement mutates (x.append(..), x[i] = .., x.a += ..)."""
    out = set()
    targets = []
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute):
        targets = [node.value.func.value]
    elif isinstance(node, ast.Assign):
        targets = [t for t in node.targets if isinstance(t, (ast.Subscript, ast.Attribute))]
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, (ast.Subscript, ast.Attribute)):
        targets = [node.target]
    for t in targets:
        while isinstance(t, (ast.Subscript, ast.Attribute)):
            t = t.value
        if isinstance(t, ast.Name):
            out.add(t.id)
    return out


# ---------------------------------------------------------------------------
# Normalisation


class _StripDocstrings(ast.NodeTransformer):
    def _strip(self, node):
        self.generic_visit(node)
        body = getattr(node, "body", None)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
        return node

    visit_Module = _strip
    visit_FunctionDef = _strip
    visit_AsyncFunctionDef = _strip
    visit_ClassDef = _strip


def _key(tree):
    tree = _StripDocstrings().visit(tree)
    return hashlib.sha256(ast.dump(tree).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def source_keys(arg):
    """{"samples": one {"key": K} or {"syntax": True} per program of
    arg["programs"] (see the module doc), or {} where the tree could not be
    read (nested too deeply)."""
    out = []
    with _Quiet():
        for src in arg["programs"]:
            try:
                tree = ast.parse(src)
            except (SyntaxError, ValueError):  # ValueError: a NUL byte
                out.append({"syntax": True})
                continue
            except Exception:  # RecursionError, MemoryError: compile may differ
                out.append({})
                continue
            try:
                key = _key(tree)
            except Exception:
                out.append({})
                continue
            out.append({"key": key})
    return {"samples": out}


def _source_key(src):
    tree, err = _parse(src)
    if tree is None:
        raise ValueError("normalise: %s" % err)
    return _key(tree)
