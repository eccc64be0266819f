"""Unit tests of limits.py: the time rules.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import os
import time
import unittest

from pyworker import limits
from pyworker.wire import Garbled


class TimeTest(unittest.TestCase):
    def test_c_seconds(self):
        self.assertEqual(limits.c_seconds(0.5, 1.0), 0.5)
        self.assertEqual(limits.c_seconds(5, 1.0), 1.0)  # cut to what the worker saw
        for bad in [-1.0, float("nan"), "1", True, None]:
            with self.subTest(bad=bad):
                with self.assertRaises(Garbled):
                    limits.c_seconds(bad, 1.0)

    def test_load_delay(self):
        got = limits.load_delay(os.getpid(), time.monotonic())
        if got is None:
            self.skipTest("no /proc/PID/schedstat here")
        lost, ran, ready = got
        self.assertGreaterEqual(lost, 0.0)
        self.assertGreater(ran, 0.0)
        self.assertTrue(ready)  # this process is running
        self.assertIsNone(limits.load_delay(1 << 30, time.monotonic()))

    def test_wait_constants(self):
        # Go's waitFactor and waitExtra mirror these (TestWaitConstants).
        self.assertEqual((limits.WAIT_FACTOR, limits.WAIT_EXTRA), (4, 1.0))


if __name__ == "__main__":
    unittest.main()
