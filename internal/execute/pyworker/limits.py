"""Limits: what a forked process may use, and how long a test may take.

Shared: the zygote applies child_setup (its own session, only the
descriptors it is given, a fresh working directory, rlimits) to every
process it forks before that process runs anything; the worker applies the
time rules (load_delay, c_seconds, WAIT_FACTOR and WAIT_EXTRA, which Go's
waitFactor and waitExtra mirror) to what it reads from those processes.
Holds no request data.
"""

import os
import resource
import signal
import tempfile
from time import monotonic as _mono

from .wire import Garbled

IS_INIT = os.getpid() == 1
# The directory children work in and that is emptied after each of them: the
# sandbox's private tmpfs, or (only with --unsafe-no-sandbox, where /tmp is
# the host's) a fresh directory of this worker's own.
TMP = "/tmp" if IS_INIT else tempfile.mkdtemp(prefix="ticoder-unsafe-")

# A suite test (kind "P", Go's Suite) calls the program's function on many
# inputs; the worker compares the outputs with the reference's (see
# suiterun, and suite for the rules). C never sees an expected output.
SUITE_SMALL = 64 << 10  # bytes of an encoded output the reference's table keeps as a value
SUITE_BIG = 8 << 20  # at most, where the rules need values (floats, atol, oracles); else a digest
SUITE_ITEMS = 1 << 22  # elements of an output sent as a value


# ------------------------------------------------------------ a forked process


def child_limits(limits):
    def lim(res, v):
        try:
            resource.setrlimit(res, (v, v))
        except (ValueError, OSError):
            pass

    lim(resource.RLIMIT_CORE, 0)
    if limits.get("memory"):
        lim(resource.RLIMIT_AS, limits["memory"])
    if limits.get("fsize"):
        lim(resource.RLIMIT_FSIZE, limits["fsize"])
    if limits.get("nofile"):
        lim(resource.RLIMIT_NOFILE, limits["nofile"])
    if limits.get("nproc"):
        lim(resource.RLIMIT_NPROC, limits["nproc"])
    if limits.get("cpu"):
        lim(resource.RLIMIT_CPU, int(limits["cpu"]) + 1)


def child_setup(keep, limits, workdir):
    """Prepares a forked child: its own session, only the fds in keep (and
    /dev/null as 0, 1, 2), a fresh working directory, limits."""
    os.setsid()
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    keep = sorted(set(keep) | {0, 1, 2})
    lo = 0
    for fd in keep + [1 << 16]:
        if fd > lo:
            os.closerange(lo, fd)
        lo = fd + 1
    if null not in keep:
        try:
            os.close(null)
        except OSError:
            pass
    if workdir != TMP:
        os.mkdir(workdir, 0o700)  # /tmp is empty: nothing can be planted here
    os.chdir(workdir)
    child_limits(limits)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


# ------------------------------------------------------------ time

WAIT_FACTOR = 4  # a test may wait for a CPU until WAIT_FACTOR times its limit
WAIT_EXTRA = 1.0  # plus this many seconds (see Session.read_test)
LAST_LOOK = 0.001  # seconds a timed-out test's reader looks once more at the pipe
SLOWER_CPU = 0.5  # a program that lost time may run this much more of its limit (see Session.read_test)
SPAWN_WAIT = 30.0  # seconds a forked process has to read what it runs
# Seconds C has, after a hidden test ended early (its first assert failed),
# to answer the calls sent ahead that the test did not make: usually far
# less than a fork of a fresh C costs.
DRAIN_WAIT = 0.02
# Seconds C has to stop a value test that used its time once told to
# (Session.stop), before it is killed and replaced.
STOP_WAIT = 0.02


_TICKS = os.sysconf("SC_CLK_TCK")


def schedstat(data):
    """(ran, waited) in seconds from the text of /proc/PID/schedstat: the
    time the process has run on a CPU and waited for one."""
    ran, waited = data.split()[:2]
    return int(ran) / 1e9, int(waited) / 1e9


def load_delay(pid, since):
    """(lost, ran, ready) of process pid, or None when /proc cannot tell:
    lost is the seconds of its life that a loaded machine took, its
    run-queue delay so far (the second field of /proc/PID/schedstat) plus
    how long after since (monotonic seconds) it started; ran the seconds it
    has run on a CPU; ready whether it is running or ready to run now."""
    try:
        with open("/proc/%d/schedstat" % pid, "rb") as f:
            ran, waited = schedstat(f.read())
        with open("/proc/%d/stat" % pid, "rb") as f:
            stat = f.read()
        fields = stat[stat.rindex(b")") + 2:].split()
        start = int(fields[19]) / _TICKS  # seconds after boot
        with open("/proc/uptime", "rb") as f:
            up = float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    started = _mono() - (up - start)
    return waited + max(0.0, started - since), ran, fields[0] == b"R"


def c_seconds(s, elapsed):
    """The time C reports for a test (its "s"), checked: a number, not
    negative, and at most elapsed, the time the worker saw pass."""
    if type(s) not in (int, float) or not s >= 0:
        raise Garbled("bad time")
    return min(s, elapsed)
