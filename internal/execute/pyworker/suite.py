"""ticoder's judging of input suites (HumanEval+ and MBPP+): the pure parts.

A suite test calls a program's function on many inputs and compares each
output with the reference's, as evalplus 26d6d00 does (evalplus/eval/
__init__.py unsafe_execute, eval/_special_oracle.py, data/mbpp.py). The
worker runs these functions itself (see suiterun), on plain data only: the
program's process never sees an expected output and never compares
anything. Process C only describes its outputs with them (is_floats, and
digest for an output too large to send); a program that patches them in
its own process only changes what C reports of its own outputs, which
the worker checks against the reference's all the same.

Where evalplus is fooled, this is stricter: a return value that is not
plain data (say an object whose __eq__ says True) fails, where evalplus
calls its __eq__; oracles read the inputs as given, not as the program
may have changed them in place.
"""

import hashlib
import marshal
import math

RTOL = 1e-07  # numpy.allclose's rtol as evalplus passes it
FLOAT_ATOL = 1e-6  # the atol a float output gets when the task's is 0

# Oracles, by the entry point evalplus keys them on (per dataset).
HUMANEVAL_ORACLES = {"find_zero": "find_zero"}
MBPP_ORACLES = {
    "are_equivalent": "always",  # Mbpp/164
    "sum_div": "sum_div",  # Mbpp/295: 0 is also accepted
    "surface_Area": "surface_area",  # Mbpp/581: a second formula
    "digit_distance_nums": "digit_distance",  # Mbpp/558: a second formula
    "check_str": "not_none",
    "text_match_three": "not_none",
    "text_starta_endb": "not_none",
}
for _name in ("similar_elements", "find_char_long", "common_in_nested_lists", "extract_singly",
              "larg_nnum", "intersection_array", "find_dissimilar", "Diff"):
    MBPP_ORACLES[_name] = "set_eq"
del _name

ORACLES = ("", "find_zero", "always", "sum_div", "surface_area", "digit_distance", "not_none", "set_eq")


def oracle_for(dataset, entry):
    """The special oracle evalplus applies to a task of dataset ("humaneval"
    or "mbpp") whose function is entry; "" for none."""
    table = HUMANEVAL_ORACLES if dataset == "humaneval" else MBPP_ORACLES if dataset == "mbpp" else {}
    return table.get(entry, "")


# ------------------------------------------------------------ inputs

_MBPP_TUPLES = {2, 116, 132, 143, 222, 261, 273, 394, 399, 421, 424, 429, 470, 560, 579, 596, 616, 630, 726,
                740, 744, 809}
_MBPP_NESTED = {63, 64, 70, 94, 120, 237, 272, 299, 400, 409, 417, 438, 473, 614, 780}
_MBPP_FIRST_NESTED = {75, 413, 444, 753}
_MBPP_SECOND = {106, 750}
_MBPP_FIRST = {250, 405, 446, 617, 720, 763, 808}
_MBPP_NESTED_TUPLES = {259, 401, 445}
_MBPP_ALL_TUPLES = {580, 615, 791}


def _all_tuples(x):
    if isinstance(x, list):
        return tuple(_all_tuples(i) for i in x)
    return x


def restore_mbpp(task, inputs):
    """evalplus's mbpp_deserialize_inputs: JSON has no tuples, sets or
    complex numbers, so the inputs of some MBPP+ tasks (by task number) are
    turned back into them. inputs is a list of argument lists."""
    if task in _MBPP_TUPLES:
        return [[tuple(a) for a in inp] for inp in inputs]
    if task in _MBPP_NESTED:
        return [[[tuple(a) for a in lst] for lst in inp] for inp in inputs]
    if task in _MBPP_FIRST_NESTED:
        return [[[tuple(a) for a in inp[0]]] + [inp[1]] for inp in inputs]
    if task in _MBPP_SECOND:
        return [[inp[0]] + [tuple(inp[1])] for inp in inputs]
    if task == 115:
        return [[[set(item) if isinstance(item, list) and len(item) else {} for item in inp[0]]] for inp in inputs]
    if task == 124:
        return [(float(inp[0]), complex(inp[1])) for inp in inputs]
    if task in _MBPP_FIRST:
        return [[tuple(inp[0])] + [inp[1]] for inp in inputs]
    if task in _MBPP_NESTED_TUPLES:
        out = [[[tuple(a) for a in lst] for lst in inp] for inp in inputs]
        return [[tuple(a) for a in inp] for inp in out]
    if task == 278:
        out = [[[tuple(i) if isinstance(i, list) else i for i in inp[0]]] for inp in inputs]
        return [[tuple(a) for a in inp] for inp in out]
    if task == 307:
        return [[tuple(inp[0])] + [inp[1], inp[2]] for inp in inputs]
    if task == 722:
        return [[{k: tuple(v) for k, v in inp[0].items()}] + inp[1:] for inp in inputs]
    if task == 252:
        return [[complex(inp[0])] for inp in inputs]
    if task in _MBPP_ALL_TUPLES:
        return [_all_tuples(inp) for inp in inputs]
    return inputs


