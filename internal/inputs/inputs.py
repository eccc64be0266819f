"""Builds a problem's input pool: calls of its entry point with literal
arguments, to run on every candidate (see package inputs, doc.go).

Run by ticoder through the execution engine's Call, in the sandbox.
collect(arg) takes

    {"entry", "prompt", "signature", "tests": [{"setup", "code", "input"}],
     "proposed": [call, ...], "max_inputs", "max_chars", "seed"}

and returns {"inputs": [{"call", "origin", "size"}, ...]} in this order:

- "example": calls of the entry point with literal arguments written in the
  prompt (doctests `>>> f(x)`, `f(x) == y` lines, MBPP-style asserts, prose);
- "test": calls with literal arguments inside the generated tests that are
  not already a test's own CALL (e.g. `assert f(x) is True`,
  `assert abs(f(x) - y) < 1e-6`);
- "model": calls found in what a model proposed (the text of its
  answers: calls of entry with literal arguments, as in the prompt);
- "mutation": type-aware mutations of one argument of a seed (an example,
  a test's call or a proposed call), as EvalPlus mutates inputs: ints +1,
  -1, 0, negated; floats +1, negated, halved, 0.0; strings with a
  character inserted, deleted, replaced or two swapped, emptied, case
  swapped (whole or one letter), a number inside one mutated or two
  swapped; lists and tuples with an element added, removed, duplicated or
  two swapped, emptied, one element mutated recursively; lists reversed;
  dicts and sets likewise; bools flipped;
  after every other mutation, ints doubled, two arguments swapped, ints
  as the equal float (where a written seed passes a float), lists of
  numbers negated;
  and, after each seed's first mutation, the shortest seed with each list
  of numbers replaced by two lists of 5 to 8 random numbers of one to
  three digits (of the seeds' sign), as EvalPlus generates numbers, and
  each int by two random ints of one or two digits;
- "hint": only when no seed is inside the domain the problem declares
  (declared.py), values built from the signature's type hints (int, float,
  str, bool, list, tuple, dict, set, Optional, Union) or, for an
  unannotated parameter, from what the docstring declares of it or else
  from its name (_named; then a small mix of other types; random lists as
  above for a list of numbers); those of the named types are then the
  seeds of the mutations. Calls outside the declared domain, or of another
  type than a name suggests, are atypical.

Every call is rendered canonically, entry(repr(arg), ..., name=repr(v)),
and kept only if every argument's repr evaluates back to an equal value and
the call is at most max_chars characters. Calls equal to a test's own CALL
(without setup) are left out: those tests are already asked about. Seeds
are mutated round-robin (each seed's first mutation, then each seed's
second, ...), smallest seeds first, so that a cut keeps the mutations
closest to the most examples; mutations that keep every property all the
seeds share at that argument (the sign of numbers, the case or emptiness of
strings, sequences sorted, without duplicates or non-empty, the same for
their elements) come before those that break one: the written examples
suggest the domain, and an input outside it gets answers no candidate can be
judged by; but an eighth of max_inputs is kept for the first of those that
are inside the declared domain, which are the questions left where no
typical input tells the candidates apart. The total is cut to
max_inputs; examples, test calls and proposed calls come first.
Deterministic for a given seed.
"""

import ast
import collections
import decimal
import fractions
import random
import re
import zlib

# In the sandbox ticoder runs this file after mutate.py, as one source whose
# __name__ is "ticoder_tool". Imported on its own (its unit tests, the lint in
# .ci/run) it takes those names from mutate.py.
if __name__ != "ticoder_tool":
    from mutate import _MISSING, _calls_in_text, _calls_in_tree, _literal_call, _mutate_call, _render, _round_trips
    from declared import declared, outside


# ---------------------------------------------------------------- type hints

_BASE = {
    "int": [0, 1, 2, 3, 5, 10, -1],
    "float": [0.0, 1.0, 2.5, -1.5, 0.5],
    "str": ["", "a", "ab", "abc", "Hello World", "aba"],
    "bool": [True, False],
    "bytes": [b"", b"ab"],
    "None": [None],
}
_ANY = [1, "a", [1, 2], 0, "", [], 2.5]


