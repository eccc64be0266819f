"""ticoder's tools for a function inside a project's module.

They run inside the sandbox, in the project's own interpreter (Python 3.9
or later), through execute.Runner.Call: each takes and returns JSON values
and reports a problem as {"error": message} instead of raising.

  locate(arg)       where the function NAME or Class.method is in a module's
                    source, its spec (decorators, def line, docstring),
                    whether its body is a stub, and the module's top-level
                    names; for a method, its kind (instance, static, class)
                    and the arguments its class's constructor requires.
  splice(arg)       each candidate program's definition of the function put
                    in the module in place of the original, indented as it
                    was, with the candidate's top-level imports that the
                    module lacks added after the module's imports; the
                    original's decorators and every other byte of the
                    module unchanged.
  functions(arg)    the functions ticoder can work on in each of several
                    modules' sources: top-level functions and the methods
                    of top-level classes (Class.method), but dunder methods
                    and properties.
  check_tests(arg)  runs test functions of a test file's source against the
                    module (the spliced source, registered under its dotted
                    name, or the file on disk), and reports each outcome.
"""

import ast
import io
import os
import sys
import traceback
import types


def _lines(source):
    return source.splitlines(True)


def _newline(source):
    for nl in ("\r\n", "\n", "\r"):
        if nl in source:
            return nl
    return "\n"


def _find(tree, name):
    """The definition named name (NAME or Class.method) and its class."""
    cls_name, _, fn = name.rpartition(".")
    body, cls = tree.body, None
    if cls_name:
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == cls_name:
                cls, body = node, node.body
        if cls is None:
            return None, None
    found = None
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn:
            found = node  # the last definition wins, as at run time
    return found, cls


def _start(node):
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


def _has_docstring(node):
    b = node.body[0] if node.body else None
    return isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant) and isinstance(b.value.value, str)


def _stubby(stmt):
    if isinstance(stmt, ast.Pass):
        return True
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and stmt.value.value is Ellipsis:
        return True
    if isinstance(stmt, ast.Raise) and stmt.exc is not None:
        e = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
        return isinstance(e, ast.Name) and e.id == "NotImplementedError"
    return False


def _top_names(tree):
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                if a.name != "*":
                    names.append((a.asname or a.name).split(".")[0])
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        names.append(n.id)
    return sorted(set(names))


def _dedent(text, indent):
    out = []
    for line in _lines(text):
        out.append(line[len(indent):] if line.startswith(indent) else line.lstrip(" \t") if not line.strip() else line)
    return "".join(out)


def _deco_name(d):
    d = d.func if isinstance(d, ast.Call) else d
    if isinstance(d, ast.Attribute):
        return d.attr
    return d.id if isinstance(d, ast.Name) else ""


def _required(args, skip_first):
    """The names of the parameters of args that have no default."""
    pos = list(args.posonlyargs) + list(args.args)
    if skip_first:
        pos = pos[1:]
    need = [a.arg for a in pos[: len(pos) - len(args.defaults)]] if len(pos) > len(args.defaults) else []
    need += [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]
    return need


def _init_args(cls):
    """The arguments cls's own constructor requires (its __init__, or the
    fields of a dataclass without defaults); none when it inherits one."""
    inits = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
    if inits:
        return _required(inits[-1].args, True)
    if any(_deco_name(d) == "dataclass" for d in cls.decorator_list):
        return [n.target.id for n in cls.body if isinstance(n, ast.AnnAssign) and n.value is None
                and isinstance(n.target, ast.Name) and "ClassVar" not in ast.dump(n.annotation)]
    return []


def _method(node, cls):
    """What locate says of a method: its kind and what constructing its
    class requires, or why tests cannot call it."""
    decos = {_deco_name(d) for d in node.decorator_list}
    if decos & {"property", "cached_property", "setter", "getter", "deleter"}:
        return {"error": "%s.%s is a property; ticoder writes methods that tests call with arguments" % (cls.name, node.name)}
    if "staticmethod" in decos:
        return {"kind": "static"}
    if "classmethod" in decos:
        return {"kind": "class"}
    return {"kind": "instance", "init_args": _init_args(cls)}