# Go's JSON has no NaN or Infinity: ticoder's dataset reader writes Python's
# as these strings (dataset.MarkNaN, MarkInf, MarkNegInf).
_CONSTANTS = {"\x00ticoder:nan": float("nan"), "\x00ticoder:inf": float("inf"), "\x00ticoder:-inf": float("-inf")}


def _constants(x):
    if type(x) is str:
        return _CONSTANTS.get(x, x) if x.startswith("\x00") else x
    if type(x) is list:
        return [_constants(i) for i in x]
    if type(x) is dict:
        return {_constants(k): _constants(v) for k, v in x.items()}
    return x


def restore(dataset, task, inputs):
    """The inputs a suite's function is called with: inputs (a JSON list of
    argument lists; a JSON object, as MBPP+'s empty plus_input of Mbpp/793,
    counts as none) with dataset's type restoration for task."""
    if not isinstance(inputs, list):
        return []
    inputs = _constants(inputs)
    if dataset == "mbpp":
        return restore_mbpp(task, inputs)
    return inputs


# ------------------------------------------------------------ comparison


def is_floats(x):
    """evalplus's is_floats: a float, or a non-empty list or tuple of floats only."""
    if isinstance(x, float):
        return True
    if isinstance(x, (list, tuple)) and x:
        return all(isinstance(i, float) for i in x)
    return False


def _poly(xs, x):
    """evalplus's oracle for HumanEval/32 (find_zero)."""
    return sum([coeff * math.pow(x, i) for i, coeff in enumerate(xs)])


def _surface_area(base_edge, height):
    """evalplus's second formula for Mbpp/581."""
    slant_height = math.sqrt((base_edge / 2) ** 2 + height ** 2)
    base_area = base_edge ** 2
    lateral_area = 4 * (base_edge * slant_height) / 2
    return round(base_area + lateral_area)


def _digit_distance_nums(num1, num2):
    """evalplus's second formula for Mbpp/558."""
    s1, s2 = str(num1), str(num2)
    n = max(len(s1), len(s2))
    s1, s2 = s1.zfill(n), s2.zfill(n)
    return sum(abs(int(a) - int(b)) for a, b in zip(s1, s2))


_NUMBER = (bool, int, float)


def _shape(x):
    """The flat numbers and the shape of x as numpy.asarray would read it
    (numbers, and lists or tuples of equal-shaped items); raises TypeError
    for anything else."""
    if type(x) in _NUMBER:
        return [x], ()
    if isinstance(x, (list, tuple)):
        flat, shape = [], None
        for item in x:
            f, s = _shape(item)
            if shape is not None and s != shape:
                raise TypeError("ragged")
            shape = s
            flat.extend(f)
        return flat, (len(x),) + (shape or ())
    raise TypeError("not a number")


def _close(a, b, atol):
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + RTOL * abs(b)


def allclose(out, exp, atol):
    """numpy.allclose(out, exp, rtol=1e-07, atol=atol) for numbers and
    (nested) lists and tuples of them of the same shape; False for anything
    numpy would refuse or broadcast."""
    fo, so = _shape(out)
    fe, se = _shape(exp)
    if so != se:
        if so == () or se == ():  # a scalar against an array: broadcast
            fo = fo * len(fe) if so == () else fo
            fe = fe * len(fo) if se == () else fe
        else:
            return False
    return all(_close(float(a), float(b), atol) for a, b in zip(fo, fe))


