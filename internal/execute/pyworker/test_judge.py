"""Unit tests of judge.py: deciding a value test from what C sent.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import unittest

from pyworker import judge, testenv
from pyworker.wire import Garbled


def value_test(expected):
    w = testenv.Test()
    w.kind = "A"
    w.expected = (expected,)
    return w


class JudgeValueTest(unittest.TestCase):
    def test_verdicts(self):
        cases = [
            ("equal", 2, {"j": 0, "v": 2}, ("pass", None, "2")),
            ("an int equals a float", 2.0, {"j": 0, "v": 2}, ("pass", None, "2")),
            ("different", 3, {"j": 0, "v": 2}, ("fail", None, "2")),
            ("a tuple is not a list", [1], {"j": 0, "v": {"t": [1]}}, ("fail", None, "(1,)")),
            ("nan is never equal", float("nan"), {"j": 0, "v": {"F": "nan"}}, ("fail", None, "nan")),
            ("an assertion", 2, {"j": 0, "x": "AssertionError"}, ("fail", "AssertionError", None)),
            ("an exception", 2, {"j": 0, "x": "ValueError"}, ("error", "ValueError", None)),
            ("not plain data", 2, {"j": 0, "np": "Obj", "r": "<obj>", "why": "Obj"},
             ("fail", testenv.not_plain_text("Obj", "Obj"), "<obj>")),
        ]
        for name, expected, msg, want in cases:
            with self.subTest(name=name):
                self.assertEqual(judge.judge_value(value_test(expected), msg), want)

    def test_garbled(self):
        for msg in [{"j": 0}, {"j": 0, "v": {"l": 1}}, {"j": 0, "x": 1}, {"j": 0, "o": "pass"}, [0]]:
            with self.subTest(msg=msg):
                with self.assertRaises(Garbled):
                    judge.judge_value(value_test(1), msg)


if __name__ == "__main__":
    unittest.main()
