"""What a problem declares of its function's domain: the properties its
type hints and its docstring state for each parameter ("a positive integer
n", "arr: List[int]", "a non-empty list of strings", "of length at least
two", "contains only letters", "0 <= k <= len(arr)").

Run in the sandbox before inputs.py, as part of one source (see
inputs.go). declared(prompt, signature, entry) returns, for each parameter
position it knows something of, the set of features (features()) that
every valid value there has, and under RELATIONS the stated comparisons of
parameters, their lengths and integers. outside(dom, args, kwargs) names
what a call lacks, as traits "K:!P": such a call is outside the declared
domain, and a user asked about it would call it invalid. Only plain
statements are read, and only where they name the parameter or the
function has one parameter: a wrong rule costs good questions. Every
function takes any text and never raises.
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
    """The feature of the type noun that _NOUN matched."""
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
    if not out and re.fullmatch(r"arrays?|lists?|strings?|sequences?|tuples?|dict(?:ionary)?", name, re.I):
        # A parameter named by its type ("array", "string"): the noun
        # phrase that the name heads ("an array of non-negative integers").
        for m in re.finditer(r"(?:^|(?<=[\s,;:(]))(?:an?|the|given)\s+(?:(?:an?|the)\s+)?((?:[\w-]+,?\s+){0,3}?)%s\b" % re.escape(name), doc, re.I):
            f = _noun_phrase(doc[m.start(1):])
            if f is not None:
                out |= f
                break
    if "pos" in out and re.search(r"(?<![\w.])0\s*(?:<=?|≤)\s*%s(?![\w(])|(?<![\w.])%s\s*(?:>=|≥)\s*0(?![\w.])" % (re.escape(name), re.escape(name)), doc):
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
    doc = _docstring(prompt, entry)[:MAX_DOC]
    stated = {name: _stated(doc, name) for name in names}
    # "two positive integers n and m", "lists xs and ys": what a plural
    # noun phrase states of n, it states of m (not where the plural is an
    # "of" phrase: in "an array of integers arr and k", k is no array).
    for a in names:
        for b in names:
            if a == b or not stated[a] or stated[b]:
                continue
            m = re.search(r"(?<!\bof )\b([A-Za-z]+s)\s+%s\s*(?:,|and|, and)\s+%s(?![\w'`(-])" % (re.escape(a), re.escape(b)), doc)
            if m and _NOUN.fullmatch(m.group(1)):
                stated[b] = set(stated[a])
    # "takes three numbers": one phrase for all the parameters.
    m = re.search(r"\btakes (?:in )?(two|three|four|[234]) (%s)\b" % _NOUN.pattern, doc, re.I)
    if m and {"two": 2, "three": 3, "four": 4}.get(m.group(1).lower(), int(m.group(1)) if m.group(1).isdigit() else 0) == len(names):
        f = _noun_phrase(m.group(2)) or set()
        for name in names:
            if not stated[name]:
                stated[name] = set(f)
    out = {}
    for i, (name, hinted) in enumerate(zip(names, hints)):
        f = set(hinted) | stated[name]
        if len(names) == 1 and not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(name), doc):
            f |= _lone(doc)
        f = _consistent(f)
        if f:
            out[i] = f
    _lengths(doc, names, out)
    _characters(doc, out, names)
    rel = _relations(doc, names)
    if rel:
        out[RELATIONS] = rel
    return out


RELATIONS = "rel"  # the key of declared()'s stated comparisons
MAX_DOC = 20000  # the characters of a docstring read


def _only(out, kind):
    """The one parameter position whose declared type is kind ("seq" or
    "type=str"), or None if there is not exactly one."""
    ps = [i for i, f in out.items() if i != RELATIONS and kind in f]
    return ps[0] if len(ps) == 1 else None


_COUNT = {"one": 1, "two": 2, "three": 3, "1": 1, "2": 2, "3": 3}


def _lengths(doc, names, out):
    """A stated least length: "(of length at least two)", "of at least two
    elements", "NAME has at least one ...": of the named parameter, else
    of the one sequence parameter."""
    for m in re.finditer(r"\b(?:(?:of|with) (?:a )?length (?:of )?at least|of at least|(\w+)(?: list)? has at least)"
                         r" (one|two|three|[123])\b( (?:elements?|items?|numbers?|integers?|strings?|words?|operators?|operands?))?",
                         doc, re.I):
        n = _COUNT[m.group(2).lower()]
        named = m.group(1)
        if named and named.lower() in [x.lower() for x in names]:
            i = [x.lower() for x in names].index(named.lower())
        elif named or (not m.group(3) and "length" not in m.group(0).lower()):
            continue
        else:
            i = _only(out, "seq")
        if i is None or i not in out or "seq" not in out[i]:
            continue
        out[i].add("nonempty" if n == 1 else "len>=%d" % n)


# Statements that a string holds only some characters, most specific first.
_CHARS = [
    # (Words are separated by spaces: "a sentence of only letters" has them.)
    (r"only (?:english |lower ?case |upper ?case )?letters(?: and spaces)?|letters(?: and spaces)? only", "letters+space"),
    (r"only digits|digits only|only of digits", "digits"),
]


_QUOTED = r"(?:\"[^\"\n]{1,2}\"|'[^'\n]{1,2}')"
_CHARSET = re.compile(r"\bstring (?:consisting )?(?:only )?of (%s(?:\s*(?:,|and|or|, and|, or)\s*%s)+)" % (_QUOTED, _QUOTED))


def _characters(doc, out, names):
    """A stated character class ("contains only letters", "consists of only
    digits", 'a string of "(" and ")"') of the one string parameter (or the
    one parameter), or of the elements of the one list of strings."""
    feat = None
    m = _CHARSET.search(doc)
    if m:
        feat = "chars:" + "".join(sorted({c for q in re.findall(_QUOTED, m.group(1)) for c in q[1:-1]}))
    else:
        for pat, f in _CHARS:
            if re.search(r"\b(?:%s)\b" % pat, doc, re.I):
                feat = f
                break
    if feat is None:
        return
    i = _only(out, "type=str")
    if i is None and len(names) == 1 and not out.get(0):
        out[0] = set()
        i = 0
    if i is not None:
        out[i].add(feat)
        return
    i = _only(out, "seq")
    if i is not None and "[]type=str" in out[i]:
        out[i].add("[]" + feat)


_OPERAND = r"(?:-?\d+(?:\^\d+|\*\*\d+)?|len\(\s*[A-Za-z_]\w*\s*\)|[A-Za-z_]\w*(?:\.length)?)"
_CMP = r"(?:<=|>=|<|>|≤|≥)"
_CHAIN = re.compile(r"(?<![\w.(\[])(%s(?:\s*%s\s*%s)+)(?![\w(\[])" % (_OPERAND, _CMP, _OPERAND))


def _operand(text, names):
    """An operand of a stated comparison: ("c", int), ("v", position) or
    ("len", position); None for anything else (another name, an index)."""
    text = text.strip()
    m = re.fullmatch(r"(-?\d+)(?:(?:\^|\*\*)(\d+))?", text)
    if m:
        v = int(m.group(1))
        return ("c", v ** int(m.group(2)) if m.group(2) and int(m.group(2)) <= 18 else v)
    m = re.fullmatch(r"len\(\s*(\w+)\s*\)|(\w+)\.length", text)
    if m:
        name = m.group(1) or m.group(2)
        return ("len", names.index(name)) if name in names else None
    return ("v", names.index(text)) if text in names else None


def _relations(doc, names):
    """The comparisons the docstring states of the parameters: a range
    ("1 <= n <= 10^3", "0 <= k <= len(arr)") anywhere, a single comparison
    only where it stands as a constraint (on a line of its own, perhaps
    numbered or bulleted, or after "assume"/"where"/"such that"), as
    (left, operator, right) with operands of _operand; comparisons of
    anything but the parameters, their lengths and integers are left out."""
    out = []
    for line in doc.splitlines():
        if len(line) <= MAX_LINE:  # (a constraint is short; a long line is prose)
            out += _line_relations(line, names)
    return out


MAX_LINE = 240  # the longest docstring line read for comparisons


def _line_relations(line, names):
    """The comparisons stated on one line of the docstring (_relations)."""
    out = []
    for m in _CHAIN.finditer(line):
        parts = re.split(r"\s*(%s)\s*" % _CMP, m.group(1))
        operands, ops = parts[0::2], parts[1::2]
        before = line[: m.start()]
        alone = re.fullmatch(r"\s*(?:[-*•]|\d+[.)])?\s*", before) and re.fullmatch(r"[\s.,;]*", line[m.end():])
        stated = re.search(r"\b(?:assume[sd]?|where|such that|guaranteed)\b[^.]*$", before, re.I)
        if len(ops) < 2 and not (alone or stated):
            continue
        for a, op, b in zip(operands, ops, operands[1:]):
            x, y = _operand(a, names), _operand(b, names)
            if x is None or y is None or (x[0] == "c" and y[0] == "c"):
                continue
            op = {"≤": "<=", "≥": ">="}.get(op, op)
            out.append((x, op, y))
    return out


def _broken(rel, args):
    """The positions of the parameters in the stated comparisons that args
    break (a comparison that cannot be evaluated on them is not judged)."""
    bad = set()
    for x, op, y in rel:
        vals = []
        for kind, v in (x, y):
            if kind == "c":
                vals.append(v)
            elif v >= len(args):
                break
            elif kind == "len":
                try:
                    vals.append(len(args[v]))
                except TypeError:
                    break
            elif type(args[v]) in (int, float):
                vals.append(args[v])
            else:
                break
        if len(vals) != 2:
            continue
        a, b = vals
        ok = a <= b if op == "<=" else a >= b if op == ">=" else a < b if op == "<" else a > b
        if not ok:
            bad.add(next(v for kind, v in (x, y) if kind != "c"))
    return sorted(bad)


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
    """The properties of value v that declared rules name: its type ("num"
    for an int or float, "seq" for a list or tuple; a bool is an int, as in
    Python and evalplus's inputs), sign, emptiness, least length, character
    class, and "[]"+x where every element has x. (inputs.py's _features
    describes values for another purpose, what seeds share.)"""
    t = type(v)
    out = {"type=" + t.__name__}
    if t is bool:
        out.add("type=int")
    if t in (int, float, bool):
        out.add("num")
        if v >= 0:
            out.add("nonneg")
        if v > 0:
            out.add("pos")
    elif t is str:
        if v:
            out.add("nonempty")
        if len(v) >= 2:
            out.add("len>=2")
        if len(v) >= 3:
            out.add("len>=3")
        if all(c.isalpha() or c == " " for c in v):
            out.add("letters+space")
        if all(c.isdigit() for c in v):
            out.add("digits")
    elif t in (list, tuple) and depth < 3:
        out.add("seq")
        if len(v) >= 2:
            out.add("len>=2")
        if len(v) >= 3:
            out.add("len>=3")
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


def _judged_elsewhere(x, v):
    """Whether feature x is not judged on value v by its features: a
    character class of a value that is not a string (its type is judged),
    or a stated set of characters, which v's own characters decide."""
    if x.startswith("chars:"):
        return type(v) is not str or set(v) <= set(x[len("chars:"):])
    if x.startswith("[]chars:"):
        return type(v) not in (list, tuple) or all(type(e) is not str or set(e) <= set(x[len("[]chars:"):]) for e in v)
    if x in ("letters+space", "digits"):
        return type(v) is not str
    return False


def outside(dom, args, kwargs):
    """The declared features that a call's positional arguments lack, as
    "K:!F" traits (empty if it is inside the declared domain); keyword
    arguments are not judged."""
    out = ["%d:!range" % i for i in _broken(dom.get(RELATIONS) or (), args)]
    for i, v in enumerate(args):
        want = dom.get(i)
        if not want:
            continue
        have = features(v)
        missing = [x for x in sorted(want) if x not in have and not (x.startswith("[]") and "[]*" in have)
                   and not _judged_elsewhere(x, v)]
        if any(not x.startswith("[]") and (x.startswith("type=") or x in ("num", "seq")) for x in missing):
            # Of a value of another type, what its elements lack says nothing more.
            missing = [x for x in missing if not x.startswith("[]")]
        out += ["%d:!%s" % (i, x) for x in missing]
    return out
