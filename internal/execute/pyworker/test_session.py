"""Unit tests of session.py: how long Session.read_test waits for a test
on a loaded machine, on a simulated clock and scheduler. Run by
TestPythonUnits with /usr/bin/python3."""

import unittest
from unittest import mock

from pyworker import session
from pyworker.wire import TimedOut


class FakeC:
    """Process C on a simulated clock: what it does in each test, as steps
    of (seconds it runs, seconds it then waits for a CPU). The kernel counts
    a wait only once it ends, as /proc/PID/schedstat does."""

    def __init__(self):
        self.now = 0.0
        self.ran = 0.0
        self.waited = 0.0  # counted waits
        self.ready = True
        self.timeline = []  # the test now: (from, to, "run" | "wait")

    def run(self, steps):
        """Simulates one test from now; returns when C's answer comes."""
        t = self.now
        self.timeline = []
        for run, wait in steps:
            self.timeline.append((t, t + run, "run"))
            t += run
            if wait:
                self.timeline.append((t, t + wait, "wait"))
                t += wait
        return t

    def stats(self, at):
        """(ran, counted waits) at time at."""
        ran, waited = self.ran, self.waited
        for a, b, what in self.timeline:
            if a >= at:
                break
            if what == "run":
                ran += min(b, at) - a
            elif b <= at:
                waited += b - a
        return ran, waited

    def finish(self, end):
        """Ends the test at end."""
        self.ran, self.waited = self.stats(end)
        self.now = end


class FakeSession(session.Session):
    """A Session whose C is a FakeC."""

    def __init__(self, c):
        super().__init__(None, -1, b"", None, 0)
        self.c = c
        self.answer = None

    def sched(self):
        return self.c.stats(self.c.now)

    def pid(self):
        return 1

    def read(self, deadline, bell=True):
        if self.answer <= deadline:
            self.c.now = max(self.c.now, self.answer)
            self.heard = True
            return {"j": 0}
        self.c.now = deadline
        raise TimedOut()


class ReadTestTest(unittest.TestCase):
    def outcomes(self, tests, limit):
        c = FakeC()
        s = FakeSession(c)

        def load_delay(pid, since):
            ran, waited = c.stats(c.now)
            return waited, ran, c.ready

        got = []
        with mock.patch.object(session, "load_delay", load_delay), \
                mock.patch.object(session, "_mono", lambda: c.now):
            for steps in tests:
                began = c.now
                s.answer = c.run(steps)
                try:
                    s.read_test(began, limit, True)
                    got.append("pass")
                except TimedOut:
                    got.append("timeout")
                    s.heard = True  # C answered the worker's stop (Session.stop)
                c.finish(max(c.now, began))
        return got

    def test_loaded_machine(self):
        # Limit 20 ms. A quick test runs 6 ms of C's own time, whatever the
        # waits for a CPU between; a looping one runs on.
        quick_waits = [(0.006, 0.0)]
        quick_late = [(0.004, 0.004), (0.001, 0.024), (0.001, 0.0)]  # waits 24 ms near its end
        loops = [(0.010, 0.030)] * 40
        cases = [
            ("quiet", [quick_waits] * 3, ["pass"] * 3),
            # A C that has run more than the limit in all, then waits for a
            # CPU when the test's limit passes: the wait is not counted yet.
            ("a long wait in a later test", [quick_waits] * 5 + [quick_late], ["pass"] * 6),
            ("a long wait in the first test", [quick_late], ["pass"]),
            # Each looping test is stopped: the waits of the tests before do
            # not carry it further.
            ("looping tests", [loops] * 3, ["timeout"] * 3),
        ]
        for name, tests, want in cases:
            with self.subTest(name):
                self.assertEqual(self.outcomes(tests, 0.020), want)

    def test_looping_test_stops_near_its_limit(self):
        # A looping C on a CPU it gets a quarter of: each test ends once C
        # has run (1 + SLOWER_CPU) times the limit at most, not by the wait
        # cap, and the delays of the tests before it are not given again.
        c = FakeC()
        s = FakeSession(c)
        share = [(0.001, 0.003)] * 1000

        def load_delay(pid, since):
            ran, waited = c.stats(c.now)
            return waited, ran, True

        with mock.patch.object(session, "load_delay", load_delay), \
                mock.patch.object(session, "_mono", lambda: c.now):
            for i in range(5):
                began = c.now
                s.answer = c.run(share)
                ran0, _ = c.stats(began)
                with self.assertRaises(TimedOut):
                    s.read_test(began, 0.020, True)
                s.heard = True  # C answered the worker's stop (Session.stop)
                ran, _ = c.stats(c.now)
                self.assertLessEqual(ran - ran0, 0.020 * (1 + session.SLOWER_CPU) + 0.002, "test %d" % i)
                self.assertLess(c.now - began, 0.2, "test %d" % i)
                c.finish(c.now)


if __name__ == "__main__":
    unittest.main()