def locate(arg):
    source, name = arg["source"], arg["name"]
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        return {"error": "line %s: %s" % (e.lineno, e.msg)}
    node, cls = _find(tree, name)
    if node is None:
        return {"error": "no function %s in the module" % name}
    lines = _lines(source)
    start, end = _start(node), node.end_lineno
    def_line = lines[node.lineno - 1]
    indent = def_line[: len(def_line) - len(def_line.lstrip(" \t"))]
    has_doc = _has_docstring(node)
    rest = node.body[1:] if has_doc else node.body
    if node.body[0].lineno == node.lineno:  # def f(): ... on one line
        spec_end, sig_end = node.lineno, node.lineno
    else:
        sig_end = node.body[0].lineno - 1
        spec_end = node.body[0].end_lineno if has_doc else sig_end
    spec = "".join(lines[start - 1:spec_end])
    method = _method(node, cls) if cls is not None else {}
    if "error" in method:
        return method
    return dict(method, **{
        "start": start, "def": node.lineno, "end": end, "indent": indent, "cls": cls.name if cls else "",
        "function": node.name, "spec": _dedent(spec, indent),
        "signature": _dedent("".join(lines[node.lineno - 1:sig_end]), indent).rstrip("\r\n"),
        "docstring": ast.get_docstring(node) or "", "stub": all(_stubby(s) for s in rest),
        "names": _top_names(tree), "newline": _newline(source),
        "code": _dedent("".join(lines[start - 1:end]), indent),
        "doc_lines": _body_dedent("".join(lines[node.body[0].lineno - 1:node.body[0].end_lineno])) if has_doc and node.body[0].lineno != node.lineno else "",
    })


def _body_dedent(text):
    """text, the docstring's lines, without the indentation of its first
    line (the body's)."""
    first = _lines(text)[0]
    return _dedent(text, first[: len(first) - len(first.lstrip(" \t"))])


def _candidate_def(tree, name):
    """The candidate's definition of the function: Class.method, or a
    top-level def of the method's name, or any def of it."""
    node, _ = _find(tree, name)
    if node is None and "." in name:
        node, _ = _find(tree, name.rpartition(".")[2])
    if node is None:
        fn = name.rpartition(".")[2]
        for n in ast.walk(tree):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == fn:
                return n
    return node


def _imports_to_add(tree, module_tree, program_lines):
    have = {ast.dump(n) for n in module_tree.body if isinstance(n, (ast.Import, ast.ImportFrom))}
    bound = set(_top_names(module_tree))
    out = []
    for n in tree.body:
        if not isinstance(n, (ast.Import, ast.ImportFrom)) or ast.dump(n) in have:
            continue
        names = {(a.asname or a.name).split(".")[0] for a in n.names}
        if names and names <= bound:
            continue  # the module already binds these names
        out.append("".join(program_lines[n.lineno - 1:n.end_lineno]).strip() + "\n")
    return out


def _with_docstring(plines, node, loc):
    """The candidate's definition, from its def line, with the original's
    docstring in place of its own."""
    body = node.body[1:] if _has_docstring(node) else node.body
    doc = loc.get("doc_lines")
    if not doc or not body or node.body[0].lineno == node.lineno:
        return "".join(plines[node.lineno - 1:node.end_lineno])
    header = plines[node.lineno - 1:node.body[0].lineno - 1]
    first = plines[body[0].lineno - 1]
    indent = first[: len(first) - len(first.lstrip(" \t"))]
    doc = [indent + l if l.strip() else l for l in _lines(doc)]
    return "".join(header + doc + plines[body[0].lineno - 1:node.end_lineno])


def _insert_at(module_tree, start):
    """The line after which new imports go: after the last top-level import
    before the function, else after the module's docstring, else at the top."""
    at = 0
    body = module_tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        at = body[0].end_lineno
    for n in body:
        if isinstance(n, (ast.Import, ast.ImportFrom)) and n.end_lineno < start:
            at = max(at, n.end_lineno)
    return at


