"""Helpers ticoder's interactive front ends run in the sandbox (Runner.Call).

Each function takes one JSON-decoded argument and returns a JSON value.
"""
import ast
import importlib
import os
import sys
import tempfile
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


def check_expr(arg):
    """Report whether arg["source"] is a Python expression."""
    src = arg["source"]
    try:
        compile(src, "<value>", "eval")
    except SyntaxError as e:
        return {"error": _syntax(e, src)}
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
