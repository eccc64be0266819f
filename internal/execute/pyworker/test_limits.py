"""Unit tests of limits.py: the time rules, the C library's malloc, filling
pymalloc's pools.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import gc
import os
import sys
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


def in_child(test, check):
    """Runs check in a forked child, as the zygote's processes run, and
    fails test unless it returns True."""
    if not limits.C_MALLOC:
        test.skipTest("this interpreter does not run pymalloc as its plain allocator")
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            code = 0 if check() else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    test.assertEqual(os.waitstatus_to_exitcode(status), 0)


class CMallocTest(unittest.TestCase):
    def test_new_objects_leave_pymalloc(self):
        # Objects from before the switch (pymalloc's) and after it (the C
        # library's) live, grow and are freed side by side.
        old = [str(i) for i in range(20000)]
        grown = [0] * 10

        def check():
            switched = limits.use_c_malloc()
            before = sys.getallocatedblocks()
            new = [str(i) * 2 for i in range(100000)]
            grown.extend(range(100000))  # a pymalloc block reallocated
            d = {i: s for i, s in enumerate(old)}
            counted = sys.getallocatedblocks() - before
            del old[:]  # pymalloc's blocks freed
            ok = switched and counted < 1000 and new[99999] == "9999999999" and sum(grown) == sum(range(100000)) and len(d) == 20000
            del new, d  # the C library's blocks, freed through pymalloc's free
            gc.collect()
            return ok

        in_child(self, check)

    def test_tracemalloc_hooks_stay(self):
        def check():
            import tracemalloc

            tracemalloc.start()
            switched = limits.use_c_malloc()
            xs = [str(i) for i in range(1000)]
            traced = tracemalloc.get_traced_memory()[0]
            tracemalloc.stop()
            return not switched and traced > 10000 and len(xs) == 1000

        in_child(self, check)


class FillPoolsTest(unittest.TestCase):
    def test_free_blocks(self):
        if not limits.C_MALLOC:
            self.skipTest("this interpreter does not run pymalloc as its plain allocator")
        got = limits._free_blocks()
        self.assertGreater(len(got), 0)
        for size, free in got:
            self.assertTrue(16 <= size <= 512 and size % 16 == 0, size)
            self.assertGreaterEqual(free, 0)

    def test_fill_pools(self):
        # A heap with many free blocks in half-used pools has few left once
        # filled.
        def free():
            return sum(n for size, n in limits._free_blocks() if size >= 48)

        def check():
            xs = [bytes(100) for _ in range(20000)]
            del xs[::2]  # 10,000 free blocks of 144 bytes among used ones
            before = free()
            limits.fill_pools()
            after = free()
            return before >= 10000 and after < before // 5 and len(limits._FILLED) >= 10000

        in_child(self, check)


if __name__ == "__main__":
    unittest.main()
