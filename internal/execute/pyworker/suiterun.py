"""Judging input suites (HumanEval+ and MBPP+, Go's Suite) in the worker.

Trusted code of the worker. A suite test calls the program's function on
many inputs in C (program.child_suite); C sends each output (or, for a
large one, its digest) and the worker compares it with the reference's
here, by evalplus's rules (suite), with each part's time budget and each
input's limit. C never sees an expected output. CompiledSuite is a suite
as a worker keeps it (SUITES, at most SUITE_SLOTS of them); SuiteRun is one
program's run of one.
"""

import array
import collections
import itertools
import marshal
from time import monotonic as _mono

from . import suite
from .cleanup import Dirty
from .limits import SUITE_BIG, SUITE_SMALL, c_seconds, load_delay
from .values import MAX_NAME, MAX_TEXT, MAX_VALUE, clip, decode, not_plain_text, plain_repr
from .wire import Garbled, _dumps, get_dict


SUITE_SLOTS = 64  # suites a worker keeps; Go's suiteSlots mirrors this FIFO
SUITES = collections.OrderedDict()  # suite id -> CompiledSuite
MAX_FAILED = 10000  # failing inputs listed in a result
MAX_BUDGET = 60.0  # evalplus's cap on a run's whole time (EVALPLUS_TIMEOUT_PER_TASK)


class CompiledSuite:
    """A suite as a worker keeps it, from Go's Suite: the inputs restored to
    their types, the expected outputs (None while the reference's are
    recorded), the per-input limits."""

    def __init__(self, body):
        self.id = body["id"]
        self.entry = body["entry"]
        self.oracle = body.get("oracle") or ""
        if self.oracle not in suite.ORACLES or type(self.entry) is not str:
            raise ValueError("bad suite")
        self.atol = float(body.get("atol") or 0)
        dataset, task = body.get("restore") or "", int(body.get("task") or 0)
        base = suite.restore(dataset, task, body.get("base"))
        plus = suite.restore(dataset, task, body.get("plus"))
        self.inputs = list(base) + list(plus)
        self.base = len(base)
        # Each input marshalled alone, behind the ends of all of them: C
        # loads an input only when it calls the function on it, and frees it
        # after, so that a program that fails early does not build them all
        # (a forked process pays a page fault for every page it fills).
        parts = [marshal.dumps(x) for x in self.inputs]
        self.blob = b"".join(parts)
        self.ends = array.array("I", itertools.accumulate(map(len, parts))).tobytes()
        self.expected = body.get("expected")
        n = len(self.inputs)
        limits = body.get("limits") or [0.0] * n
        if len(limits) != n or (self.expected is not None and len(self.expected) != n):
            raise ValueError("suite lengths differ")
        self.limits = [float(x) for x in limits]
        self.all = bool(body.get("all"))
        # (A reference's run, recording, has no cap but its limits.)
        cap = MAX_BUDGET if self.expected is not None else float("inf")
        self.budget = [min(cap, sum(self.limits[:self.base])), min(cap, sum(self.limits[self.base:]))]
        # Equal encodings settle an input, but for a NaN (never equal in
        # Python) and for the oracles that look past equality.
        fast = suite.fast_equal_ok(self.oracle)
        self.fast = [fast and type(e) is dict and '"F":"nan"' not in _dumps(e.get("v")) for e in self.expected or ()]
        self.values = {}  # decoded expected outputs, by input
        if self.expected is None:
            self.modes = "v" * n
            self.keep = SUITE_BIG if self.atol or self.oracle else SUITE_SMALL
        else:
            self.modes = "".join("v" if type(e) is dict and "v" in e else "d" for e in self.expected)
            self.keep = 0

    def child_part(self):
        """What C gets of this suite (see program.child_suite)."""
        return ("P", self.entry, self.blob, self.ends, self.modes, "not_none" if self.oracle == "not_none" else "", self.keep)

    def value(self, i):
        """The expected output of input i, decoded once."""
        if i not in self.values:
            if len(self.values) > 4096:
                self.values.clear()
            self.values[i] = decode(self.expected[i]["v"])
        return self.values[i]


