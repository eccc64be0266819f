"""What a problem declares of its function's domain: the properties its
type hints and its docstring state for each parameter ("a positive integer
n", "arr: List[int]", "a non-empty list of strings").

Run in the sandbox before inputs.py, as part of one source (see
inputs.go). declared(prompt, signature, entry) returns, for each parameter
position it knows something of, the set of _features (inputs.py) that every
valid value there has; a call whose argument lacks one of them is outside
the declared domain: a user asked about it would call it invalid. Only
plain statements are read, and only where they name the parameter or the
function has one parameter: a wrong rule costs good questions.
"""

import ast
import re

# Nouns that name a type, and the feature a value of it has. "number" and
# "float" admit ints as well ("num"); "array" and "list" admit tuples
# ("seq"): problems written in prose are not that strict, nor are users.
_NOUNS = [
    (r"integers?|ints?|whole numbers?", "type=int"),
    (r"(?:floating[- ]point |real |decimal )?numbers?(?!\s+of\b)|floats?|floating[- ]point values?", "num"),
    (r"strings?", "type=str"),
    (r"lists?|arrays?|vectors?|sequences?", "seq"),
    (r"dictionar(?:y|ies)|dicts?", "type=dict"),
    (r"tuples?", "type=tuple"),
    (r"booleans?|bools?", "type=bool"),
]
_NOUN = re.compile(r"\b(?:%s)\b" % "|".join("(%s)" % n for n, _ in _NOUNS), re.I)
_NEG = r"(?<![\w-])(?:non[- ]?negative|not negative)"
_POS = r"(?<![\w-])(?<!non-)(?<!non )positive"
_NONEMPTY = r"(?<![\w-])(?:non[- ]?empty|not empty)"
# Words that may stand between a determiner and its noun: modifiers this
# reader knows, and a few it passes over ("given a list of integers").
_MODS = re.compile(r"^(?:(?:non[- ]?negative|not negative|positive|non[- ]?empty|not empty|"
                   r"sorted|unsorted|distinct|two|given|lowercase|uppercase|signed|valid|odd|even),?\s+)*$", re.I)


def _feature(m):
    for i, (_, f) in enumerate(_NOUNS):
        if m.group(i + 1):
            return f
    return None


def _noun_phrase(text, whole=False):
    """The properties stated by the noun phrase that text begins with:
    modifiers, a type noun, and "of" its elements' modifiers and noun
    ("non-empty list of positive integers"). None if it names no type, or
    (whole) if the phrase is not all of text but trailing spaces."""
    text = text[:200]  # a noun phrase is short; the rest is not read
    m = _NOUN.search(text)
    if m is None or not _MODS.match(text[: m.start()]):
        return None
    out = _modifiers(text[: m.start()])
    f = _feature(m)
    rest = text[m.end():]
    compound = re.match(r"\s+(?:lists?|arrays?)\b", rest)
    if compound:  # "a string list": a list of strings
        out |= {"seq", "[]" + f}
        rest = rest[compound.end():]
        if whole and rest.strip():
            return None
        return out
    out.add(f)
    if f == "seq":
        o = re.match(r"\s+of\s+", rest)
        if o:
            inner = _noun_phrase(rest[o.end():], whole)
            if inner is None and whole:
                return None
            if inner:
                out |= {"[]" + x for x in inner if not x.startswith("[]")}
            return out
    if whole and rest.strip():
        return None
    return out


def _modifiers(words):
    out = set()
    if re.search(_NEG, words, re.I):
        out.add("nonneg")
    elif re.search(_POS, words, re.I):
        out.add("pos")
    if re.search(_NONEMPTY, words, re.I):
        out.add("nonempty")
    return out


