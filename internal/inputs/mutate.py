"""Literal calls of a problem's entry point and their type-aware
mutations: the building blocks of the input pool (inputs.py) and of the
agree estimator's harvested inputs (agree.py of package qe/estimate).

Run by ticoder in the sandbox, through the execution engine's Call, as the
first part of one source: package inputs sends this file, then inputs.py
(see inputs.Python); the agree estimator appends agree.py. Imported on its
own (the unit tests, the lint in .ci/run), the files after it import these
names from it.

A call is kept only if every argument's repr evaluates back to an equal
value (_round_trips), and rendered canonically, entry(repr(arg), ...,
name=repr(v)) (_render). The mutations are EvalPlus's: ints +1, -1, 0,
negated; floats +1, negated, halved, 0.0; strings with a character
inserted, deleted, replaced or two swapped, emptied, case swapped (whole
or one letter), and (not EvalPlus's) a number written inside a string
mutated as an int, or two swapped; lists and tuples with an element
added, removed, duplicated or two swapped, emptied, one element mutated
recursively; dicts and sets likewise; bools flipped (_mutate_call: one
argument at a time, round-robin).
"""

import ast

_MISSING = object()


def _round_trips(v):
    try:
        return ast.literal_eval(repr(v)) == v and repr(ast.literal_eval(repr(v))) == repr(v)
    except Exception:  # noqa: BLE001 - anything that does not evaluate back
        return False


def _render(entry, args, kwargs):
    parts = [repr(a) for a in args] + ["%s=%r" % (k, v) for k, v in kwargs]
    return "%s(%s)" % (entry, ", ".join(parts))


def _literal_call(node, entry):
    """(args, kwargs) of a call of entry whose arguments are all literals."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == entry):
        return None
    try:
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = [(k.arg, ast.literal_eval(k.value)) for k in node.keywords]
    except Exception:  # noqa: BLE001 - not a literal
        return None
    if any(k is None for k, _ in kwargs):
        return None
    if not all(_round_trips(a) for a in args) or not all(_round_trips(v) for _, v in kwargs):
        return None
    return args, kwargs


def _calls_in_tree(tree, entry):
    out = []
    for node in ast.walk(tree):
        c = _literal_call(node, entry)
        if c is not None:
            out.append(c)
    return out


def _calls_in_text(text, entry, limit=2000):
    """Literal calls of entry anywhere in a text (docstrings, prose): each
    `entry(` is closed at the first `)` that makes a whole expression."""
    out = []
    start = 0
    while True:
        i = text.find(entry + "(", start)
        if i < 0:
            return out
        start = i + 1
        if i > 0 and (text[i - 1].isalnum() or text[i - 1] in "_."):
            continue
        j = i + len(entry)
        while True:
            j = text.find(")", j + 1)
            if j < 0 or j - i > limit:
                break
            try:
                node = ast.parse(text[i:j + 1], mode="eval").body
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                continue
            c = _literal_call(node, entry)
            if c is not None:
                out.append(c)
                start = j + 1
            break


# ------------------------------------------------------------------ mutation


def _mutants(v, rng, depth=0):
    """Type-aware mutations of one value, nearest first."""
    if depth > 3:
        return []
    t = type(v)
    if t is bool:
        return [not v]
    if t is int:
        return [v + 1, v - 1, 0, -v, 1]
    if t is float:
        return [v + 1.0, -v, v / 2, 0.0]
    if t is str:
        return _str_mutants(v, rng)
    if t in (list, tuple):
        return [t(x) for x in _seq_mutants(list(v), rng, depth)]
    if t in (set, frozenset):
        items = sorted(v, key=repr)
        out = [t(x) for x in _seq_mutants(items, rng, depth) if len(set(x)) == len(x)]
        return out
    if t is dict:
        return _dict_mutants(v, rng, depth)
    return []


def _str_mutants(s, rng):
    out = []
    alphabet = sorted(set(s)) or ["a"]
    if s:
        i = rng.randrange(len(s) + 1)
        out.append(s[:i] + rng.choice(alphabet) + s[i:])  # insert
        i = rng.randrange(len(s))
        out.append(s[:i] + s[i + 1:])  # delete
        i = rng.randrange(len(s))
        other = [c for c in alphabet + ["a", " "] if c != s[i]]
        out.append(s[:i] + rng.choice(other) + s[i + 1:])  # replace
        if len(s) > 1:
            i = rng.randrange(len(s) - 1)
            out.append(s[:i] + s[i + 1] + s[i] + s[i + 2:])  # swap
        n = _number_mutant(s, rng)
        if n is not None:
            out.insert(3, n)  # a number inside the string, mutated as an int
            n = _numbers_swapped(s)
            if n is not None:
                out.insert(4, n)  # two numbers inside it swapped
        out.append(s.swapcase())
        out.append("")
        letters = [k for k, c in enumerate(s) if c.swapcase() != c]
        if len(letters) > 1:
            k = letters[len(letters) // 2]
            out.append(s[:k] + s[k].swapcase() + s[k + 1:])  # one letter's case swapped
    else:
        out += ["a", " ", "ab"]
    return out


def _digit_runs(s):
    """The (start, end) of each run of ASCII digits in s that reads as a
    number (at most 18 digits: a longer run is a digit string, and int()
    refuses runs beyond 4,300 digits)."""
    runs, i = [], 0
    while i < len(s):
        if "0" <= s[i] <= "9":
            j = i
            while j < len(s) and "0" <= s[j] <= "9":
                j += 1
            if j - i <= 18:
                runs.append((i, j))
            i = j
        else:
            i += 1
    return runs


def _numbers_swapped(s):
    """s with its first two different numbers swapped ("1/3" -> "3/1"), as
    a list's elements are swapped; None where it has no two."""
    runs = _digit_runs(s)
    for k in range(1, len(runs)):
        (i, j), (a, b) = runs[0], runs[k]
        if s[i:j] != s[a:b]:
            return s[:i] + s[a:b] + s[j:a] + s[i:j] + s[b:]
    return None