class SuiteRun:
    """One program's run of a suite, judged as evalplus judges: inputs in
    order, the base inputs then the plus inputs, each part with its own
    atol state and its own time for the whole part (min(60 s, the sum of
    its inputs' limits) + 2, + 3 with every input run, as evalplus's
    process is killed), each input under its own limit. Unless the suite
    asks for all inputs, the run stops at the first failing one."""

    def __init__(self, s):
        self.s = s
        self.next = 0  # the input C runs now
        self.part = 0 if s.base > 0 else 1
        self.judge = suite.Judge(s.oracle, s.atol)
        self.part_began = None
        self.part_lost = 0.0  # lost (see lost) when the part began
        self.sess, self.sess_began, self.lost_before, self.lost_total = None, 0.0, 0.0, 0.0
        self.over_budget = False  # the read waiting now ends at the part's budget
        self.outcome, self.exc, self.shown, self.first = "pass", "", None, -1
        self.failed = []
        self.total = False  # the part's whole time ran out (evalplus: timeout)
        self.secs = 0.0
        self.table = [] if s.expected is None else None

    def budget_left(self, sess):
        """The time left to the part, not counting what a loaded machine
        took from its process (its run-queue waits, as Session.read_test
        counts them), so that a loaded machine's verdicts are a quiet one's."""
        extra = 3.0 if self.s.all else 2.0
        lost = self.lost(sess) - self.part_lost
        return self.s.budget[self.part] + extra - (_mono() - self.part_began - lost)

    def lost(self, sess):
        """The seconds a loaded machine has taken from this run's processes
        so far (see limits.load_delay)."""
        if sess is not self.sess:  # a new process (after a restart)
            self.sess, self.sess_began, self.lost_before = sess, _mono(), self.lost_total
        try:
            st = load_delay(sess.pid(), self.sess_began)
        except Dirty:
            st = None
        if st is not None:
            self.lost_total = max(self.lost_total, self.lost_before + st[0])
        return self.lost_total

    def _read(self, sess, limit):
        # A message already read arrived in time: C writes each as soon as
        # its input is done. (Most are: the worker reads many at a time.)
        msg = sess.buffered()
        if msg is None:
            left = self.budget_left(sess)
            self.over_budget = left <= limit
            msg, _ = sess.read_test(_mono(), max(min(limit, left), 0.0), True)
        return get_dict(msg, "j", "i", "s", "v", "d", "r", "x", "np", "why", "f", "nt")

    def read(self, sess, j):
        """Reads what C reports for suite test j until the suite ends or (fast
        mode) fails. Raises what Session.read_test raises; the caller then
        asks interrupted."""
        s = self.s
        if self.part_began is None:
            self.part_began = _mono()
            self.part_lost = self.lost(sess)
        msg = self._read(sess, MAX_BUDGET + 3.0)  # the module's own code
        if msg.get("j") != j:
            raise Garbled("out of order")
        if "x" in msg:  # the module raised, or has no such function
            self.fail(self.next, "error", clip(msg["x"], MAX_NAME), None)
            return
        if msg.get("i") != -1:
            raise Garbled("out of order")
        self.secs += c_seconds(msg.get("s"), 1e9)
        while self.next < len(s.inputs):
            i = self.next
            msg = self._read(sess, s.limits[i])
            if msg.get("j") != j or msg.get("i") != i:
                raise Garbled("out of order")
            self.secs += c_seconds(msg.get("s"), 1e9)
            if self.table is not None:
                if not self.record(i, msg):
                    return
            else:
                why = self.check(i, msg)
                if why is not None:
                    self.fail(i, why[0], why[1], why[2])
                    if not s.all:
                        return
            self.advance()

    def advance(self):
        self.next += 1
        if self.next == self.s.base:
            self.part = 1
            self.judge = suite.Judge(self.s.oracle, self.s.atol)
            self.part_began = _mono()
            self.part_lost = self.lost_total

    def check(self, i, msg):
        """None if C's output for input i is right, else (outcome, why,
        shown)."""
        s = self.s
        e = s.expected[i]
        if "x" in msg:
            return "error", clip(msg["x"], MAX_NAME), None
        if "np" in msg:
            return "fail", not_plain_text(msg["np"], msg.get("why", "")), None
        if "v" not in msg:
            if type(msg.get("d")) is str and msg["d"] == e.get("d"):
                self.judge.settle(e.get("f"))
                return None
            return "fail", "output differs", clip(msg.get("r"), MAX_VALUE)
        v = msg["v"]
        if "v" not in e:
            raise Garbled("a value where a digest was asked for")
        if s.fast[i] and v == e["v"]:
            self.judge.settle(e.get("f"))
            return None
        out = decode(v)
        try:
            exp = s.value(i)
        except Garbled:
            return "fail", "output differs", plain_repr(out)
        nt = msg.get("nt")
        if nt is not None and type(nt) is not str:
            raise Garbled("bad numpy type")
        why = self.judge.check(s.inputs[i], out, exp, nt and clip(nt, MAX_NAME))
        return ("fail", why, plain_repr(out)) if why else None

    def record(self, i, msg):
        """Keeps the reference's output for input i; False if it has none."""
        if "x" in msg or "np" in msg or type(msg.get("d")) is not str:
            why = msg.get("x") or "returned %s, not plain data" % msg.get("np")
            self.fail(i, "error", clip(why, MAX_NAME), None)
            return False
        e = {"d": msg["d"], "f": bool(msg.get("f")), "r": clip(msg.get("r"), MAX_VALUE),
             "s": c_seconds(msg.get("s"), 1e9)}
        if "v" in msg:
            e["v"] = msg["v"]
        self.table.append(e)
        return True

    def fail(self, i, outcome, why, shown):
        if self.first < 0:
            self.first, self.outcome, self.exc, self.shown = i, outcome, why, shown
        if len(self.failed) < MAX_FAILED:
            self.failed.append(i)

    def interrupted(self, failure, why):
        """C stopped answering while it ran input self.next: failure is
        "timeout" (its limit, or the part's whole time), "died" or a broken
        protocol. Returns True when the run goes on from the next input in a
        fresh process (every input asked for, after a per-input timeout,
        as evalplus's alarm lets its process go on)."""
        i = self.next
        if failure == "timeout" and self.over_budget:
            self.total = True
            self.fail(i, "timeout", "the run's whole time limit (%.0f s) ran out" % (self.s.budget[self.part]), None)
            return False
        if failure == "timeout":
            self.fail(i, "timeout", "took longer than its limit of %.1f s" % self.s.limits[i], None)
            if self.s.all and self.table is None and i + 1 < len(self.s.inputs):
                self.advance()
                return True
            return False
        self.fail(i, "crash", clip(why, MAX_TEXT), None)
        return False

    def result(self, j):
        rec = {"j": j, "o": self.outcome, "s": self.secs, "n": self.next}
        if self.exc:
            rec["e"] = self.exc
        if self.shown is not None:
            rec["v"], rec["hv"] = self.shown, True
        if self.first >= 0:
            rec["fi"] = self.first
            if self.s.expected is not None and self.first < len(self.s.expected):
                rec["fx"] = clip(self.s.expected[self.first].get("r"), MAX_VALUE)
        if self.s.all and self.failed:
            rec["fa"] = self.failed
        if self.total:
            rec["tt"] = True
        if self.table is not None and self.first < 0:
            rec["tb"] = self.table
        return rec