class Judge:
    """Compares one run's outputs with the expected ones, input after input,
    as evalplus does: its atol starts as the task's and becomes 1e-6 (for
    the rest of the run) once an expected output is a float or a list of
    floats. A run is one part of a suite (its base inputs, or its plus
    inputs): each starts with a fresh Judge."""

    def __init__(self, oracle, atol):
        self.oracle = oracle
        self.atol = atol

    def check(self, inp, out, exp, numpy_type=None):
        """Returns "" if out is right for inp, else why not. inp is the
        argument list as given (never the program's), out the program's
        output as plain data, exp the reference's; numpy_type names the
        numpy scalar type (e.g. "numpy.float64") that the program returned
        and out reads as a Python number."""
        try:
            return self._check(inp, out, exp, numpy_type)
        except (RecursionError, MemoryError):
            return "output too deep to compare"
        except Exception as e:  # noqa: BLE001 - as evalplus, any error in the comparison fails
            return "comparison raised %s" % type(e).__name__

    def _check(self, inp, out, exp, numpy_type):
        oracle = self.oracle
        exact = out == exp
        if oracle == "always":
            exact = True
        elif oracle == "sum_div":
            exact = exact or out == 0
        elif oracle == "surface_area":
            exact = exact or abs(out - _surface_area(*inp)) <= self.atol
        elif oracle == "digit_distance":
            exact = exact or out == _digit_distance_nums(*inp)
        elif oracle == "set_eq":
            exact = set(out) == set(exp)
        elif oracle == "find_zero":
            if abs(_poly(*inp, out)) <= self.atol:
                return ""
            return "not a root: |poly(x)| > %g" % self.atol
        # (not_none: the program's process sends out is not None, or the
        # bool itself, which is then compared exactly.)
        if self.atol == 0 and is_floats(exp):
            self.atol = FLOAT_ATOL
        if exact:
            return ""
        if self.atol == 0:
            return "output differs"
        if numpy_type:  # evalplus: type(out) == type(exp), and numpy's float64 is not float
            return "output is a %s, expected a %s" % (numpy_type, type(exp).__name__)
        if type(out) is not type(exp):
            return "output is a %s, expected a %s" % (type(out).__name__, type(exp).__name__)
        if isinstance(exp, (list, tuple)) and len(out) != len(exp):
            return "output has %d items, expected %d" % (len(out), len(exp))
        if not allclose(out, exp, self.atol):
            return "output differs by more than atol %g" % self.atol
        return ""

    def settle(self, exp_floats):
        """Advances the atol rule for an input whose output matched without
        a comparison (equal encodings or digests): exp_floats is
        is_floats(exp), recorded with the expected output."""
        if self.atol == 0 and exp_floats:
            self.atol = FLOAT_ATOL


def fast_equal_ok(oracle):
    """Whether equal encodings of out and exp settle an input: not for the
    oracles that look past equality (set_eq may raise on equal values,
    find_zero ignores the expected value)."""
    return oracle not in ("set_eq", "find_zero")


# ------------------------------------------------------------ digests
#
# Outputs too large to send (HumanEval/83's million-digit integers, MBPP+'s
# long lists) are compared by a digest of a canonical form: equal digests
# mean equal values (NaN aside: equal NaNs are equal here), and values
# that Python finds equal have equal digests as far as numbers (1 == 1.0 ==
# True), dict order and set order go.

_DICT = b"\x00ticoder:dict"
_SET = b"\x00ticoder:set"
_PLAIN_ATOMS = frozenset((int, str, bytes, type(None)))


def normal(v, depth=0):
    """v in a canonical form that marshal writes the same for equal values."""
    if depth > 200:
        raise RecursionError("too deep")
    t = type(v)
    if t in _PLAIN_ATOMS:
        return v
    if t is bool:
        return int(v)
    if t is float:
        return int(v) if v.is_integer() else v
    if t is complex:
        return normal(v.real) if v.imag == 0 else v
    if t is list or t is tuple:
        if set(map(type, v)) <= _PLAIN_ATOMS:
            return v
        items = [normal(x, depth + 1) for x in v]
        return items if t is list else tuple(items)
    if t is dict:
        pairs = sorted(((marshal.dumps(normal(k, depth + 1), 2), normal(x, depth + 1)) for k, x in v.items()),
                       key=lambda p: p[0])
        return (_DICT, tuple(pairs))
    if t is set or t is frozenset:
        return (_SET, tuple(sorted(marshal.dumps(normal(x, depth + 1), 2) for x in v)))
    for base in (bool, int, float, str, bytes, list, tuple, dict, frozenset, set):
        if isinstance(v, base):  # a subclass: its data, read through the base type
            return normal(_as_base(v, base), depth)
    raise TypeError("not plain data: %s" % t.__name__)


def _as_base(v, base):
    if base is bool or base is int:
        return int.__index__(v)
    if base is float:
        return float.__float__(v)
    if base is str:
        return str.__str__(v)
    if base is bytes:
        return bytes.__getitem__(v, slice(None))
    if base is dict:
        return dict(dict.items(v))
    return base(base.__iter__(v))


_SLICE = 1 << 16  # characters of a large str hashed at a time (see digest)


def digest(v):
    """The hex SHA-256 of v's canonical form (see normal): of what marshal
    (version 2) writes for it. A large ASCII str (HumanEval/15's outputs
    of megabytes) is hashed a slice at a time, as the same bytes: "u", its
    length (4 bytes, little-endian), its characters. marshal would first
    copy it whole, and a fresh process pays a page fault for every 4 KiB of
    that copy."""
    n = normal(v)
    if type(n) is str and _SLICE < len(n) < 1 << 31 and n.isascii():
        h = hashlib.sha256(b"u" + len(n).to_bytes(4, "little"))
        for i in range(0, len(n), _SLICE):
            h.update(n[i:i + _SLICE].encode("ascii"))
        return h.hexdigest()
    return hashlib.sha256(marshal.dumps(n, 2)).hexdigest()