def _docstring(prompt, entry):
    """The docstring of entry in prompt (the prompt may end before the
    function's body, so the text after its def line is read when parsing
    fails)."""
    try:
        tree = ast.parse(prompt + ("\n    pass\n" if not prompt.rstrip().endswith(("pass", '"""', "'''")) else "\n"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == entry:
                return ast.get_docstring(node) or ""
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        pass
    m = re.search(r"def\s+%s\s*\(" % re.escape(entry), prompt)
    return prompt[m.end():] if m else prompt


def _hinted(node):
    """The features every value of type hint node has, or an empty set."""
    if node is None:
        return set()
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return set()
    outer = node.value if isinstance(node, ast.Subscript) else node
    name = outer.id if isinstance(outer, ast.Name) else outer.attr if isinstance(outer, ast.Attribute) else ""
    name = name.lower()
    simple = {"int": "type=int", "float": "num", "str": "type=str", "bool": "type=bool",
              "list": "seq", "sequence": "seq", "tuple": "type=tuple", "dict": "type=dict"}
    if name not in simple:
        return set()
    out = {simple[name]}
    if name in ("list", "sequence") and isinstance(node, ast.Subscript):
        inner = _hinted(node.slice)
        out |= {"[]" + x for x in inner if not x.startswith("[]")}
    return out


def _signature(signature, entry):
    """entry's parameters in signature: (names, their hints' features)."""
    try:
        tree = ast.parse(signature.strip() + ("\n    pass\n" if signature.rstrip().endswith(":") else ""))
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == entry:
            ps = [a for a in node.args.posonlyargs + node.args.args if a.arg not in ("self", "cls")]
            return [p.arg for p in ps], [_hinted(p.annotation) for p in ps]
    return None


def _stated(doc, name):
    """The properties the docstring states for parameter name: the noun
    phrase right before it ("a positive integer n", "a list of integers
    nums") or, after a bare noun, its "of" phrase ("an array arr of
    integers"). A stated range that admits 0 ("0 <= k") overrides
    "positive"."""
    out = set()
    # The name in apposition: after it comes punctuation, the end, or a
    # word that goes on the sentence ("a positive integer n, return", "an
    # array arr of integers"), not a noun it qualifies ("the array k times").
    after = r"(?=\s*(?:[,.;:)]|$|\b(?:and|or|of|is|are|as|in|to|with|from|return|returns|where|which|that|such)\b))"
    for m in re.finditer(r"(?<![\w'`.-])%s(?![\w'`(-])%s" % (re.escape(name), after), doc, re.M):
        before = doc[max(0, m.start() - 80): m.start()]
        # The longest noun phrase that ends right before the name, from a
        # determiner.
        for dm in re.finditer(r"(?:^|(?<=[\s,;:(]))(?:an?|the|given|of|two)\s+", before, re.I):
            f = _noun_phrase(before[dm.end():], whole=True)
            if f is None:
                continue
            out |= f
            if "seq" in f and not any(x.startswith("[]") for x in f):
                o = re.match(r"\s+of\s+", doc[m.end():])
                if o:
                    inner = _noun_phrase(doc[m.end() + o.end():])
                    if inner:
                        out |= {"[]" + x for x in inner if not x.startswith("[]")}
            break
    if "pos" in out and re.search(r"(?<![\w.])0\s*<=?\s*%s(?![\w(])|(?<![\w.])%s\s*>=\s*0(?![\w.])" % (re.escape(name), re.escape(name)), doc):
        out = (out - {"pos"}) | {"nonneg"}
    return out


def _lone(doc):
    """For a function of one parameter not named in its docstring: what the
    first sentence that introduces the input says of it ("Given a list of
    integers, ...", "Input to this function is a string ...")."""
    m = re.search(r"\b(?:given|takes|input(?: to this function)? is|receives?|you are given|you're given)\s+(?:an?\s+)?(.{0,120})", doc, re.I | re.S)
    if m is None:
        return set()
    return _noun_phrase(m.group(1)) or set()


def declared(prompt, signature, entry):
    """For each parameter position, the features its type hint and the
    docstring say every valid value has (only positions with some)."""
    sig = _signature(signature or prompt, entry)
    if sig is None:
        return {}
    names, hints = sig
    doc = _docstring(prompt, entry)
    stated = {name: _stated(doc, name) for name in names}
    # "two positive integers n and m": what the phrase states of n, it
    # states of m.
    for a in names:
        for b in names:
            if a != b and stated[a] and not stated[b] and re.search(
                    r"(?<![\w'`.-])%s\s*(?:,|and|,\s*and)\s+%s(?![\w'`(-])" % (re.escape(a), re.escape(b)), doc):
                stated[b] = set(stated[a])
    out = {}
    for i, (name, hinted) in enumerate(zip(names, hints)):
        f = set(hinted) | stated[name]
        if len(names) == 1 and not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(name), doc):
            f |= _lone(doc)
        f = _consistent(f)
        if f:
            out[i] = f
    return out


def _consistent(f):
    """f, or nothing where a type hint and the docstring disagree on a
    type: then neither is trusted."""
    for prefix in ("", "[]"):
        kinds = {x[len(prefix):] for x in f if x.startswith(prefix) and not x[len(prefix):].startswith("[]")}
        kinds &= {"num", "seq"} | {x for x in kinds if x.startswith("type=")}
        if kinds == {"num", "type=int"}:
            f = f - {prefix + "num"}
        elif len(kinds) > 1:
            return set()
    return f


def features(v, depth=0):
    """The declared-domain features of value v (see _NOUNS), besides those
    of inputs.py's _features that declared rules use: "num" for an int or
    float, "seq" for a list or tuple, and "[]"+x where every element has x."""
    t = type(v)
    out = {"type=" + t.__name__}
    if t is bool:  # an int in Python, and to evalplus's inputs
        out |= {"type=int", "num"}
    if t in (int, float, bool):
        out.add("num")
        if v >= 0:
            out.add("nonneg")
        if v > 0:
            out.add("pos")
    elif t is str:
        if v:
            out.add("nonempty")
    elif t in (list, tuple) and depth < 3:
        out.add("seq")
        if v:
            out.add("nonempty")
            common = None
            for x in v:
                f = features(x, depth + 1)
                common = f if common is None else common & f
            out |= {"[]" + x for x in common if not x.startswith("[]")}
        else:
            # An empty sequence's elements have every property.
            out |= {"[]*"}
    elif t is dict and v:
        out.add("nonempty")
    return out


def outside(dom, args, kwargs):
    """The declared features that a call's positional arguments lack, as
    "K:!F" traits (empty if it is inside the declared domain); keyword
    arguments are not judged."""
    out = []
    for i, v in enumerate(args):
        want = dom.get(i)
        if not want:
            continue
        have = features(v)
        missing = [x for x in sorted(want) if x not in have and not (x.startswith("[]") and "[]*" in have)]
        if any(not x.startswith("[]") and (x.startswith("type=") or x in ("num", "seq")) for x in missing):
            # Of a value of another type, what its elements lack says nothing more.
            missing = [x for x in missing if not x.startswith("[]")]
        out += ["%d:!%s" % (i, x) for x in missing]
    return out
