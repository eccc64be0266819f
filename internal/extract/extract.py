"""ticoder's extraction of candidate programs and single-assertion tests.

This module runs inside the sandboxed Python workers (execute.Runner.Call):
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
    parse are dropped: "truncated" when they are the last, "syntax" otherwise;
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
"""

import ast
import builtins
import hashlib
import re
import symtable
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
            items.append(("bad", src, "truncated" if nxt == n else "syntax", kept, nxt))
        pos = nxt
    return items


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


def _source_key(src):
    tree, err = _parse(src)
    if tree is None:
        raise ValueError("normalise: %s" % err)
    return _key(tree)


# ---------------------------------------------------------------------------
# Codes

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign)


def _is_entry_def(node, entry):
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == entry


def _needed(root, stmts, entry, available=()):
    """Indexes of the definitional statements root needs, transitively."""
    want = _used(root) - {entry} - set(available)
    keep = set()
    changed = True
    while changed:
        changed = False
        for i, s in enumerate(stmts):
            if i in keep or not isinstance(s, _DEFINITIONS) or _is_entry_def(s, entry):
                continue
            b = _bound(s)
            if entry in b:
                continue
            if b & want or (isinstance(s, ast.ImportFrom) and any(a.name == "*" for a in s.names)):
                keep.add(i)
                want |= _used(s) - {entry}
                changed = True
    return keep


def _join_lines(lines, ranges):
    """The lines covered by the (first, end) ranges, in order, each once.

    What lies between two consecutive ranges is kept when it is only blank
    lines and comments, and replaced by one blank line otherwise.
    """
    out = []
    last = None
    for a, b in sorted(ranges):
        if last is not None and a > last:
            gap = lines[last:a]
            if all(not l.strip() or l.lstrip().startswith("#") for l in gap):
                out.extend(gap)
            else:
                out.append("\n")
        start = a if last is None else max(a, last)
        out.extend(lines[start:b])
        last = b if last is None else max(last, b)
    return "".join(out)


def _finish(program):
    program = "\n".join(l.rstrip() for l in _lines(program.rstrip())) + "\n"
    tree, err = _parse(program)
    if tree is None or _compiles(program) is not None:
        return {"drop": "syntax", "error": str(err or _compiles(program))}
    return {"program": program, "key": _key(tree)}


def _code_full(block, context, entry):
    """A program from a whole-program block; a dict with program or drop."""
    items = split_top(block)
    stmts = [it for it in items if it[0] == "stmt"]
    idx = next((i for i, it in enumerate(stmts) if _is_entry_def(it[1], entry)), None)
    if idx is None:
        bad = [it for it in items if it[0] == "bad" and ("def " + entry) in it[1]]
        if bad:
            return {"drop": bad[0][2]}
        return {"drop": "no_entry_point"}
    ctx_dumps, ctx_names = set(), set()
    ctree, _ = _parse(context) if context.strip() else (None, None)
    if ctree is not None:
        for s in ctree.body:
            ctx_dumps.add(ast.dump(s))
            ctx_names |= _bound(s)
    nodes = [it[1] for it in stmts]
    keep = _needed(nodes[idx], nodes, entry, ctx_names) | {idx}
    lines = _lines(block)
    dup = {i for i, s in enumerate(nodes) if i != idx and ast.dump(s) in ctx_dumps}
    ranges = [(stmts[i][2], stmts[i][3]) for i in sorted(keep - dup)]
    code = _join_lines(lines, ranges)
    program = context.rstrip() + "\n\n\n" + code if ctree is not None else code
    out = _finish(program)
    out["trimmed"] = len(keep | dup) < len(items)
    return out


def _code_body(prompt, completion, entry):
    """prompt + completion cut where the function ends, plus helpers it uses."""
    lines = _lines(completion)
    # The first completion line continues the prompt's last line when the
    # prompt does not end with a newline; it never cuts.
    first = 0 if prompt.endswith("\n") or not prompt else 1
    cuts = [i for i in range(first, len(lines)) if _is_start(lines[i])][:_MAX_TRIES] + [len(lines)]
    for cut in cuts:
        head = prompt + "".join(lines[:cut])
        tree, err = _parse(head)
        if tree is None:
            continue
        if not any(_is_entry_def(s, entry) for s in tree.body):
            return {"drop": "no_entry_point"}
        rest = "".join(lines[cut:])
        extra = ""
        trimmed = bool(rest.strip())
        if trimmed:
            items = [it for it in split_top(rest) if it[0] == "stmt"]
            nodes = [it[1] for it in items]
            root = next(s for s in tree.body if _is_entry_def(s, entry))
            have = set()
            for s in tree.body:
                have |= _bound(s)
            keep = _needed(root, nodes, entry, have)
            extra = _join_lines(_lines(rest), [(items[i][2], items[i][3]) for i in keep])
        program = head.rstrip() + ("\n\n\n" + extra if extra else "")
        out = _finish(program)
        out["trimmed"] = trimmed
        return out
    _, err = _parse(prompt + completion)
    total = (prompt + completion).rstrip().count("\n") + 1
    lineno = getattr(err, "lineno", None) or total
    return {"drop": "truncated" if lineno >= total or not completion.endswith("\n") else "syntax", "error": str(err)}


