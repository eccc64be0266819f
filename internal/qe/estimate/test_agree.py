"""Unit tests of agree.py, imported on its own (mutate.py and inputs.py on
the path) and run as the one source the estimator sends to the sandbox.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import os
import unittest

import agree
import inputs
import mutate

HERE = os.path.dirname(os.path.abspath(__file__))


def concatenated():
    """The source the estimator sends: inputs.Python (mutate.py, then
    inputs.py), then agree.py."""
    src = ""
    for path in (mutate.__file__, inputs.__file__, os.path.join(HERE, "agree.py")):
        with open(path) as f:
            src += ("\n\n" if src else "") + f.read()
    g = {"__name__": "ticoder_tool"}
    exec(compile(src, "<tool>", "exec"), g)
    return g


class PrepareTest(unittest.TestCase):
    def test_prepare(self):
        arg = {"entry": "f", "max_inputs": 3, "seed": 0, "examples": [
            {"call": "f(1, 'a')", "expected": "2  # two"},
            {"call": "f(x)", "expected": "1"},  # not a literal call
            {"call": "g(1)", "expected": "1"},  # another function
            {"call": "f(2, 'b')", "expected": "true"},
        ]}
        for name, fn in [("imported", agree.prepare), ("concatenated", concatenated()["prepare"])]:
            with self.subTest(name):
                got = fn(arg)
                self.assertEqual(got["examples"], [{"call": "f(1, 'a')", "expected": "2"}, {"call": "f(2, 'b')", "expected": "True"}])
                self.assertLessEqual(len(got["inputs"]), 3)
                self.assertTrue(all(c.startswith("f(") for c in got["inputs"]))
                self.assertEqual(got, fn(arg), "the same seed gives the same inputs")

    def test_no_harvest(self):
        got = agree.prepare({"entry": "f", "max_inputs": 0, "seed": 0, "examples": [{"call": "f(1)", "expected": "1"}]})
        self.assertEqual(got["inputs"], [])


if __name__ == "__main__":
    unittest.main()
