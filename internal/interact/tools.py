"""Helpers ticoder's interactive front ends run in the sandbox (Runner.Call).

Each function takes one JSON-decoded argument and returns a JSON value.
"""
import ast
import importlib
import io
import os
import sys
import tempfile
import tokenize
import traceback


def _syntax(e, src):
    line = e.lineno or 0
    lines = src.splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else (e.text or "").rstrip("\n")
    return {"line": line, "col": e.offset or 0, "msg": e.msg, "text": text}


def parse_stub(arg):
    """Parse a Python stub: context, a def line and a docstring.

    The function to implement is the last top-level def. Returns its name,
    the source before it (context), its header (the def line or lines), its
    docstring, or a syntax error with its line.
    """
    src = arg["source"]
    try:
        tree = ast.parse(src)
    except SyntaxError as e:
        # A def line with no docstring and no body is a fine stub.
        try:
            tree = ast.parse(src.rstrip() + "\n    ...\n")
        except SyntaxError:
            return {"error": _syntax(e, src)}
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs:
        return {"error": {"line": 0, "col": 0, "msg": "no function definition (def NAME(...):) found", "text": ""}}
    fn = defs[-1]
    lines = src.splitlines()
    start = min([fn.lineno] + [d.lineno for d in fn.decorator_list])
    body_start = fn.body[0].lineno
    header = "\n".join(lines[start - 1:body_start - 1]).rstrip()
    if not header:  # def f(): """doc""" on one line
        header = lines[start - 1]
    return {
        "entry_point": fn.name,
        "context": "\n".join(lines[:start - 1]).rstrip(),
        "signature": header,
        "docstring": ast.get_docstring(fn) or "",
        "has_body": any(not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)) and not isinstance(s, ast.Pass) for s in fn.body),
    }


def _signed_number(node):
    """Report whether node is a number, or + or - and a number."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float, complex)


def _non_literal(node):
    """Return the outermost part of an expression tree that ast.literal_eval
    does not read, or None."""
    if isinstance(node, ast.Expression):
        return _non_literal(node.body)
    if isinstance(node, ast.Constant):
        return None
    if isinstance(node, ast.UnaryOp):
        return None if _signed_number(node) else node
    if isinstance(node, ast.BinOp):  # a complex number such as 1+2j
        ok = (isinstance(node.op, (ast.Add, ast.Sub)) and _signed_number(node.left)
              and isinstance(node.right, ast.Constant) and type(node.right.value) is complex)
        return None if ok else node
    if isinstance(node, ast.Call):  # set() is the empty set
        ok = isinstance(node.func, ast.Name) and node.func.id == "set" and not node.args and not node.keywords
        return None if ok else node
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        parts = node.elts
    elif isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):  # {**other}
            return node
        parts = node.keys + node.values
    else:
        return node
    for part in parts:
        bad = _non_literal(part)
        if bad is not None:
            return bad
    return None


def check_value(arg):
    """Report whether arg["source"] is a Python literal: what ast.literal_eval
    accepts (numbers, strings, bytes, True, False, None, Ellipsis, and tuples,
    lists, dicts and sets of them, and set()), with no comment.

    The value is parsed and read, never evaluated. Returns {} for a literal,
    {"error": SYNTAX} for text that is not Python, or {"not_literal": {"part":
    the offending sub-expression or "", "msg": why}}.
    """
    src = arg["source"]
    try:
        tree = ast.parse(src, "<value>", mode="eval")
    except SyntaxError as e:
        return {"error": _syntax(e, src)}
    except ValueError as e:  # e.g. a NUL byte
        return {"not_literal": {"part": "", "msg": str(e)}}
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    except (tokenize.TokenError, SyntaxError) as e:
        return {"not_literal": {"part": "", "msg": str(e)}}
    if any(t.type == tokenize.COMMENT for t in toks):
        return {"not_literal": {"part": "", "msg": "a value cannot contain a comment (#)"}}
    try:
        ast.literal_eval(tree)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as e:
        bad = _non_literal(tree)
        if bad is None:
            return {"not_literal": {"part": "", "msg": "%s: %s" % (type(e).__name__, e)}}
        part = ast.get_source_segment(src, bad) or type(bad).__name__
        return {"not_literal": {"part": part, "msg": ""}}
    return {}


def run_tests(arg):
    """Write NAME.py and test_NAME.py to a fresh directory, import the test
    module and run each test_* function, as pytest would."""
    d = tempfile.mkdtemp(prefix="ticoder-export-")
    with open(os.path.join(d, arg["code_file"]), "w") as f:
        f.write(arg["code"])
    with open(os.path.join(d, arg["test_file"]), "w") as f:
        f.write(arg["tests"])
    sys.path.insert(0, d)
    os.chdir(d)
    out = []
    try:
        mod = importlib.import_module(arg["test_file"][:-3])
    except BaseException as e:  # noqa: BLE001
        return {"error": "importing %s: %s: %s" % (arg["test_file"], type(e).__name__, e)}
    for name in sorted(n for n in vars(mod) if n.startswith("test_") and callable(getattr(mod, n))):
        try:
            getattr(mod, name)()
            out.append({"name": name, "ok": True})
        except BaseException as e:  # noqa: BLE001
            tb = traceback.format_exception_only(type(e), e)
            out.append({"name": name, "ok": False, "error": "".join(tb).strip()})
    return {"results": out}