def _name(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and node.value is None:
        return "None"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return _name(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            return None
    return None


def _params(signature, entry):
    """The names of entry's parameters in signature (without self and cls)
    and how many of them have no default, or None."""
    try:
        tree = ast.parse(signature.strip() + ("\n    pass\n" if signature.rstrip().endswith(":") else ""))
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == entry:
            params = [a.arg for a in node.args.posonlyargs + node.args.args if a.arg not in ("self", "cls")]
            return params, len(params) - len(node.args.defaults)
    return None


def _literal_prefix(text, limit=2000):
    """The shortest prefix of text, ended by a comma, a space, a newline, a
    closing bracket or the end, that is a Python literal, and its value;
    None if there is none. Prose goes on after a value on the same line:
    `For lst = [1,2,3] the output should be 14`."""
    head = text[:limit]
    ends = sorted({i for i, c in enumerate(head) if c in ", \n"} | {i + 1 for i, c in enumerate(head) if c in ")]}"}) + [len(head)]
    for j in ends:
        src = text[:j].strip()
        if not src:
            continue
        try:
            v = ast.literal_eval(src)
        except Exception:  # noqa: BLE001 - not (yet) a literal
            continue
        if _round_trips(v):
            return v
    return None


def _param_named(word, params):
    """The parameter a docstring's name stands for: the parameter of that
    name, or the one parameter whose name is a run of word's underscore-
    separated parts (`bucket_capacity : 1` for capacity); None otherwise."""
    if word in params:
        return word
    parts = word.split("_")
    found = [p for p in params
             if any(parts[i:i + len(p.split("_"))] == p.split("_") for i in range(len(parts)))]
    return found[0] if len(found) == 1 else None


def _assigned_calls(text, signature, entry):
    """Calls written in prose as the parameters' values, as many docstrings
    give examples: `Input: arr = [1, 2], k = 3` or `grid : [[0, 1]]` on
    lines of their own. Assignments are taken in order; a call is formed
    once every parameter without a default has a value, and a parameter
    named again starts another call."""
    ps = _params(signature, entry)
    if ps is None or not ps[0]:
        return []
    params, required = ps
    out, cur = [], {}
    for m in re.finditer(r"(?<![\w.])([A-Za-z_]\w*)\s*[:=]\s*(?![=<>])", text):
        name = _param_named(m.group(1), params)
        if name is None:
            continue
        v = _literal_prefix(text[m.end():])
        if v is None:
            continue
        if name in cur:
            cur = {}
        cur[name] = v
        if all(p in cur for p in params[:required]):
            args = []
            for p in params:
                if p not in cur:
                    break
                args.append(cur[p])
            out.append((args, []))
            cur = {}
    return out


def _hint_values(node, depth=0):
    if node is None or depth > 3:
        return list(_ANY)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return list(_ANY)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _hint_values(node.left, depth + 1) + _hint_values(node.right, depth + 1)
    if isinstance(node, ast.Subscript):
        outer = (_name(node.value) or "").lower()
        inner = node.slice
        parts = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
        if outer in ("list", "sequence", "iterable", "set", "frozenset", "deque"):
            xs = _hint_values(parts[0], depth + 1)
            vals = [[], xs[1:2], xs[:3], xs[2:4] + xs[:2], xs[:1] * 2 + xs[1:2]]
            if outer in ("set", "frozenset"):
                return [set(v) for v in vals if _hashable(v)]
            return vals
        if outer == "tuple":
            if len(parts) == 2 and isinstance(parts[1], ast.Constant) and parts[1].value is Ellipsis:
                xs = _hint_values(parts[0], depth + 1)
                return [(), tuple(xs[:1]), tuple(xs[:3])]
            cols = [_hint_values(p, depth + 1) for p in parts]
            return [tuple(c[i % len(c)] for c in cols) for i in range(max(len(c) for c in cols))]
        if outer in ("dict", "mapping"):
            ks = _hint_values(parts[0], depth + 1)
            vs = _hint_values(parts[1] if len(parts) > 1 else None, depth + 1)
            ks = [k for k in ks if _hashable([k])]
            return [{}, dict(zip(ks[1:2], vs[1:2])), dict(zip(ks[:3], vs[:3]))]
        if outer == "optional":
            return _hint_values(parts[0], depth + 1) + [None]
        if outer == "union":
            out = []
            for p in parts:
                out += _hint_values(p, depth + 1)
            return out
        return list(_ANY)
    name = _name(node)
    if name in _BASE:
        return list(_BASE[name])
    lower = (name or "").lower()
    if lower in ("list", "sequence", "iterable"):
        return [[], [1], [1, 2, 3], [3, 1, 2]]
    if lower == "tuple":
        return [(), (1, 2)]
    if lower == "dict":
        return [{}, {"a": 1}]
    if lower == "set":
        return [set(), {1, 2}]
    return list(_ANY)


# Parameter names and the type they name by common convention (words of the
# name: "test_list", "nums1", "str2", "arrSize"): read only where a
# parameter has neither a type hint nor a declared type, to pick the type
# guesses to start from (never to call other types invalid). One letter
# names only where they are near universal: n, k, m, i, j integers, s a
# string.
_NAMED = [
    ({"tup", "tuple", "tuples", "tuplex"}, {"type=tuple"}),
    ({"dict", "dictionary", "dic", "mapping"}, {"type=dict"}),
    ({"words", "strings", "strs", "names", "lines", "sentences"}, {"seq", "[]type=str"}),
    ({"list", "lst", "arr", "array", "arrays", "nums", "numbers", "ints", "integers", "items", "elements",
      "seq", "sequence", "values", "vals", "scores"}, {"seq"}),
    ({"s", "str", "string", "text", "txt", "word", "char", "ch", "sentence", "pattern", "substring", "sub",
      "name", "line", "st"}, {"type=str"}),
    ({"n", "k", "m", "i", "j", "num", "number", "count", "size", "index", "idx", "length", "limit", "start",
      "len", "end", "low", "high", "base", "year", "month", "day", "width", "height", "steps", "times"},
     {"type=int"}),
]


def _words(name):
    """The words of an identifier, lower case: "arrSize2" and "arr_size"
    are arr, size; a one-letter name with digits ("n1") is that letter."""
    letter = name.rstrip("0123456789")
    if len(letter) == 1:
        return [letter.lower()]
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)]