def _starts_at_col0(text):
    for line in _lines(text):
        if line.strip():
            return not line[0].isspace()
    return False


def _code_one(completion, prompt, context, entry, style):
    if not completion.strip():
        return {"drop": "empty"}
    if style == "body":
        return _code_body(prompt, completion, entry)
    _, blocks = _blocks(completion)
    tries = []
    for b in blocks:
        if style == "full" or _starts_at_col0(b):
            tries.append(("full", b))
        else:
            tries.append(("body", b))
    first = None
    for how, text in tries:
        out = _code_full(text, context, entry) if how == "full" else _code_body(prompt, text, entry)
        if "program" in out:
            return out
        if first is None or first.get("drop") == "no_entry_point":
            first = out
    return first


def extract_codes(arg):
    """Extracts one program (or a drop reason) per completion.

    arg: {"prompt", "context", "entry_point", "style": "auto"|"body"|"full",
    "completions": [str]}. Returns {"samples": [{"program", "key", "trimmed"}
    or {"drop": reason, "error"}]}.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarning floods from broken samples
        return _extract_codes(arg)


def _extract_codes(arg):
    out = []
    prompt = arg.get("prompt") or ""
    context = arg.get("context") or ""
    entry = arg.get("entry_point") or ""
    style = arg.get("style") or "auto"
    for c in arg.get("completions") or []:
        try:
            r = _code_one(c if isinstance(c, str) else "", prompt, context, entry, style)
        except Exception as e:  # a bug here must not lose the other samples
            r = {"drop": "failed", "error": "%s: %s" % (type(e).__name__, e)}
        out.append(r)
    return {"samples": out}


# ---------------------------------------------------------------------------
# Tests

_UNITTEST = {
    "assertEqual": (2, lambda a: ast.Compare(a[0], [ast.Eq()], [a[1]])),
    "assertEquals": (2, lambda a: ast.Compare(a[0], [ast.Eq()], [a[1]])),
    "assertNotEqual": (2, lambda a: ast.Compare(a[0], [ast.NotEq()], [a[1]])),
    "assertTrue": (1, lambda a: a[0]),
    "assertFalse": (1, lambda a: ast.UnaryOp(ast.Not(), a[0])),
    "assertIsNone": (1, lambda a: ast.Compare(a[0], [ast.Is()], [ast.Constant(None)])),
    "assertIsNotNone": (1, lambda a: ast.Compare(a[0], [ast.IsNot()], [ast.Constant(None)])),
    "assertIn": (2, lambda a: ast.Compare(a[0], [ast.In()], [a[1]])),
    "assertNotIn": (2, lambda a: ast.Compare(a[0], [ast.NotIn()], [a[1]])),
    "assertIs": (2, lambda a: ast.Compare(a[0], [ast.Is()], [a[1]])),
}


def _join_bare_asserts(text):
    """Joins a bare "assert" line with the more indented line after it."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip() in ("assert", "assert \\", "assert\\"):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines) and _indent(lines[j]) > _indent(line):
                out.append(line[: _indent(line)] + "assert " + lines[j].lstrip(" \t"))
                i = j + 1
                continue
        out.append(line)
        i += 1
    return "\n".join(out)


class _Rename(ast.NodeTransformer):
    def __init__(self, old, new):
        self.old, self.new = old, new

    def visit_Name(self, node):
        if node.id == self.old:
            node.id = self.new
        return node


class _Unittest(ast.NodeTransformer):
    """self.assertEqual(a, b) -> assert a == b (statement level only)."""

    def visit_Expr(self, node):
        v = node.value
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and isinstance(v.func.value, ast.Name) \
                and v.func.value.id == "self" and v.func.attr in _UNITTEST and not v.keywords:
            n, make = _UNITTEST[v.func.attr]
            if len(v.args) in (n, n + 1):
                return ast.copy_location(ast.Assert(make(v.args[:n]), None), node)
        return node


def _has_assert(node):
    return any(isinstance(n, ast.Assert) for n in ast.walk(node))


