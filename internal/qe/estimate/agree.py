"""Validates docstring examples and harvests more inputs from them.

Run by ticoder's agree estimator through the execution engine's Call (in the
sandbox). prepare(arg) takes {"entry", "examples": [{"call", "expected"}],
"max_inputs", "seed"} and returns {"examples": [...], "inputs": [...]}:

- an example is kept when its call is entry(...) with literal arguments and
  its expected value (after light clean-up of prose such as a trailing
  full stop, a comment, "= 8" at the end, lower-case true/false) is a
  literal; both are rewritten canonically with repr;
- inputs are new calls made by mutating one argument of a kept example
  with the type-aware mutators of ticoder's input generator (mutate.py of
  package inputs, which ticoder prepends to this file with inputs.py:
  _mutate_call, _literal_call, _render, _round_trips and _MISSING come
  from there),
  deduplicated, shuffled with a fixed seed and cut to max_inputs. Their
  expected values are unknown: the estimator compares the candidates'
  behaviour on them.
"""

import ast
import random
import zlib

# In the sandbox ticoder runs this file after mutate.py and inputs.py, as one
# source whose __name__ is "ticoder_tool". Imported on its own (its unit
# tests, the lint in .ci/run) it takes those names from mutate.py.
if __name__ != "ticoder_tool":
    from mutate import _MISSING, _literal_call, _mutate_call, _render, _round_trips


def _literal(src):
    try:
        v = ast.literal_eval(src)
    except Exception:  # noqa: BLE001 - any failure means "not a literal"
        return _MISSING
    return v


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
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    return _literal_call(node, entry)


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
        rng = random.Random(int(arg.get("seed", 0)) ^ zlib.crc32(_render(entry, args, kwargs).encode()))
        for w, kw in _mutate_call(args, kwargs, rng):
            if not all(_round_trips(a) for a in w) or not all(_round_trips(v) for _, v in kw):
                continue
            call = _render(entry, w, kw)
            if call not in seen and len(call) <= 4000:
                seen.add(call)
                inputs.append(call)
    rng = random.Random(int(arg.get("seed", 0)))
    rng.shuffle(inputs)
    return {"examples": examples, "inputs": inputs[:max_inputs]}
