# Extraction of candidate programs. Concatenated after extract.py (see there).


# In the sandbox this file runs concatenated after extract.py (see there), as a
# source whose __name__ is "ticoder_tool". Imported on its own (its unit
# tests, the lint in .ci/run) it takes the shared names from there.
if __name__ != "ticoder_tool":
    import ast
    from extract import (
        _MAX_TRIES, _Quiet, _bad_reason, _blocks, _bound, _compiles, _failure, _is_start, _key, _lines, _parse, _used, split_top,
    )

import textwrap


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
    return {"drop": _bad_reason(prompt + completion), "error": str(err)}


def _starts_at_col0(text):
    for line in _lines(text):
        if line.strip():
            return not line[0].isspace()
    return False


def _method_def(tree, cls, name):
    """The definition of method name: in class cls, else at the top level,
    else anywhere."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            found = [n for n in node.body if _is_entry_def(n, name)]
            if found:
                return found[-1]
    found = [n for n in tree.body if _is_entry_def(n, name)]
    if found:
        return found[-1]
    return next((n for n in ast.walk(tree) if _is_entry_def(n, name)), None)


def _code_method(completion, prompt, entry, style):
    """A method's definition (entry is CLASS.METHOD or CLASS().METHOD) as a
    top-level def after the text's top-level imports: from the whole class,
    the method alone at any indentation, or the prompt continued."""
    cls, _, name = entry.rpartition(".")
    cls = cls[:-2] if cls.endswith("()") else cls
    texts = [prompt + completion] if style == "body" else _blocks(completion)[1]
    for text in texts:
        text = textwrap.dedent(text)
        tree, _ = _parse(text)
        if tree is None:
            continue
        node = _method_def(tree, cls, name)
        if node is None:
            continue
        lines = _lines(text)
        start = min([node.lineno] + [d.lineno for d in node.decorator_list])
        imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        head = "".join("".join(lines[n.lineno - 1:n.end_lineno]) for n in imports)
        code = textwrap.dedent("".join(lines[start - 1:node.end_lineno]))
        out = _finish(head + ("\n\n" if head else "") + code)
        out["trimmed"] = True
        return out
    return {"drop": "no_entry_point"}


def _code_one(completion, prompt, context, entry, style):
    if not completion.strip():
        return {"drop": "empty"}
    if "." in entry:
        return _code_method(completion, prompt, entry, style)
    if style == "body":
        if (prompt.endswith("\n") or not prompt) and _starts_at_col0(completion):
            # A continuation that starts at column 0 is a whole program
            # (a model that rewrote the function, as many chat models do):
            # run as prompt + completion, its definition is the one that
            # counts, so it is taken as such when it defines the entry point.
            out = _code_full(completion, context, entry)
            if "program" in out:
                return out
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
    with _Quiet():
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
            r = {"drop": _failure(e), "error": "%s: %s" % (type(e).__name__, e)}
        out.append(r)
    return {"samples": out}
