"""Unit tests of inputs.py: collect and classes.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import unittest

import inputs

PROMPT = 'def f(n, s):\n    """\n    >>> f(2, "ab")\n    3\n    """\n'


class CollectTest(unittest.TestCase):
    def test_origins(self):
        got = inputs.collect({"entry": "f", "prompt": PROMPT, "signature": "def f(n, s):", "tests": [
            {"code": "assert f(2, 'ab') == 3", "input": "f(2, 'ab')"},
            {"code": "assert f(5, 'x') is True"},
        ], "proposed": [], "max_inputs": 10, "max_chars": 120, "seed": 1})["inputs"]
        calls = [i["call"] for i in got]
        self.assertLessEqual(len(got), 10)
        self.assertEqual(len(calls), len(set(calls)), "calls are deduplicated")
        self.assertNotIn("f(2, 'ab')", calls, "a test's own call is left out")
        self.assertIn("f(5, 'x')", calls)
        self.assertTrue({"test", "mutation"} <= {i["origin"] for i in got}, got)
        self.assertTrue(all(c.startswith("f(") and len(c) <= 120 for c in calls))


class ClassesTest(unittest.TestCase):
    def test_equal_values(self):
        got = inputs.classes({"values": ["1", "1.0", "True", "[1]", "(1,)", "{1}", "frozenset({1})", "nan", "nan", "<object at 0x1>"]})
        c, lit = got["classes"], got["literal"]
        self.assertEqual(c[0], c[1])
        self.assertEqual(c[1], c[2])
        self.assertNotEqual(c[3], c[4], "a list never equals a tuple")
        self.assertEqual(c[5], c[6])
        self.assertEqual(c[7], c[8], "nan equals nan here")
        self.assertEqual(lit, [True, True, True, True, True, True, False, False, False, False])


if __name__ == "__main__":
    unittest.main()
