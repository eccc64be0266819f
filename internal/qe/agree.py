"""Validates docstring examples and harvests more inputs from them.

Run by ticoder's agree estimator through the execution engine's Call (in the
sandbox). prepare(arg) takes {"entry", "examples": [{"call", "expected"}],
"max_inputs", "seed"} and returns {"examples": [...], "inputs": [...]}:

- an example is kept when its call is entry(...) with literal arguments and
  its expected value (after light clean-up of prose such as a trailing
  full stop, a comment, "= 8" at the end, lower-case true/false) is a
  literal; both are rewritten canonically with repr;
- inputs are new calls made by mutating one argument of a kept example
  (numbers +-1, 0, negated, doubled; strings reversed, emptied, upper-cased,
  halved; sequences reversed, sorted, shortened, emptied, extended; a dict
  emptied or shortened; booleans flipped), deduplicated, shuffled with a
  fixed seed and cut to max_inputs. Their expected values are unknown: the
  estimator compares the candidates' behaviour on them.
"""

import ast
import random

_MISSING = object()
_MAX_LEN = 200


def _literal(src):
    try:
        v = ast.literal_eval(src)
    except Exception:  # noqa: BLE001 - any failure means "not a literal"
        return _MISSING
    return v


def _round_trips(v):
    """True if repr(v) evaluates back to v (no inf, nan, sets of sets ...)."""
    try:
        return ast.literal_eval(repr(v)) == v
    except Exception:  # noqa: BLE001
        return False


def _expected(src):
    src = src.strip()
    tries = [src]
    if " #" in src:
        tries.append(src.split(" #", 1)[0])
    if "=" in src:
        tries.append(src.rsplit("=", 1)[1])
    tries += [t.rstrip(".,;: ") for t in list(tries)]
    words = {"true": "True", "false": "False", "none": "None"}
    tries += [words.get(t.strip().lower(), t) for t in list(tries)]
    for t in tries:
        v = _literal(t.strip())
        if v is not _MISSING and _round_trips(v):
            return v
    # The longest literal prefix ending before a space: "'No' (because ...)".
    for i in range(len(src) - 1, 0, -1):
        if src[i] == " ":
            v = _literal(src[:i].strip().rstrip(".,;"))
            if v is not _MISSING and _round_trips(v):
                return v
    return _MISSING


def _call_args(src, entry):
    try:
        node = ast.parse(src.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == entry):
        return None
    try:
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = [(k.arg, ast.literal_eval(k.value)) for k in node.keywords if k.arg]
    except Exception:  # noqa: BLE001
        return None
    if len(kwargs) != len(node.keywords):
        return None
    if not all(_round_trips(a) for a in args) or not all(_round_trips(v) for _, v in kwargs):
        return None
    return args, kwargs


def _render(entry, args, kwargs):
    parts = [repr(a) for a in args] + ["%s=%r" % (k, v) for k, v in kwargs]
    return "%s(%s)" % (entry, ", ".join(parts))


def _mutants(v):
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        out = [v + 1, v - 1, 0, -v, 2 * v]
        return [x for x in out if abs(x) <= 10**6]
    if isinstance(v, float):
        return [v * 2, -v, 0.0, v + 0.5]
    if isinstance(v, str):
        return [v[::-1], "", v.upper(), v[: len(v) // 2], v + v[:1]]
    if isinstance(v, (list, tuple)):
        t = type(v)
        out = [t(reversed(v)), t(), t(v[:-1]), t(list(v) + list(v[:1]))]
        try:
            out.append(t(sorted(v)))
        except TypeError:
            pass
        for i, x in enumerate(v[:3]):
            for m in _mutants(x)[:2]:
                w = list(v)
                w[i] = m
                out.append(t(w))
        return [x for x in out if len(x) <= _MAX_LEN]
    if isinstance(v, dict):
        out = [{}]
        if v:
            out.append(dict(list(v.items())[:-1]))
        return out
    return []


def prepare(arg):
    entry = arg["entry"]
    max_inputs = int(arg.get("max_inputs", 8))
    examples, seen, bases = [], set(), []
    for ex in arg.get("examples") or []:
        parsed = _call_args(ex.get("call", ""), entry)
        if parsed is None:
            continue
        exp = _expected(ex.get("expected", ""))
        if exp is _MISSING:
            continue
        call = _render(entry, *parsed)
        if call in seen:
            continue
        seen.add(call)
        examples.append({"call": call, "expected": repr(exp)})
        bases.append(parsed)
    inputs = []
    for args, kwargs in bases:
        for i, a in enumerate(args):
            for m in _mutants(a):
                w = list(args)
                w[i] = m
                if not _round_trips(m):
                    continue
                call = _render(entry, w, kwargs)
                if call not in seen and len(call) <= 4000:
                    seen.add(call)
                    inputs.append(call)
    rng = random.Random(int(arg.get("seed", 0)))
    rng.shuffle(inputs)
    return {"examples": examples, "inputs": inputs[:max_inputs]}
