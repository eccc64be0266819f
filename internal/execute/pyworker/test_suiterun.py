"""Unit tests of suiterun.py: how the worker reads what the program's
process (untrusted) reports for a suite's inputs. Run by TestPythonUnits
with /usr/bin/python3."""

import unittest

from pyworker import suiterun
from pyworker.wire import Garbled


def one_float_suite():
    """A suite of one input whose expected output is 0.5."""
    return suiterun.CompiledSuite({"id": "s", "entry": "f", "base": [[1]], "plus": [],
                                   "expected": [{"v": 0.5, "d": "x", "f": True}], "limits": [1.0]})


class CheckTest(unittest.TestCase):
    def test_numpy_type(self):
        run = suiterun.SuiteRun(one_float_suite())
        cases = [
            ("equal", {"v": 0.5, "nt": "numpy.float64"}, None),
            ("close, a float", {"v": 0.5000000001}, None),
            ("close, numpy's float64", {"v": 0.5000000001, "nt": "numpy.float64"},
             ("fail", "output is a numpy.float64, expected a float", "0.5000000001")),
        ]
        for name, msg, want in cases:
            with self.subTest(name):
                self.assertEqual(run.check(0, msg), want)

    def test_numpy_type_not_text(self):
        # The program's process writes these messages: a type name that is
        # not text is a broken protocol, not a failing output.
        run = suiterun.SuiteRun(one_float_suite())
        for bad in (["numpy.float64"], {"x": 1}, 3):
            with self.subTest(bad=bad):
                with self.assertRaises(Garbled):
                    run.check(0, {"v": 0.5000000001, "nt": bad})

    def test_long_type_name_clipped(self):
        run = suiterun.SuiteRun(one_float_suite())
        got = run.check(0, {"v": 0.75, "nt": "n" * 100000})
        self.assertEqual(got[0], "fail")
        self.assertLess(len(got[1]), 1000)


if __name__ == "__main__":
    unittest.main()