def _named(name):
    """The type a parameter's name suggests (as declared.py's features), or
    None: that of the name's last word that _NAMED knows, as in English the
    last word of a compound is its head ("arr_size" is a size, "num_list" a
    list)."""
    for w in reversed(_words(name)):
        for names, want in _NAMED:
            if w in names:
                return set(want)
    return None


def _fits(want, v):
    """Whether value v is of the type that want (a _NAMED type) names."""
    if "seq" in want:
        return type(v) in (list, tuple) and ("[]type=str" not in want or all(type(x) is str for x in v))
    return {"type=tuple": tuple, "type=dict": dict, "type=str": str, "type=int": int}[next(iter(want))] is type(v)


def _hashable(xs):
    try:
        for x in xs:
            hash(x)
    except TypeError:
        return False
    return True


def _declared_values(want):
    """Values of the declared features want (declared.py) of an unannotated
    parameter: ints, numbers, strings or sequences of them, with the
    declared sign and emptiness."""
    elem = {x[2:] for x in want if x.startswith("[]")}
    if "seq" in want:
        xs = _declared_values(elem) if elem else [1, 2, 3]
        vals = [[], xs[1:2], xs[:3], xs[2:4] + xs[:2], xs[:1] * 2 + xs[1:2], xs[::-1]]
    elif "type=int" in want:
        vals = list(_BASE["int"])
    elif "num" in want:
        vals = [0, 1, 2, 3, 5, 10, -1]  # prose's "numbers" are mostly whole; mutations add floats
    elif "type=str" in want:
        vals = list(_BASE["str"])
    elif "type=dict" in want:
        vals = [{}, {"a": 1}, {"a": 1, "b": 2}]
    elif "type=tuple" in want:
        vals = [(), (1, 2)]
    elif "type=bool" in want:
        vals = [True, False]
    else:
        return list(_ANY)
    return [v for v in vals if not outside({0: want}, [v], [])] or vals


def _random_number_lists(col, rng):
    """Two lists of 5 to 8 random numbers, as EvalPlus generates ints and
    floats, if col's values are lists of numbers (of their kind, int or
    float, and their sign): each of one, two or three digits, uniform in
    [-10**d, 10**d] (from 0 or 1 for a declared sign). The few small values
    of a type say nothing of digits, magnitudes or repeats; these do."""
    elems = [x for v in col if type(v) is list for x in v]
    if not elems or any(type(v) is not list for v in col) or any(type(x) not in (int, float) for x in elems):
        return []
    lo = 1 if min(elems) > 0 else 0 if min(elems) >= 0 else None
    floats = any(type(x) is float for x in elems)

    def draw():
        top = 10 ** rng.randint(1, 3)
        low = -top if lo is None else lo
        return round(rng.uniform(low, top), 1) if floats else rng.randint(low, top)

    return [[draw() for _ in range(rng.randint(5, 8))] for _ in range(2)]


def _with(args, kwargs, key, v):
    """The call with the argument at key (a position, or a keyword's name)
    set to v."""
    if type(key) is int:
        return list(args[:key]) + [v] + list(args[key + 1:]), kwargs
    return args, [(k, v if k == key else w) for k, w in kwargs]