def _splice_one(source, module_tree, loc, program, name):
    try:
        tree = ast.parse(program)
    except SyntaxError as e:
        return {"error": "candidate does not parse: %s" % e.msg}
    node = _candidate_def(tree, name)
    if node is None:
        return {"error": "candidate defines no %s" % name}
    plines = _lines(program)
    if plines and not plines[-1].endswith(("\n", "\r")):
        plines[-1] += "\n"
    # The original's decorators and docstring stay (they are the spec); the
    # candidate's definition replaces the rest, from its def line.
    text = _with_docstring(plines, node, loc)
    first = plines[node.lineno - 1]
    own = first[: len(first) - len(first.lstrip(" \t"))]
    code = _dedent(text, own)
    nl = loc["newline"]
    body = [(loc["indent"] + l if l.strip() else l).rstrip("\r\n") + nl for l in _lines(code)]
    lines = _lines(source)
    last_had_nl = lines[loc["end"] - 1].endswith(("\n", "\r"))
    if not last_had_nl and body:
        body[-1] = body[-1].rstrip("\r\n")
    imports = [i.rstrip("\n") + nl for i in _imports_to_add(tree, module_tree, plines)]
    at = _insert_at(module_tree, loc["start"])
    new = lines[:at] + imports + lines[at:loc["def"] - 1] + body + lines[loc["end"]:]
    return {"patched": "".join(new), "code": code, "imports": [i.rstrip("\r\n") for i in imports]}


def splice(arg):
    source, name = arg["source"], arg["name"]
    loc = locate({"source": source, "name": name})
    if "error" in loc:
        return {"error": loc["error"]}
    module_tree = ast.parse(source)
    return {"results": [_splice_one(source, module_tree, loc, p, name) for p in arg["programs"]]}


def functions(arg):
    """{"sources": {FILE: source}} -> {"functions": {FILE: [NAME or
    Class.method]}, "errors": {FILE: message}} (a file that does not parse)."""
    out, errors = {}, {}
    for f, source in arg["sources"].items():
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError) as e:
            errors[f] = "does not parse: %s" % e
            continue
        names = []
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.append(node.name)
            elif isinstance(node, ast.ClassDef):
                for m in node.body:
                    if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and not m.name.startswith("__") \
                            and "error" not in _method(m, node):
                        names.append(node.name + "." + m.name)
        out[f] = list(dict.fromkeys(names))
    return {"functions": out, "errors": errors}


def _load(name, path, source):
    mod = types.ModuleType(name)
    mod.__file__ = path
    mod.__package__ = name.rpartition(".")[0]
    sys.modules[name] = mod
    exec(compile(source, path, "exec"), mod.__dict__)
    return mod


def check_tests(arg):
    """Runs the test functions named in arg["names"] (all test_* when
    empty) of arg["tests"], with the module arg["module"] loaded from
    arg["patched"] when given, else imported from the project."""
    name, path = arg["module"], arg["file"]
    out = io.StringIO()
    try:
        if arg.get("patched") is not None:
            _load(name, path, arg["patched"])
        else:
            __import__(name)
        g = {"__name__": "ticoder_tests", "__file__": arg.get("test_file", "<tests>")}
        exec(compile(arg["tests"], arg.get("test_file", "<tests>"), "exec"), g)
    except BaseException as e:  # noqa: BLE001 - report, never raise
        return {"error": "%s: %s" % (type(e).__name__, str(e)[:500])}
    wanted = arg.get("names") or [k for k in g if k.startswith("test_") and callable(g[k])]
    results = []
    for k in wanted:
        try:
            g[k]()
            results.append({"name": k, "ok": True})
        except BaseException as e:  # noqa: BLE001
            tb = traceback.format_exception_only(type(e), e)
            results.append({"name": k, "ok": False, "error": "".join(tb).strip()[:500]})
    out.close()
    return {"results": results, "python": sys.version.split()[0], "cwd": os.getcwd()}