def _number_mutant(s, rng):
    """s with one of its runs of ASCII digits replaced by another
    non-negative number (+1, -1, doubled or 1, as an int is mutated), its
    width kept where it has leading zeros: "1/4" -> "2/4", "03-11-2000" ->
    "03-12-2000". The string's format stays; its numbers change, as they
    would in another valid input. None where s has no digits."""
    runs = _digit_runs(s)
    if not runs:
        return None
    i, j = runs[rng.randrange(len(runs))]
    v = int(s[i:j])
    choices = [x for x in (v + 1, v - 1, 2 * v, 1) if x >= 0 and x != v]
    x = str(rng.choice(choices))
    if s[i] == "0" and j - i > 1:
        x = x.zfill(j - i)
    return s[:i] + x + s[j:]


def _seq_mutants(xs, rng, depth):
    out = []
    n = len(xs)
    if n:
        i = rng.randrange(n)
        out.append(xs[:i] + xs[i + 1:])  # remove
        i = rng.randrange(n)
        out.append(xs[:i + 1] + [xs[i]] + xs[i + 1:])  # duplicate
        if n > 1:
            i, j = sorted(rng.sample(range(n), 2))
            w = list(xs)
            w[i], w[j] = w[j], w[i]
            out.append(w)  # swap
        i = rng.randrange(n)
        ms = _mutants(xs[i], rng, depth + 1)
        for m in rng.sample(ms, min(2, len(ms))):
            w = list(xs)
            w[i] = m
            out.append(w)  # mutate an element
        ms = _mutants(xs[rng.randrange(n)], rng, depth + 1)
        if ms:
            out.append(xs + [rng.choice(ms)])  # add
        out.append([])  # empty
    return out


def _dict_mutants(d, rng, depth):
    out = []
    items = list(d.items())
    if items:
        i = rng.randrange(len(items))
        out.append(dict(items[:i] + items[i + 1:]))  # remove
        k, v = items[rng.randrange(len(items))]
        ms = _mutants(v, rng, depth + 1)
        for m in rng.sample(ms, min(2, len(ms))):
            w = dict(d)
            w[k] = m
            out.append(w)  # mutate a value
        for m in _mutants(k, rng, depth + 1):
            try:
                hash(m)
            except TypeError:
                continue
            if m not in d:
                w = dict(d)
                w[m] = v
                out.append(w)  # add
                break
        out.append({})
    return out


def _mutate_call(args, kwargs, rng):
    """Calls with one argument mutated, round-robin over the arguments."""
    per_arg = []
    for i, a in enumerate(args):
        per_arg.append([(list(args[:i]) + [m] + list(args[i + 1:]), kwargs) for m in _mutants(a, rng)])
    for i, (k, v) in enumerate(kwargs):
        per_arg.append([(args, kwargs[:i] + [(k, m)] + kwargs[i + 1:]) for m in _mutants(v, rng)])
    out = []
    for r in range(max((len(p) for p in per_arg), default=0)):
        for p in per_arg:
            if r < len(p):
                out.append(p[r])
    return out