def _reversed(args, kwargs):
    """The call with each list argument of two or more distinct elements
    reversed, one at a time."""
    out = []
    for i, a in enumerate(args):
        if type(a) is list and len(a) > 1 and a[::-1] != a:
            out.append(_with(args, kwargs, i, a[::-1]))
    return out


def _doubled(args, kwargs):
    """The call with each integer argument of magnitude two or more
    doubled, one at a time: mutations by one stay among the seeds' small
    sizes, where a table written out to a few entries, an overflow-free
    shortcut or a modulus has not yet shown."""
    return [_with(args, kwargs, key, 2 * v) for key, v in list(enumerate(args)) + list(kwargs)
            if type(v) is int and abs(v) >= 2]


def _swapped(args, kwargs):
    """The call with each two positional arguments of one scalar type (int,
    float or str) and different values swapped: whether a program treats
    its parameters alike where the problem does (a triangle's sides, the
    two ends of a range) shows only when their order changes."""
    out = []
    for i in range(len(args)):
        for j in range(i + 1, len(args)):
            a, b = args[i], args[j]
            if type(a) is type(b) and type(a) in (int, float, str) and a != b:
                w = list(args)
                w[i], w[j] = b, a
                out.append((w, kwargs))
    return out


def _as_floats(args, kwargs, floaty):
    """The call with each integer argument at a key of floaty (where some
    written seed inside the declared domain passes a float; type guesses
    say nothing) given as the equal float, one at a time: where the
    examples write a number both ways, a program that tests for a whole
    number by value (x == int(x)) and one that tests its type
    (isinstance(x, int)) disagree only on a whole float."""
    return [_with(args, kwargs, key, float(v)) for key, v in list(enumerate(args)) + list(kwargs)
            if type(v) is int and key in floaty]


def _negated(args, kwargs):
    """The call with each list or tuple of numbers that has a positive
    element given with every element negated, one at a time: a program that
    counts a number's digits in its text, or takes the sign for granted,
    shows it only on negative elements, and one mutated element seldom
    lands where the problem looks (the first k)."""
    out = []
    for key, v in list(enumerate(args)) + list(kwargs):
        if type(v) in (list, tuple) and v and all(type(x) in (int, float) for x in v) and any(x > 0 for x in v):
            out.append(_with(args, kwargs, key, type(v)(-x for x in v)))
    return out


def _borrowed(args, kwargs):
    """The call with each string argument replaced by a string of another
    argument (a string argument, or the longest string element of a list or
    tuple argument) and by a two-character piece from that string's middle:
    where one argument is looked for in another (a substring, a prefix, a
    pattern), the seeds' short strings seldom occur there, and every
    program that misreads the relation agrees on them."""
    keyed = list(enumerate(args)) + list(kwargs)
    out = []
    for key, v in keyed:
        if type(v) is not str:
            continue
        other = None
        for k2, w in keyed:
            if k2 == key:
                continue
            for x in [w] if type(w) is str else w if type(w) in (list, tuple) else ():
                if type(x) is str and len(x) >= 2 and x != v and (other is None or len(x) > len(other)):
                    other = x
        if other is None:
            continue
        k = (len(other) - 2) // 2
        for m in dict.fromkeys([other, other[k:k + 2]]):
            if m != v:
                out.append(_with(args, kwargs, key, m))
    return out


def _random_calls(inside, rng):
    """The first (shortest) seed inside the domain with each argument that
    is a list of numbers in every such seed replaced by the random lists of
    _random_number_lists (of the seeds' kind and sign), and each that is an
    int in every such seed by the random ints of _random_ints: mutations
    reach only values near the seeds'."""
    if not inside:
        return []
    args, kwargs = inside[0]
    out = []
    for i in range(len(args)):
        col = [c[0][i] for c in inside if len(c[0]) > i]
        for v in _random_number_lists(col, rng) + _random_ints(col, rng):
            out.append(_with(args, kwargs, i, v))
    return out


def _random_ints(col, rng):
    """Two random ints of one or two digits, of the sign of col's values,
    if they are all ints and one is at least 2 in magnitude (not a flag or
    a first index): as EvalPlus draws ints, values the nearby mutations of
    a few small examples never reach (an odd composite, a two-digit
    number). Two digits at most: a count or size far beyond every
    example's makes slow correct programs time out."""
    if not col or any(type(v) is not int for v in col) or max(abs(v) for v in col) < 2:
        return []
    lo = 1 if min(col) > 0 else 0 if min(col) >= 0 else -99
    return [rng.randint(lo, 10 ** rng.randint(1, 2)) for _ in range(2)]


