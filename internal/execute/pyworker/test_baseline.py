"""Unit tests of baseline.py: the builtins snapshot and the project module.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import builtins
import random
import unittest

from pyworker import baseline


class BuiltinsTagTest(unittest.TestCase):
    def test_restore(self):
        clean = baseline.restore_builtins()
        self.assertIs(baseline.restore_builtins(clean), clean)  # nothing changed
        builtins.__dict__["ticoder_test"] = 1
        try:
            clean = baseline.restore_builtins(clean)
            self.assertNotIn("ticoder_test", builtins.__dict__)
        finally:
            builtins.__dict__.pop("ticoder_test", None)

    def test_restore_replaced(self):
        real = builtins.len
        builtins.len = lambda x: 0
        try:
            baseline.restore_builtins()
            self.assertIs(builtins.len, real)
        finally:
            builtins.len = real


class RandomStateTest(unittest.TestCase):
    def test_snapshot(self):
        state = random.getstate()
        try:
            random.setstate(baseline.RANDOM_STATE)
            a = random.random()
            random.setstate(baseline.RANDOM_STATE)
            self.assertEqual(random.random(), a)
        finally:
            random.setstate(state)


class ProjectModuleTest(unittest.TestCase):
    def test_no_project(self):
        self.assertIsNone(baseline.MODULE)
        self.assertEqual(baseline.PROGRAM_FILE, "<candidate>")
        self.assertEqual(baseline.program_globals(), {})

    def test_description(self):
        self.assertIsNone(baseline._project_module(["-c"]))
        self.assertIsNone(baseline._project_module(["-c", "x"]))
        m = baseline._project_module(["-c", '{"name": "shop.pricing", "file": "/p/shop/pricing.py", "path": ["/p"]}'])
        self.assertEqual(m["name"], "shop.pricing")
        with self.assertRaises(SystemExit):
            baseline._project_module(["-c", '{"name": 1, "file": "f", "path": []}'])


if __name__ == "__main__":
    unittest.main()
