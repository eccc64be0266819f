"""Unit tests of testenv.py: a test's globals and the run of its code.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import builtins
import math
import os
import unittest

from pyworker import testenv
from pyworker.wire import Garbled


def compiled(code, entry="", setup=None):
    w = testenv.Test()
    w.code = compile(code, "<test>", "exec")
    w.setup = compile(setup, "<setup>", "exec") if setup else None
    w.entry = entry
    return w


class GlobalsTest(unittest.TestCase):
    def test_refuse_unwanted(self):
        wanted = ("f", "math")
        for names in [{"abs": "f"}, {"__builtins__": ["m", "os"]}, {"f": ["x", 1]}, {1: "f"}, []]:
            with self.subTest(names=names):
                with self.assertRaises(Garbled):
                    testenv.test_globals(names, None, wanted)
        g = testenv.test_globals({"f": "f", "math": ["m", "math"]}, None, wanted)
        self.assertEqual(sorted(g), ["__name__", "f", "math"])

    def test_modules_under_their_names(self):
        g = testenv.test_globals({"math": ["m", "operator"], "path": ["m", "os.path"]}, None, ("math", "path"))
        self.assertNotIn("math", g)  # not another module in its place
        self.assertIs(g["path"], os.path)
        self.assertIs(testenv.test_globals({"math": ["m", "math"]}, None, ("math",))["math"], math)


class RunTest(unittest.TestCase):
    def run_test(self, code, replies, **kw):
        calls = []

        def call(name, a, k):
            calls.append((name, a, k))
            return replies.pop(0)

        g = testenv.test_globals({"f": "f"}, call, ("f",))
        return testenv.run_test_code(compiled(code, **kw), g), calls

    def test_outcomes(self):
        cases = [
            ("pass", "assert f(1) == 2", [{"r": 2}], ("pass", None)),
            ("fail", "assert f(1) == 3", [{"r": 2}], ("fail", None)),
            ("the program raised", "assert f(1) == 2", [{"x": "KeyError"}], ("error", "KeyError")),
            ("the program raised its own", "assert f(1) == 2", [{"x": "MyError"}], ("error", "MyError")),
            ("not plain data", "assert f(1) == 2", [{"np": "Obj", "why": "Obj"}], ("fail", testenv.not_plain_text("Obj", "Obj"))),
            ("the test's own error", "assert g(1)", [], ("error", "NameError")),
            ("the test exits", "raise SystemExit", [], ("error", "SystemExit")),
        ]
        for name, code, replies, want in cases:
            with self.subTest(name=name):
                got, _ = self.run_test(code, list(replies))
                self.assertEqual(got, want)

    def test_calls_carry_plain_data(self):
        _, calls = self.run_test("assert f((1, 2), k={3}) is None", [{"r": None}])
        self.assertEqual(calls, [("f", [{"t": [1, 2]}], {"k": {"s": [3]}})])
        got, _ = self.run_test("f(object())", [])
        self.assertEqual(got, ("error", "TypeError"))

    def test_entry_stays_the_programs(self):
        got, _ = self.run_test("assert f(1) == 2", [{"r": 2}], entry="f", setup="def f(x):\n    return 0\n")
        self.assertEqual(got, ("pass", None))

    def test_builtins_restored(self):
        got, _ = self.run_test("import builtins\nbuiltins.len = None\n", [])
        self.assertEqual(got, ("pass", None))
        self.assertIsNotNone(builtins.len)

    def test_broken_channel_is_not_an_outcome(self):
        def call(name, a, k):
            raise Garbled("x")

        g = testenv.test_globals({"f": "f"}, call, ("f",))
        with self.assertRaises(Garbled):
            testenv.run_test_code(compiled("try:\n    f()\nexcept Exception:\n    pass\nf()\n"), g)


if __name__ == "__main__":
    unittest.main()
