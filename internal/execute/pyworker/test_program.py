"""Unit tests of program.py: what process C reports of a program.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import math
import unittest

from pyworker import program


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


if __name__ == "__main__":
    unittest.main()