def _hint_calls(signature, entry, limit, dom=None, seed=0):
    """Calls built from the type hints of entry's parameters (or, for a
    parameter without one, from what the problem declares of it, dom, or
    else from its name, _named): the i-th value of every parameter
    together, then each parameter varied alone. Columns of lists of numbers
    get two lists of random numbers as well (_random_number_lists). Each
    call comes with whether its values are of the types the names suggest."""
    try:
        tree = ast.parse(signature.strip() + ("\n    pass\n" if signature.rstrip().endswith(":") else ""))
    except SyntaxError:
        return []
    fn = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == entry:
            fn = node
            break
    if fn is None:
        return []
    params = [a for a in fn.args.posonlyargs + fn.args.args if a.arg not in ("self", "cls")]
    if not params:
        return [(([], []), True)]
    dom = dom or {}
    rng = random.Random(seed ^ zlib.crc32(entry.encode()))
    cols, named = [], []
    for i, p in enumerate(params):
        want = _named(p.arg) if p.annotation is None and i not in dom else None
        if p.annotation is not None:
            vals = _hint_values(p.annotation)
        elif i in dom:
            vals = _declared_values(dom[i])
        else:
            vals = _declared_values(want) if want is not None else list(_ANY)
            if want == {"type=tuple"}:  # tuples of numbers, as sequences go
                vals = [tuple(v) for v in _declared_values({"seq"})]
        c = [v for v in vals if _round_trips(v)] or [0]
        c += _random_number_lists(c, rng)
        if want is not None:  # the named type's values, then the mix of the others
            c += [v for v in _ANY if not _fits(want, v)]
        cols.append(c)
        named.append(want)
    out = []
    for i in range(max(len(c) for c in cols)):
        out.append(([c[i % len(c)] for c in cols], []))
    for j, c in enumerate(cols):
        for v in c:
            args = [cc[1 % len(cc)] for cc in cols]
            args[j] = v
            out.append((args, []))
    # A size named as such beside one sequence is that sequence's length
    # (the C-style "arr, n" of many problems): other values of it are
    # mutations, and atypical ones (_invariants).
    sizes = [i for i, p in enumerate(params) if named[i] == {"type=int"} and _sized(p.arg)]
    for args, _ in out if sizes else ():
        seqs = [v for v in args if type(v) in (list, tuple)]
        if len(seqs) == 1:
            for i in sizes:
                args[i] = len(seqs[0])
    return [(c, all(w is None or _fits(w, v) for w, v in zip(named, c[0]))) for c in out[: limit * 2]]


def _sized(name):
    """Whether a parameter's name says it is a size: its last word is n,
    size, len or length (n, N, arr_size, strLen)."""
    words = _words(name)
    return bool(words) and words[-1] in ("n", "size", "len", "length")


# ---------------------------------------------------------------- the pool


