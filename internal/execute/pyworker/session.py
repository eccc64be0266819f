"""The worker's side of process C: reading its messages, calling its
functions, and how long a test may wait for it.

Trusted code of the worker. A Session reads C's messages (each must carry
the token C was given, checked by its hash: lines the program writes to a
descriptor are rejected), relays calls of the program's functions to C
(several at once: the literal calls of a hidden test are sent ahead, see
prepare.prefetch_calls), and gives each test its time limit of C's own
time, plus what a loaded machine took (read_test).
"""

import collections
import hashlib
import os
import signal
from time import monotonic as _mono

from . import zygote
from .cleanup import Dirty
from .limits import LAST_LOOK, SLOWER_CPU, WAIT_EXTRA, WAIT_FACTOR, load_delay, schedstat
from .wire import Died, Flood, Garbled, TimedOut, call_key, get_dict, write_all


class Session:
    """The worker's side of one candidate process C."""

    def __init__(self, reader, ctl_fd, token_hash, start, ticket):
        self.ticket = ticket  # C's spawn (see Zygote.child_pid)
        self._pid = None
        self.heard = False  # whether C has sent anything
        self.sent = start  # the test whose calls went with the spawn
        self.rd = reader
        self.ctl = ctl_fd
        self.token_hash = token_hash
        self.broken = None  # the exception that broke the channel
        self.pending = collections.deque()  # keys of prefetched calls not yet answered
        self.cache = {}  # key -> replies of prefetched calls
        self._stat = None  # C's /proc/PID/schedstat, open (see sched)

    def pid(self):
        """C's pid (raises Dirty when the zygote is gone)."""
        if self._pid is None:
            self._pid = zygote.ZYGOTE.child_pid(self.ticket)
        return self._pid

    def sched(self):
        """(ran, waited): the seconds C has run on a CPU and waited for one
        so far (/proc/PID/schedstat, kept open: one read a test), or None
        when /proc cannot tell."""
        try:
            if self._stat is None:
                self._stat = os.open("/proc/%d/schedstat" % self.pid(), os.O_RDONLY | os.O_CLOEXEC)
            return schedstat(os.pread(self._stat, 128, 0))
        except (OSError, ValueError, IndexError, Dirty):
            return None

    def close(self):
        """Closes what the session holds open of C's."""
        if self._stat is not None:
            os.close(self._stat)
            self._stat = None

    def prefetch(self, j, keys):
        """Sends the calls of test j (their call_key texts) to C in one
        message, unless they went with the spawn; C answers each in order
        while the test runs."""
        if j == self.sent:
            self.sent = None
            self.pending.extend(keys)
            return
        if not keys or self.broken is not None:
            return
        try:
            write_all(self.ctl, ('{"b":[' + ",".join(keys) + "]}\n").encode())
        except OSError:
            self.broken = Died()
            return
        self.pending.extend(keys)

    def busy(self):
        """Reports whether C still owes answers to prefetched calls."""
        return bool(self.pending)

    def stop(self, j, wait):
        """Tells C that its value test j has used its time (SIGUSR1, see
        program.TimeUp); True when C stopped it within wait seconds and can
        go on with the next test, False when C must be replaced: it did not
        stop, it was still in its module code or setup (which may be left
        half done), or it had finished j after all and may have taken the
        signal in the next test."""
        try:
            os.kill(self.pid(), signal.SIGUSR1)
            msg = self.read(_mono() + wait, False)
        except (OSError, Dirty, TimedOut, Died, Flood, Garbled):
            return False
        return msg.get("j") == j and msg.get("to") == 1

    def drain(self, deadline):
        """Reads and drops C's answers to the prefetched calls that a test
        that has ended did not make, so that C can go on with the next test;
        False when C has not answered them all by deadline (or the channel
        broke): C must then be replaced."""
        if self.broken is not None:
            return False
        try:
            while self.pending:
                get_dict(self.read(deadline), "r", "x", "np", "why")
                self.pending.popleft()
        except (TimedOut, Died, Flood, Garbled) as e:
            self.broken = e
            return False
        self.cache.clear()
        return True

    def buffered(self):
        """C's next message if it has been read already, else None."""
        msg = self.rd.buffered()
        return None if msg is None else self._checked(msg)

    def read(self, deadline, bell=True):
        """Reads one message of C's, checking and removing its token."""
        return self._checked(self.rd.read(deadline, bell))

    def _checked(self, msg):
        self.heard = True
        if type(msg) is not dict:
            raise Garbled("not an object")
        token = msg.pop("k", None)
        if type(token) is not str or hashlib.sha256(token.encode()).digest() != self.token_hash:
            raise Garbled("message without this process's token")
        return msg

    def read_test(self, began, limit, bell):
        """Reads C's message for a test that began at began (monotonic
        seconds) and may take limit seconds of C's own time; returns it with
        the deadline it was read by. What a loaded machine adds does not
        count, up to WAIT_FACTOR times the limit plus WAIT_EXTRA: the time C
        spent ready to run but waiting for a CPU (its run-queue delay,
        /proc/PID/schedstat), and
        the time from began until C started (a zygote that waits for a CPU
        forks C late), and while C is ready to run but has run for less than
        the limit in this test, the rest of the limit (the kernel counts a
        wait only once it ends). A CPU shared with busy processes also runs
        C slower (caches, the sibling hyperthread): a C that has lost time
        may run for the limit plus what it lost, up to SLOWER_CPU more of
        the limit. A test counts what C ran and lost since it began (read
        when it begins); the first counts C's whole life, its start too
        (the fork's copied pages, the program's module code). A looping C,
        stopped test after test on a loaded machine, is thus not given the
        delays of the tests before (its CPU limit would kill it), and a
        test after many quick ones is still given the rest of its limit.
        On a quiet machine this is the wall clock, and a loaded machine's
        verdicts are a quiet one's; a test may get more, never less, than
        its limit. Raises TimedOut."""
        deadline = began + limit
        cap = began + limit * WAIT_FACTOR + WAIT_EXTRA
        # Until C is heard from, its start is part of this test.
        ran0, waited0 = (self.sched() if self.heard else None) or (0.0, 0.0)
        while True:
            try:
                return self.read(deadline, bell), deadline
            except TimedOut:
                try:
                    st = load_delay(self.pid(), began)
                except Dirty:
                    st = None
                later = None
                if st is not None:
                    lost, ran, ready = st
                    lost -= waited0
                    ran -= ran0
                    later = began + limit + lost
                    if ready and ran < limit + min(lost, limit * SLOWER_CPU):
                        later = max(later, _mono() + max(limit - ran, LAST_LOOK))
                    later = min(later, cap)
                if later is None or later <= _mono():
                    # C may have answered while this worker itself waited
                    # for a CPU: a last look at the pipe, then the timeout.
                    return self.read(_mono() + LAST_LOOK, bell), deadline
                deadline = later

    def call(self, name, args, kwargs, deadline):
        """Calls the program's function name in C; returns the reply."""
        if self.broken is not None:
            raise self.broken
        key = call_key(name, args, kwargs)
        try:
            got = self.cache.get(key)
            if got:
                return got.pop(0)
            # C answers prefetched calls in order: the test usually makes
            # them in that order too.
            while self.pending:
                reply = get_dict(self.read(deadline), "r", "x", "np", "why")
                done = self.pending.popleft()
                if done == key:
                    return reply
                self.cache.setdefault(done, []).append(reply)
            write_all(self.ctl, ('{"b":[' + key + "]}\n").encode())
            reply = get_dict(self.read(deadline), "r", "x", "np", "why")
        except (TimedOut, Died, Flood, Garbled) as e:
            self.broken = e
            raise
        except OSError:
            self.broken = Died()
            raise self.broken
        return reply

    def end(self):
        try:
            write_all(self.ctl, b'{"end":1}\n')
        except OSError:
            self.broken = Died()
