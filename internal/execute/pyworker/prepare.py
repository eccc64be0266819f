"""Preparing a request's tests: compiling each once and deciding who
judges it.

Trusted code of the worker; it runs nothing of a request but the compiler
(and, for an expected value that is not a literal, a task process, see
task.run_task). compile_tests makes each test a testenv.Test of one kind:
"A" (`assert CALL == LITERAL`, or a predicate of one bare call, see
predicate_form: C sends the call's value, the worker decides),
"T" (a benchmark's own hidden test, run in the worker against proxies),
"J" (a generated test, run in a judge process), "L" (allow_objects: C runs
it) or "P" (an input suite). It also decides what C and a test get of each
other: the names a test takes from the program (wanted_names) and the
literal calls of a hidden test sent to C ahead of it (prefetch_calls).
"""

import ast
import operator
import symtable

from .baseline import BUILTINS
from .suiterun import SUITE_SLOTS, SUITES, CompiledSuite
from .task import run_task
from .testenv import Test
from .values import MAX_TEXT, NotPlain, clip, decode, encode, exc_name
from .wire import Garbled, call_key

MAX_NAMES = 4096  # module-level names of a program offered to a test
MAX_PREFETCH = 256  # literal calls of a test sent ahead


_compiled = {}


def compile_tests(raw, allow_objects):
    """Compiles each test in the worker and decides who judges it. The same
    tests come in request after request (one problem's, for its many
    programs): each is compiled once and kept."""
    if len(_compiled) > 20000:
        _compiled.clear()
    out = []
    for t in raw:
        if t.get("suite") is not None:
            out.append(compile_suite_test(t["suite"]))
            continue
        key = (allow_objects, bool(t.get("trusted")), t.get("setup"), t.get("code"), t.get("input"), t.get("expected"), t.get("entry"))
        w = _compiled.get(key)
        if w is None:
            w = _compiled[key] = compile_test(t, allow_objects)
        out.append(w)
    return out


def shared_calls(tests):
    """For each test, the earlier value test whose call (setup and call
    expression) it shares, or None: the program's process evaluates a call
    once per program, and every test of that call is decided on its value
    (or times out, crashes or is not run with it)."""
    first = {}
    out = [None] * len(tests)
    for j, w in enumerate(tests):
        if w.kind == "A" and w.bad is None and w.call is not None:
            f = first.setdefault(w.call, j)
            if f != j:
                out[j] = f
    return out


def compile_test(t, allow_objects):
    """Compiles one test (a Test, never changed afterwards)."""
    w = Test()
    entry = t.get("entry") or ""
    if type(entry) is str and entry.isidentifier() and not entry.startswith("__"):
        w.entry = entry
    try:
        w.setup = compile(t["setup"], "<setup>", "exec") if t.get("setup") else None
        if allow_objects:
            w.kind = "L"
            if t.get("input"):
                w.legacy = (w.setup, compile(t["input"], "<input>", "eval"), compile(t["expected"], "<expected>", "eval"), None)
            else:
                w.legacy = (w.setup, None, None, compile(t["code"], "<test>", "exec"))
        elif t.get("trusted"):
            w.kind = "T"
            w.code = compile(t["code"], "<test>", "exec")
            w.wanted = wanted_names(t.get("setup") or "", t["code"], w.entry)
            w.prefetch = prefetch_calls(literal_calls(t["code"]))
        else:
            w.code = compile(t["code"], "<test>", "exec")
            w.wanted = wanted_names(t.get("setup") or "", t["code"], w.entry)
            if t.get("input"):
                w.inp = compile(t["input"], "<input>", "eval")
                w.expected = expected_value(t["expected"], t.get("setup") or "")
                if w.expected is not None:
                    w.kind = "A"
                    w.call = (t.get("setup") or "", t["input"])
            else:
                form = predicate_form(t["code"], t.get("setup") or "")
                if form is not None:
                    w.inp = compile(form[0], "<input>", "eval")
                    w.check = form[1]
                    w.kind = "A"
                    w.call = (t.get("setup") or "", form[0])
    except BaseException as e:  # noqa: BLE001
        w.bad = exc_name(e)
    return w


# The comparisons predicate_form takes, as functions of (left, right).
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}


