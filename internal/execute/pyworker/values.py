"""Plain values: what crosses between processes, and how it is shown.

Shared by every process; holds no request data. A value crosses between
processes only as plain data, encoded as JSON: None, bools, ints, floats
and str as themselves; everything else as a one-key object. Subclasses of
builtin types (namedtuple, Counter, OrderedDict, an IntEnum) are encoded
as their base type's data, read with the base type's own methods, so no
method of the program runs. The worker compares decoded values with
Python's == itself (judge.judge_value, suiterun); decode raises Garbled
for anything malformed, and what is shown of a value, an exception name or
an error text is clipped (MAX_VALUE, MAX_NAME, MAX_TEXT).
"""

import collections
import decimal
import fractions

from .baseline import BUILTINS
from .wire import Garbled

MAX_VALUE = 1000  # characters of a returned value's repr that are kept
MAX_NAME = 200  # characters of an exception or type name that are kept
MAX_TEXT = 4000  # characters of an error message that are kept
MAX_DEPTH = 100  # nesting of an encoded value
MAX_ITEMS = 1 << 20  # elements of an encoded value


class NotPlain(Exception):
    """A value that is not built of plain data."""


def clip(s, n):
    if not isinstance(s, str):
        s = str(type(s).__name__)
    return s if len(s) <= n else s[:n] + "…"


def encode(v, depth=0, budget=None):
    if budget is None:
        budget = [MAX_ITEMS]
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_DEPTH:
        raise NotPlain("too large")
    t = type(v)
    if v is None or t is bool or t is str:
        return v
    if t is float:
        return v if v - v == 0.0 else {"F": repr(v)}  # (not NaN or infinite: JSON has neither)
    if t is int:
        if -(1 << 1000) < v < (1 << 1000):
            return v
        return {"I": hex(v)}
    if t is list:
        return {"l": [encode(x, depth + 1, budget) for x in v]}
    if t is tuple:
        return {"t": [encode(x, depth + 1, budget) for x in v]}
    if t is dict:
        return {"d": [[encode(k, depth + 1, budget), encode(x, depth + 1, budget)] for k, x in v.items()]}
    if t is set:
        return {"s": [encode(x, depth + 1, budget) for x in v]}
    if t is frozenset:
        return {"f": [encode(x, depth + 1, budget) for x in v]}
    if t is bytes:
        return {"b": v.decode("latin-1")}
    if t is complex:
        return {"c": [v.real, v.imag]}
    if t is range:
        return {"r": [v.start, v.stop, v.step]}
    if t is fractions.Fraction:
        return {"q": [encode(v.numerator), encode(v.denominator)]}
    if t is decimal.Decimal:
        return {"D": str(v)}
    if t is collections.deque:
        return {"Q": [encode(x, depth + 1, budget) for x in v]}
    # Subclasses of builtins: their data, read through the base type.
    if isinstance(v, bool):
        return bool(int.__index__(v))
    if isinstance(v, int):
        return encode(int.__index__(v), depth, budget)
    if isinstance(v, float):
        return encode(float.__float__(v))
    if isinstance(v, str):
        return str.__str__(v)
    if isinstance(v, bytes):
        return {"b": bytes.__getitem__(v, slice(None)).decode("latin-1")}
    if isinstance(v, tuple):
        return {"t": [encode(x, depth + 1, budget) for x in tuple.__iter__(v)]}
    if isinstance(v, list):
        return {"l": [encode(x, depth + 1, budget) for x in list.__iter__(v)]}
    if isinstance(v, dict):
        return {"d": [[encode(k, depth + 1, budget), encode(x, depth + 1, budget)] for k, x in dict.items(v)]}
    if isinstance(v, frozenset):
        return {"f": [encode(x, depth + 1, budget) for x in frozenset.__iter__(v)]}
    if isinstance(v, set):
        return {"s": [encode(x, depth + 1, budget) for x in set.__iter__(v)]}
    raise NotPlain(t.__name__)


def decode(e, depth=0):
    """Decodes an encoded value; raises Garbled on anything malformed."""
    if depth > MAX_DEPTH + 1:
        raise Garbled("too deep")
    t = type(e)
    if e is None or t is bool or t is str or t is float or t is int:
        return e
    if t is not dict or len(e) != 1:
        raise Garbled("bad value")
    (k, x), = e.items()
    try:
        if k == "l":
            return [decode(y, depth + 1) for y in _list(x)]
        if k == "t":
            return tuple(decode(y, depth + 1) for y in _list(x))
        if k == "d":
            out = {}
            for pair in _list(x):
                if type(pair) is not list or len(pair) != 2:
                    raise Garbled("bad dict item")
                out[decode(pair[0], depth + 1)] = decode(pair[1], depth + 1)
            return out
        if k == "s":
            return {decode(y, depth + 1) for y in _list(x)}
        if k == "f":
            return frozenset(decode(y, depth + 1) for y in _list(x))
        if k == "b" and type(x) is str:
            return x.encode("latin-1")
        if k == "c" and type(x) is list and len(x) == 2 and all(type(y) in (int, float) for y in x):
            return complex(x[0], x[1])
        if k == "I" and type(x) is str and len(x) < 1 << 16:
            return int(x, 16)
        if k == "r" and type(x) is list and len(x) == 3 and all(type(y) is int for y in x):
            return range(*x)
        if k == "q" and type(x) is list and len(x) == 2:
            n, d = decode(x[0], depth + 1), decode(x[1], depth + 1)
            if type(n) is int and type(d) is int:
                return fractions.Fraction(n, d)
        if k == "F" and x in ("nan", "inf", "-inf"):
            return float(x)
        if k == "D" and type(x) is str and len(x) < 1 << 12:
            return decimal.Decimal(x)
        if k == "Q":
            return collections.deque(decode(y, depth + 1) for y in _list(x))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, RecursionError, decimal.InvalidOperation) as err:
        raise Garbled("bad value: %s" % type(err).__name__)
    raise Garbled("bad value")


def _list(x):
    if type(x) is not list:
        raise Garbled("bad value")
    return x


def plain_repr(v):
    """A bounded repr of a decoded (plain) value, computed by the worker."""
    try:
        s = repr(v)
    except (RecursionError, ValueError):
        return "<value too large to show>"
    return clip(s, MAX_VALUE)


def exc_name(e):
    return clip(type(e).__name__, MAX_NAME)


_exc_classes = {}


def exception_class(name):
    """The exception class a test sees for an exception the program raised:
    the builtin of that name, or an Exception subclass named like it."""
    cls = BUILTINS.get(name)
    if isinstance(cls, type) and issubclass(cls, Exception):
        return cls
    cls = _exc_classes.get(name)
    if cls is None:
        if len(_exc_classes) > 1000:
            _exc_classes.clear()
        cls = _exc_classes[name] = type(name, (Exception,), {})
    return cls


def not_plain_text(type_name, why):
    """Why a value that is not plain data fails its test."""
    if why == "too large":
        return "returned a value too large to compare"
    if why == "too deep":
        return "returned a value nested too deeply to compare"
    return "returned a %s object, not plain data (--allow-objects to compare objects)" % type_name