def _is_main_guard(node):
    return isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and "__name__" in _used(node.test)


def _parametrize(fn):
    """Parameter sets of @pytest.mark.parametrize: a list of assignment lists, or None."""
    sets = None
    for d in fn.decorator_list:
        if not (isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "parametrize"):
            continue
        if len(d.args) < 2 or not isinstance(d.args[0], ast.Constant) or not isinstance(d.args[0].value, str) \
                or not isinstance(d.args[1], (ast.List, ast.Tuple)):
            return None
        names = [s.strip() for s in d.args[0].value.split(",") if s.strip()]
        mine = []
        for el in d.args[1].elts:
            if len(names) == 1:
                mine.append([ast.Assign([ast.Name(names[0], ast.Store())], el, lineno=0)])
            elif isinstance(el, (ast.Tuple, ast.List)) and len(el.elts) == len(names):
                mine.append([ast.Assign([ast.Name(nm, ast.Store())], v, lineno=0) for nm, v in zip(names, el.elts)])
            else:
                return None
        sets = mine if sets is None else [a + b for a in sets for b in mine]
    return sets


_COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.If, ast.Try)


class _Flattener:
    """Turns top-level items into units with wrappers removed.

    A unit is ("stmt", node, scope, counted), ("test", node, scope) or
    ("bad", source, reason). Scope 0 is the module; each unwrapped test
    function (and each parameter set) is a scope of its own.
    """

    def __init__(self, items, entry):
        self.entry = entry
        self.units = []
        self.scopes = 0
        top = [it[1] for it in items if it[0] == "stmt"]
        self.called = set()
        for s in top:
            if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name):
                if any(isinstance(a, ast.Name) and a.id == entry for a in s.value.args):
                    self.called.add(s.value.func.id)
        self.wrappers = {s.name for s in top if self._is_wrapper(s)}
        for it in items:
            if it[0] == "bad":
                self.units.append(("bad", it[1], it[2]))
            else:
                self.unit(it[1], 0)

    def _is_wrapper(self, s):
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return s.name != self.entry and (_has_assert(s) or s.name.startswith("test"))
        if isinstance(s, ast.ClassDef):
            return s.name != self.entry and (_has_assert(_Unittest().visit(s)) or s.name.startswith("Test"))
        return False

    def new_scope(self):
        self.scopes += 1
        return self.scopes

    def body(self, stmts, scope):
        for i, s in enumerate(stmts):
            if i == 0 and isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant):
                continue  # a docstring
            self.unit(s, scope)

    def unit(self, node, scope):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name != self.entry and _has_assert(node):
            self.function(node)
        elif isinstance(node, ast.ClassDef) and node.name in self.wrappers:
            for m in node.body:
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and (m.name.startswith("test") or _has_assert(m)):
                    self.function(m)
        elif _is_main_guard(node):
            self.body(node.body, scope)
        elif self._is_wrapper_call(node):
            pass
        elif isinstance(node, ast.Assert) or (isinstance(node, _COMPOUND) and _has_assert(node)):
            self.units.append(("test", node, scope))
        else:
            self.units.append(("stmt", node, scope, True))

    def _is_wrapper_call(self, node):
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
            return False
        f = node.value.func
        if isinstance(f, ast.Name):
            return f.id in self.wrappers
        return isinstance(f, ast.Attribute) and f.attr == "main" and isinstance(f.value, ast.Name) \
            and f.value.id in ("unittest", "pytest")

    def function(self, fn):
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
        sets = _parametrize(fn)
        if sets:
            for assigns in sets:
                scope = self.new_scope()
                for a in assigns:
                    self.units.append(("stmt", a, scope, False))
                self.body(fn.body, scope)
            return
        if len(params) == 1 and params[0] != "self" and (fn.name == "check" or fn.name in self.called):
            fn = _Rename(params[0], self.entry).visit(fn)
        self.body(fn.body, self.new_scope())


class _NoMessage(ast.NodeTransformer):
    def visit_Assert(self, node):
        node.msg = None
        return node


def _setup(units, k, node, entry):
    """Indexes of the statement units test k depends on, in order."""
    scope = units[k][2]
    need = _used(node) - {entry}
    deps = []
    for j in range(k - 1, -1, -1):
        u = units[j]
        if u[0] != "stmt" or u[2] not in (0, scope):
            continue
        s = u[1]
        b = _bound(s)
        if entry in b:
            continue
        if b & need:
            deps.append(j)
            need = (need - b) | (_used(s) - {entry})
        elif _mutated(s) & need:
            deps.append(j)
            need |= _used(s) - {entry}
    return sorted(deps)


