# Extraction of single-assertion tests. Concatenated after extract.py and codes.py.


# In the sandbox this file runs concatenated after extract.py (see there), as a
# source whose __name__ is "ticoder_tool". Imported on its own (its unit
# tests, the lint in .ci/run) it takes the shared names from there.
if __name__ != "ticoder_tool":
    import ast
    from extract import (
        _Quiet, _blocks, _bound, _calls, _compiles, _failure, _indent, _lines, _mutated, _parse, _source_key, _unbound, _used, split_top,
    )


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


_MAX_PARAM_SETS = 256  # parameter sets expanded per test function


def _parametrize(fn):
    """Parameter sets of @pytest.mark.parametrize: a list of assignment lists, or None."""
    sets = None
    for d in fn.decorator_list:
        if not (isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "parametrize"):
            continue
        if len(d.args) < 2 or not isinstance(d.args[1], (ast.List, ast.Tuple)):
            return None
        spec = d.args[0]
        if isinstance(spec, ast.Constant) and isinstance(spec.value, str):
            names = [s.strip() for s in spec.value.split(",") if s.strip()]
        elif isinstance(spec, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in spec.elts):
            names = [e.value for e in spec.elts]
        else:
            return None
        if not names or not all(n.isidentifier() for n in names):
            return None
        mine = []
        for el in d.args[1].elts:
            if len(names) == 1:
                mine.append([ast.Assign([ast.Name(names[0], ast.Store())], el, lineno=0)])
            elif isinstance(el, (ast.Tuple, ast.List)) and len(el.elts) == len(names):
                mine.append([ast.Assign([ast.Name(nm, ast.Store())], v, lineno=0) for nm, v in zip(names, el.elts)])
            else:
                return None
        sets = mine if sets is None else [a + b for a in sets for b in mine]
        if len(sets) > _MAX_PARAM_SETS:
            return None
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


_TEST_STATS = ("pieces", "kept", "setup", "empty", "syntax", "truncated", "no_entry_point", "unbound", "not_test", "failed")


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
                try:
                    t, reason, deps = _test(units, k, entry, known)
                except Exception as e:  # one piece must not lose the others
                    t, reason = None, _failure(e)
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
    "cut": [bool]}: each completion is prefixed by prefix; cut[i] says
    completion i was cut off (its last line is incomplete). Returns {"samples": [{"tests": [{"setup",
    "code", "input", "expected", "key"}], "stats": {...}} or {"failed": error}]}.
    """
    with _Quiet():
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
            if _failure(e) == "syntax":
                stats = dict.fromkeys(_TEST_STATS, 0)
                stats["pieces"] = stats["syntax"] = 1
                out.append({"tests": [], "stats": stats})
            else:
                out.append({"failed": "%s: %s" % (type(e).__name__, e)})
    return {"samples": out}