def collect(arg):
    entry = arg["entry"]
    max_inputs = int(arg.get("max_inputs", 64))
    max_chars = int(arg.get("max_chars", 120))
    seed = int(arg.get("seed", 0))
    tests = arg.get("tests") or []
    seen = set()  # calls already in the pool or asked by a test
    seeds, seed_calls = [], set()
    out, calls = [], []  # the pool, and each input's (args, kwargs)

    def add_seed(c):
        call = _render(entry, *c)
        if call not in seed_calls and len(call) <= 4 * max_chars:
            seed_calls.add(call)
            seeds.append((len(call), len(seeds), c))

    def add(c, origin, atypical=False):
        call = _render(entry, *c)
        if call in seen or len(call) > max_chars or len(out) >= max_inputs:
            return
        seen.add(call)
        item = {"call": call, "origin": origin, "size": len(call) - len(entry) - 2}
        if atypical:
            item["atypical"] = True
        out.append(item)
        calls.append(c)

    for t in tests:
        if t.get("input") and not t.get("setup"):
            try:
                c = _literal_call(ast.parse(t["input"], mode="eval").body, entry)
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                c = None
            if c is not None:
                seen.add(_render(entry, *c))
                add_seed(c)
    for c in _calls_in_text(arg.get("prompt") or "", entry) + _assigned_calls(arg.get("prompt") or "", arg.get("signature") or "", entry):
        add_seed(c)
        add(c, "example")
    for t in tests:
        src = (t.get("setup") or "") + "\n" + (t.get("code") or "")
        try:
            tree = ast.parse(src)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            continue
        for c in _calls_in_tree(tree, entry):
            add_seed(c)
            add(c, "test")
    for p in arg.get("proposed") or []:
        for c in _calls_in_text(p, entry):
            add_seed(c)
            add(c, "model")
    dom = declared(arg.get("prompt") or "", arg.get("signature") or "", entry)
    # Where a seed someone wrote (not a type guess) inside the declared
    # domain passes a float: the keys whose ints _as_floats gives as floats.
    floaty = {key for _, _, (args, kwargs) in seeds if not outside(dom, args, kwargs)
              for key, v in list(enumerate(args)) + list(kwargs) if type(v) is float}
    if not any(not outside(dom, *c) for _, _, c in seeds):
        # Nothing written to start from, or only calls outside what the
        # problem declares: the values of the declared types are the inputs,
        # and the seeds of mutations.
        # Where parameter names suggest types, the calls of other types are
        # atypical and seed no mutations.
        hints = [(c, fits) for c, fits in _hint_calls(arg.get("signature") or "", entry, max_inputs, dom, seed)
                 if not outside(dom, *c)]
        for c, fits in sorted(hints, key=lambda h: not h[1]):
            add(c, "hint", not fits)
            if fits:
                add_seed(c)
    seeds.sort(key=lambda s: (s[0], s[1]))
    lists = []
    for _, _, (args, kwargs) in seeds:
        rng = random.Random(seed ^ zlib.crc32(_render(entry, args, kwargs).encode()))
        lists.append(_mutate_call(args, kwargs, rng) + _reversed(args, kwargs) + _borrowed(args, kwargs))
    # Round r gives seed s its mutation (r + s) mod n: every seed is mutated
    # before any is mutated twice, and neighbouring seeds by different kinds.
    # Mutations that keep every property all seeds share come first.
    inside = [c for _, _, c in seeds if not outside(dom, *c)]  # the seeds that say what the domain keeps
    inv = _invariants(inside)
    typical, later = [], []
    # After the first round, random lists of numbers (_random_calls; a
    # stream of their own, not the one _hint_calls drew its lists from).
    rand = _random_calls(inside, random.Random(seed ^ zlib.crc32(("random " + entry).encode())))
    for r in range(max((len(m) for m in lists), default=0)):
        for args, kwargs in rand if r == 1 else ():
            (typical if _keeps(inv, args, kwargs) and not outside(dom, args, kwargs) else later).append((args, kwargs))
        for s, m in enumerate(lists):
            if r < len(m):
                args, kwargs = m[(r + s) % len(m)]
                if all(_round_trips(a) for a in args) and all(_round_trips(v) for _, v in kwargs):
                    (typical if _keeps(inv, args, kwargs) and not outside(dom, args, kwargs) else later).append((args, kwargs))
    # Doubled integers, swapped arguments, whole numbers as floats and
    # negated lists after every other mutation near the seeds: they take
    # room that nothing nearer wants.
    for _, _, c in seeds:
        for args, kwargs in _doubled(*c) + _swapped(*c) + _as_floats(*c, floaty) + _negated(*c):
            (typical if _keeps(inv, args, kwargs) and not outside(dom, args, kwargs) else later).append((args, kwargs))
    # A few atypical mutations inside the declared domain (an empty string
    # where every example has letters) keep a place however many typical
    # ones there are: where nothing else tells the candidates apart, they
    # are the questions left.
    edge = [c for c in later if not outside(dom, *c)]
    reserve = min(len(edge), max_inputs // 8)
    rest = []
    for c in typical:
        if len(out) < max_inputs - reserve:
            add(c, "mutation")
        else:
            rest.append(c)
    for c in edge[:reserve]:
        add(c, "mutation", True)
    for c in rest:
        add(c, "mutation")
    for c in later:
        add(c, "mutation", True)
    profile = _Profile(inside, dom)
    for item, c in zip(out, calls):
        item["traits"] = profile.traits(c)
        if any(":!" in t for t in item["traits"]):  # outside the declared domain
            item["atypical"] = True
    test_calls = _test_calls(tests, entry)
    return {"inputs": out, "unlike": [profile.unlike(c) for c in test_calls],
            "traits": [profile.traits(c) for c in test_calls]}


def _test_calls(tests, entry):
    """Each test's own call as (args, kwargs), or None where it has none with
    literal arguments."""
    out = []
    for t in tests:
        c = None
        if t.get("input") and not t.get("setup"):
            try:
                c = _literal_call(ast.parse(t["input"], mode="eval").body, entry)
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                c = None
        out.append(c)
    return out


class _Profile:
    """What the seeds' arguments are like: for each argument (by position,
    and keyword by name), how many seeds' values have each property
    (_features) and use each character (_chars)."""

    def __init__(self, calls, dom=None):
        self.dom = dom or {}
        self.n = len(calls)
        self.feats = collections.defaultdict(collections.Counter)
        self.chars = collections.defaultdict(collections.Counter)
        for args, kwargs in calls:
            for key, v in list(enumerate(args)) + list(kwargs):
                self.feats[key].update(_features(v))
                self.chars[key].update(_chars(v))

    def traits(self, call):
        """The ways a call differs from the seeds, as sorted strings: "K:-P"
        where its argument K lacks a property P that a seed's value there
        has, "K:char" where it uses a character that fewer than two seeds
        (and fewer than one in ten) use (only among at least MIN_SEEDS
        seeds). Questions that share a trait that the user's undefined
        answers had and the other answers lacked are likely undefined too
        (session.Spec.Traits)."""
        return sorted(self._differences(call, 1) | set(self.declared(call)))

    def declared(self, call):
        """The properties the problem declares (declared.py) that a call's
        arguments lack, as traits."""
        return [] if call is None else outside(self.dom, *call)

    def unlike(self, call):
        """Whether a call is unlike most seeds: among at least MIN_SEEDS
        seeds, it lacks a property that MOST of them share, or uses a
        character that fewer than two seeds (and fewer than one in ten)
        use; or it is outside the declared domain."""
        if self.declared(call):
            return True
        return self.n >= MIN_SEEDS and bool(self._differences(call, MOST * self.n))

    def _differences(self, call, rule):
        """The properties that at least rule seeds have and the call lacks,
        and its rare characters (see traits)."""
        if call is None or self.n == 0:
            return set()
        args, kwargs = call
        out = set()
        for key, v in list(enumerate(args)) + list(kwargs):
            f = _features(v)
            for x, n in self.feats[key].items():
                if n >= rule and x not in f:
                    out.add("%s:-%s" % (key, x))
            if self.n >= MIN_SEEDS and any(self.chars[key][ch] < max(2, self.n / 10) for ch in _chars(v)):
                out.add("%s:char" % (key,))
        return out


MIN_SEEDS = 5  # seeds needed to call a test's call unlike most of them
MOST = 0.9  # the share of seeds that makes a property the rule


# ---------------------------------------------------------------- invariants


def _features(v, depth=0):
    """Properties of a value that a domain often fixes: its type, the sign
    of a number, whether a string is empty, lower or upper case, letters or
    digits only, without spaces, without leading, trailing or doubled
    spaces, whether a string or sequence is empty or shorter than two,
    whether a sequence is sorted or without duplicates, and (as "[]...")
    the properties all its elements share."""
    t = type(v)
    out = {"type=" + t.__name__}
    if t in (int, float):
        if v >= 0:
            out.add("nonneg")
        if v > 0:
            out.add("pos")
    elif t is str:
        if v:
            out.add("nonempty")
        if len(v) >= 2:
            out.add("len>=2")
        if v == v.lower():
            out.add("lower")
        if v == v.upper():
            out.add("upper")
        if v.isalpha():
            out.add("alpha")
        if v.isdigit():
            out.add("digits")
        if not any(c.isspace() for c in v):
            out.add("nospace")
        if v == v.strip() and "  " not in v:
            out.add("spaced")
    elif t in (list, tuple) and depth < 3:
        if v:
            out.add("nonempty")
        if len(v) >= 2:
            out.add("len>=2")
        try:
            if list(v) == sorted(v):
                out.add("sorted")
        except TypeError:
            pass
        try:
            if len(set(v)) == len(v):
                out.add("distinct")
        except TypeError:
            pass
        if v:
            common = None
            for x in v:
                f = _features(x, depth + 1)
                common = f if common is None else common & f
            out |= {"[]" + f for f in common}
    return out


def _chars(v, depth=0):
    """The characters of the strings in a value (its elements', keys' and
    values' too)."""
    t = type(v)
    if t is str:
        return set(v)
    out = set()
    if depth < 3:
        if t is dict:
            for k, x in v.items():
                out |= _chars(k, depth + 1) | _chars(x, depth + 1)
        elif t in (list, tuple, set, frozenset):
            for x in v:
                out |= _chars(x, depth + 1)
    return out


def _invariants(calls):
    """For each argument (by position, and keyword by name), the properties
    every seed's value has, and the characters any seed's strings use: what
    the written examples suggest the domain is. None where no seed has the
    argument. Under the key "same length", the pairs of positional list or
    tuple arguments that have one length in every seed, where at least two
    seeds have them (parallel lists: scores and guesses); under "length
    of", the pairs (i, j) of an integer argument i that is the length of
    list or tuple argument j in every seed, where at least two seeds have
    them (the C-style "arr, n")."""
    inv = {}
    for args, kwargs in calls:
        for key, v in list(enumerate(args)) + list(kwargs):
            f, chars = _features(v), _chars(v)
            if key in inv:
                f, chars = inv[key][0] & f, inv[key][1] | chars
            inv[key] = (f, chars)
    pairs, sizes = None, None
    for args, _ in calls:
        seq = [i for i, a in enumerate(args) if type(a) in (list, tuple)]
        mine = {(i, j) for i in seq for j in seq if i < j and len(args[i]) == len(args[j])}
        pairs = mine if pairs is None else pairs & mine
        mine = {(i, j) for i, a in enumerate(args) for j in seq if type(a) is int and a == len(args[j])}
        sizes = mine if sizes is None else sizes & mine
    if pairs and len(calls) >= 2:
        inv["same length"] = pairs
    if sizes and len(calls) >= 2:
        inv["length of"] = sizes
    return inv


def _keeps(inv, args, kwargs):
    """Whether every argument keeps the properties its seeds share and
    uses no character that none of its seeds' strings uses, list
    arguments of one length in every seed keep one length, and an integer
    that is a list's length in every seed stays its length."""
    for i, j in inv.get("same length", ()):
        if j >= len(args) or type(args[i]) not in (list, tuple) or type(args[j]) not in (list, tuple) or len(args[i]) != len(args[j]):
            return False
    for i, j in inv.get("length of", ()):
        if max(i, j) >= len(args) or type(args[i]) is not int or type(args[j]) not in (list, tuple) or args[i] != len(args[j]):
            return False
    for key, v in list(enumerate(args)) + list(kwargs):
        if key not in inv:
            continue
        f, chars = inv[key]
        if not f <= _features(v):
            return False
        if chars and not _chars(v) <= chars:
            return False
    return True


# ------------------------------------------------------------ value classes

# Names a plain value's repr may use beyond literals (see package execute).
_VALUE_NAMES = {
    "inf": float("inf"), "nan": float("nan"), "set": set, "frozenset": frozenset,
    "range": range, "complex": complex, "deque": collections.deque,
    "Fraction": fractions.Fraction, "Decimal": decimal.Decimal,
}
_VALUE_NODES = (
    ast.Expression, ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.Load,
    ast.UnaryOp, ast.USub, ast.UAdd, ast.BinOp, ast.Add, ast.Sub, ast.Call, ast.Name,
)


def _value(src):
    """The value a repr stands for, and whether it is a Python literal (what
    a person can type as an answer)."""
    try:
        return ast.literal_eval(src), True
    except Exception:  # noqa: BLE001 - not a literal; try the other reprs
        pass
    try:
        tree = ast.parse(src, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return _MISSING, False
    for node in ast.walk(tree):
        if not isinstance(node, _VALUE_NODES) or (isinstance(node, ast.Name) and node.id not in _VALUE_NAMES):
            return _MISSING, False
        if isinstance(node, ast.Call) and not isinstance(node.func, ast.Name):
            return _MISSING, False
    try:
        return eval(compile(tree, "<value>", "eval"), {"__builtins__": {}}, dict(_VALUE_NAMES)), False  # noqa: S307 - names and nodes checked above
    except Exception:  # noqa: BLE001
        return _MISSING, False


def _key(v, depth=0):
    """A hashable key such that values are == exactly when their keys are
    (for plain data: numbers hash alike when equal, 1 == 1.0 == True, and
    -0.0 == 0.0; a list never equals a tuple; a set equals a frozenset)."""
    if depth > 100:
        raise RecursionError
    t = type(v)
    if t is list:
        return ("list", tuple(_key(x, depth + 1) for x in v))
    if t is tuple:
        return ("tuple", tuple(_key(x, depth + 1) for x in v))
    if t is collections.deque:
        return ("deque", tuple(_key(x, depth + 1) for x in v))
    if t is dict:
        return ("dict", frozenset((k, _key(x, depth + 1)) for k, x in v.items()))
    if t in (set, frozenset):
        return ("set", frozenset(v))
    hash(v)
    return ("value", v)


def classes(arg):
    """Numbers the values of reprs so that equal numbers mean values that
    are == (see package inputs). A repr that does not stand for a value (a
    truncated one) is equal only to itself."""
    ids, out, literal = {}, [], []
    for src in arg.get("values") or []:
        v, lit = _value(src)
        key = ("repr", src)
        if v is not _MISSING:
            try:
                key = _key(v)
            except (TypeError, RecursionError):
                key = ("repr", src)
        if key not in ids:
            ids[key] = len(ids)
        out.append(ids[key])
        literal.append(lit and v is not _MISSING)
    return {"classes": out, "literal": literal}

