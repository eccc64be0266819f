"""Unit tests of program.py: what process C reports of a program.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import json
import math
import os
import unittest

from pyworker import program, suiterun
from pyworker.values import decode


class MessagesTest(unittest.TestCase):
    def test_names_message(self):
        g = {"f": len, "abs": abs, "m": math, "v": [1], "o": object(), "__builtins__": {}}
        msg = program.names_message(0, g, ("f", "m", "v", "o", "absent"))
        self.assertEqual(msg["n"], {"f": "f", "m": ["m", "math"], "v": ["v", {"l": [1]}]})

    def test_value_message(self):
        self.assertEqual(program.value_message(3, (1, "a")), {"j": 3, "v": {"t": [1, "a"]}})

        class Obj:
            def __repr__(self):
                return "<obj>"

        msg = program.value_message(1, Obj())
        self.assertEqual((msg["np"], msg["r"]), ("Obj", "<obj>"))

        class Hostile:
            def __repr__(self):
                raise SystemExit

        self.assertEqual(program.value_message(1, Hostile())["r"], "<unprintable>")

    def test_call_reply(self):
        def f(x, y=0):
            if x < 0:
                raise KeyError(x)
            return [x, y]

        g = {"f": f}
        self.assertEqual(program.call_reply(g, "f", [1], {"y": {"t": [2]}}), {"r": {"l": [1, {"t": [2]}]}})
        self.assertEqual(program.call_reply(g, "f", [-1], {}), {"x": "KeyError"})
        self.assertEqual(program.call_reply(g, "g", [], {}), {"x": "KeyError"})  # no such function
        self.assertEqual(program.call_reply({"f": lambda: object()}, "f", [], {})["np"], "object")

    def test_numpy_scalar(self):
        class Scalar:
            shape = ()

            def item(self):
                return 3

        self.assertEqual(program.numpy_scalar(Scalar()), 3)
        v = [1]
        self.assertIs(program.numpy_scalar(v), v)

    def test_numpy_items(self):
        class Scalar:
            __module__ = "numpy"
            shape = ()

            def __init__(self, v):
                self.v = v

            def item(self):
                return self.v

        got = program.numpy_items((Scalar(1), [Scalar(2.5)], {Scalar(3): {Scalar(4)}}, "x"))
        self.assertEqual(got, (1, [2.5], {3: {4}}, "x"))
        self.assertIs(type(got), tuple)
        plain = ([1, 2], {"a": (3,)})
        self.assertIs(program.numpy_items(plain), plain, "nothing to change: the value itself")
        deep = [Scalar(1)]
        for _ in range(200):
            deep = [deep]
        self.assertIs(program.numpy_items(deep), deep, "deeper than MAX_DEPTH: left as it is")


def suite_outputs(base, first, record=False):
    """The outputs C reports for a suite of base inputs, from input first on,
    of a program whose function appends to its list argument; record: as
    the reference's outputs are recorded."""
    s = suiterun.CompiledSuite({"id": "s", "entry": "f", "base": base, "plus": [],
                                "expected": None if record else [{"v": 0}] * len(base),
                                "limits": [1.0] * len(base)})
    g = {}
    exec("def f(xs, tail=()):\n    xs.append(len(tail))\n    return xs\n", g)
    r, w = os.pipe()
    try:
        program.child_suite(program.Stamp(w, "t"), g, 0, s.child_part(), first, 0.0)
        os.close(w)
        w = None
        with os.fdopen(r, "rb") as f:
            r = None
            msgs = [json.loads(line) for line in f]
    finally:
        for fd in (r, w):
            if fd is not None:
                os.close(fd)
    return [(m["i"], decode(m["v"])) for m in msgs if m["i"] >= 0]


class SuiteTest(unittest.TestCase):
    def test_each_input_fresh(self):
        # Each input is loaded when its call comes: a program that changes
        # its arguments sees each input as the suite has it, from the first
        # or from a restart's first, and so does the reference's run.
        base = [[[1]], [[1]], [[1, 2], [7]], [[]]]
        want = [(0, [1, 0]), (1, [1, 0]), (2, [1, 2, 1]), (3, [0])]
        for name, first, record in [("from the first", 0, False), ("after a restart", 2, False),
                                    ("the reference's run", 0, True)]:
            with self.subTest(name):
                self.assertEqual(suite_outputs(base, first, record), want[first:])

    def test_empty_suite(self):
        self.assertEqual(suite_outputs([], 0), [])


if __name__ == "__main__":
    unittest.main()