def predicate_form(code, setup):
    """A generated test that asserts one thing of what one call returns,
    with no message: `assert X`, `assert not X`, `assert X is None` (True,
    False; `is not`) or `assert X OP LITERAL` (either side; OP one of == !=
    < <= > >= in, not in), where X is a call of a function that neither the
    builtins nor the setup define: a program's. Returns (X's source,
    check), check being what judge.holds decides on X's value; None for
    any other test. Such a test runs as a value test: C sends X's value and
    the worker decides, on the same plain data a judge process would get,
    without forking one. (X is a bare call so that nothing of the verdict
    is computed in C: the program chooses only the value, as it does for a
    judge.)"""
    try:
        tree = ast.parse(code)
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Assert) or tree.body[0].msg is not None:
            return None
        e = tree.body[0].test
        check = ("truthy",)
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            e, check = e.operand, ("falsy",)
        elif isinstance(e, ast.Compare) and len(e.ops) == 1:
            op, left, right = type(e.ops[0]), e.left, e.comparators[0]
            if op in (ast.Is, ast.IsNot):
                if not (isinstance(right, ast.Constant) and right.value in (None, True, False) and type(right.value) in (type(None), bool)):
                    return None
                e, check = left, ("is" if op is ast.Is else "is not", right.value)
            elif op in _COMPARE:
                for x, lit, swapped in ((left, right, False), (right, left, True)):
                    try:
                        value = ast.literal_eval(lit)
                    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                        continue
                    e, check = x, ("compare", _COMPARE[op], value, swapped)
                    break
                else:
                    return None
            else:
                return None
        if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Name)) or e.func.id in BUILTINS:
            return None
        if setup and e.func.id in bound_names(setup):
            return None
        return ast.unparse(e), check
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def bound_names(src):
    """Every name src binds anywhere (assignments, definitions, imports,
    except clauses, globals). Raises SyntaxError when src does not parse
    (predicate_form then leaves the test to a judge)."""
    tree = ast.parse(src)
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            out.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            out.update(n.names)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
    return out


def wanted_names(setup, code, entry):
    """The names a test (its setup, then its code) takes from the
    program's module: the global names it uses and does not bind itself,
    but for builtins and dunders, and the function under test, entry,
    whatever its name. A program's other names never reach the test, so a
    program that also defines abs, len or isinstance does not change what
    the test's own uses of them do."""
    src = setup + "\n" + code if setup else code
    used = set()
    try:
        top = symtable.symtable(src, "<test>", "exec")
        bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
        tables = [top]
        while tables:
            t = tables.pop()
            tables.extend(t.get_children())
            for sym in t.get_symbols():
                if sym.is_referenced() and (t is top or sym.is_global()):
                    used.add(sym.get_name())
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        bound = set()
    out = sorted(n for n in used - bound if not n.startswith("__") and n not in BUILTINS and n != entry)
    if entry:
        out.insert(0, entry)
    return tuple(out[:MAX_NAMES])


_expected_cache = {}


def expected_value(src, setup):
    """The plain value of an expected-value expression as a 1-tuple, or
    None when it is not plain data without the program. Literals are parsed
    here; anything else is evaluated once in a child that runs no program."""
    if not setup:
        try:
            return (ast.literal_eval(src),)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
    key = (src, setup)
    if key in _expected_cache:
        return _expected_cache[key]
    if len(_expected_cache) > 20000:
        _expected_cache.clear()
    out = run_task(("expected", src, setup), 2.0, {"memory": 1 << 30, "nproc": 1}, "expected")
    value = None
    if out.get("ok"):
        try:
            value = (decode(out["result"]),)
        except Garbled:
            value = None
    _expected_cache[key] = value
    return value


def prefetch_calls(calls):
    """Encodes a test's literal calls once, when the test is compiled:
    [(function name, call_key)]. A call whose arguments are not plain data
    is left out (the test then makes it on its own)."""
    out = []
    for name, args, kwargs in calls:
        try:
            out.append((name, call_key(name, [encode(x) for x in args], {str(n): encode(x) for n, x in kwargs.items()})))
        except (NotPlain, RecursionError, TypeError, ValueError):
            pass
    return tuple(out)


def literal_calls(src):
    """The calls a trusted test makes with literal arguments, in source
    order: [(function name, args, kwargs)]. `def check(candidate): …` called
    as `check(f)` at the end maps candidate to f. The worker sends these to
    the program's process in one message before the test runs, so that a
    test of many asserts costs one round trip, not one per call; a call the
    test then makes that is not among them (or comes out of order) is made
    on its own."""
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    alias = {}
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for n in tree.body:
        if (isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name)
                and n.value.func.id in defs):
            params = [a.arg for a in defs[n.value.func.id].args.args]
            for p, a in zip(params, n.value.args):
                if isinstance(a, ast.Name):
                    alias[p] = a.id
    out = []
    try:
        for node in ast.walk(tree):
            if len(out) >= MAX_PREFETCH:
                break
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                continue
            try:
                args = [ast.literal_eval(a) for a in node.args]
                kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            out.append(((node.lineno, node.col_offset), alias.get(node.func.id, node.func.id), args, kwargs))
    except RecursionError:
        return ()
    out.sort(key=lambda c: c[0])  # ast.walk is breadth first: back to source order
    return tuple(c[1:] for c in out)


def compile_suite_test(body):
    """A suite test: body is a Suite in full, or only its id once this worker
    has it (Go sends a suite to a worker once)."""
    w = Test()
    w.kind = "P"
    try:
        sid = body["id"]
        if "entry" in body:
            SUITES[sid] = CompiledSuite(body)
            while len(SUITES) > SUITE_SLOTS:
                SUITES.popitem(last=False)
        w.suite = SUITES[sid]
    except KeyError:
        w.bad = "suite not loaded"
    except (ValueError, TypeError, IndexError, AttributeError, RecursionError, MemoryError) as e:
        w.bad = clip("bad suite: %s" % e, MAX_TEXT)
    return w