def _split(node, entry):
    """(input, expected) of assert X == Y, or None."""
    t = getattr(node, "test", None) if isinstance(node, ast.Assert) else None
    if not (isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.Eq)):
        return None
    left, right = t.left, t.comparators[0]
    if _calls(left, entry) and not _calls(right, entry):
        return left, right
    if isinstance(right, ast.Call) and isinstance(right.func, ast.Name) and right.func.id == entry and not _calls(left, entry):
        return right, left
    return None


def _test(units, k, entry, known):
    """The test dict of unit k, or a drop reason."""
    node = _NoMessage().visit(units[k][1])
    deps = _setup(units, k, node, entry)
    if not (_calls(node, entry) or any(_calls(units[d][1], entry) for d in deps)):
        return None, "no_entry_point", deps
    t = {}
    io = _split(node, entry)
    if io is not None:
        t["input"], t["expected"] = ast.unparse(io[0]), ast.unparse(io[1])
        t["code"] = "assert %s == %s" % (t["input"], t["expected"])
    else:
        t["code"] = ast.unparse(node)
    setup = "\n".join(ast.unparse(ast.fix_missing_locations(units[d][1])) for d in deps)
    if setup:
        t["setup"] = setup
    src = setup + "\n" + t["code"]
    if _compiles(src) is not None:
        return None, "syntax", deps
    if _unbound(src, known | {entry}):
        return None, "unbound", deps
    t["key"] = _source_key(src)
    return t, None, deps


_TEST_STATS = ("pieces", "kept", "setup", "empty", "syntax", "truncated", "no_entry_point", "unbound", "not_test")


def _cut_last_line(block, items):
    """Drops the incomplete last line of a cut-off block from its items."""
    lines = _lines(block)
    n = len(lines)
    if not items or not lines[-1].strip() or block.endswith("\n"):
        return items
    last = items[-1]
    if last[0] == "bad":
        return items[:-1] + [("bad", last[1], "truncated", last[3], last[4])]
    head = "".join(lines[last[2]:n - 1])
    return items[:-1] + split_top(head) + [("bad", lines[-1], "truncated", n - 1, n)]


def _known_names(prompt, context):
    """Top-level names of the problem's prompt (else its context)."""
    for src in (prompt, context):
        tree, _ = _parse(src or "")
        if tree is not None and tree.body:
            names = set()
            for st in tree.body:
                names |= _bound(st)
            return names
    return set()


def _tests_one(text, entry, cut, known):
    stats = dict.fromkeys(_TEST_STATS, 0)
    text = _join_bare_asserts(text)
    _, blocks = _blocks(text)
    tests = []
    for bi, block in enumerate(blocks):
        items = split_top(block)
        if cut and bi == len(blocks) - 1:
            items = _cut_last_line(block, items)
        units = _Flattener(items, entry).units
        used = set()
        for k, u in enumerate(units):
            if u[0] == "bad":
                stats["pieces"] += 1
                stats["empty" if u[1].strip() in ("assert", "assert\\") else u[2]] += 1
            elif u[0] == "test":
                stats["pieces"] += 1
                t, reason, deps = _test(units, k, entry, known)
                if t is None:
                    stats[reason] += 1
                    continue
                stats["kept"] += 1
                used.update(deps)
                tests.append(t)
        for k, u in enumerate(units):
            if u[0] == "stmt" and u[3]:
                stats["pieces"] += 1
                stats["setup" if k in used else "not_test"] += 1
    return {"tests": tests, "stats": stats}


def extract_tests(arg):
    """Extracts single-assertion tests from each completion.

    arg: {"entry_point", "prompt", "context", "prefix", "completions": [str],
    "cut": [bool]}: each
    completion is prefixed by prefix; cut[i] says completion i was cut off
    (its last line is incomplete). Returns {"samples": [{"tests": [{"setup",
    "code", "input", "expected", "key"}], "stats": {...}} or {"failed": error}]}.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarning floods from broken samples
        return _extract_tests(arg)


def _extract_tests(arg):
    entry = arg.get("entry_point") or ""
    prefix = arg.get("prefix") or ""
    cut = arg.get("cut") or []
    try:
        known = _known_names(arg.get("prompt"), arg.get("context"))
    except Exception:  # a prompt that breaks symtable: check nothing extra
        known = set()
    out = []
    for i, c in enumerate(arg.get("completions") or []):
        try:
            text = c if isinstance(c, str) else ""
            out.append(_tests_one(prefix + text, entry, i < len(cut) and bool(cut[i]), known))
        except Exception as e:  # a bug here must not lose the other samples
            out.append({"failed": "%s: %s" % (type(e).__name__, e)})
    return {"samples": out}
