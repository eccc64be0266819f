"""Limits: what a forked process may use, and how long a test may take.

Shared: the zygote applies child_setup (its own session, only the
descriptors it is given, a fresh working directory, rlimits) to every
process it forks before that process runs anything; process C switches to
the C library's malloc when a suite's inputs make it fault in much memory
(use_c_malloc); the worker applies the
time rules (load_delay, c_seconds, WAIT_FACTOR and WAIT_EXTRA, which Go's
waitFactor and waitExtra mirror) to what it reads from those processes.
Holds no request data.
"""

import ctypes
import os
import resource
import signal
import sys
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


class _Allocator(ctypes.Structure):
    """CPython's PyMemAllocatorEx: a memory domain's functions."""

    _fields_ = [("ctx", ctypes.c_void_p), ("malloc", ctypes.c_void_p), ("calloc", ctypes.c_void_p),
                ("realloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]

    def fields(self):
        return (self.ctx, self.malloc, self.calloc, self.realloc, self.free)


def _get_allocator(domain):
    table = _Allocator()
    ctypes.pythonapi.PyMem_GetAllocator(domain, ctypes.byref(table))
    return table


def _c_malloc_domains():
    """For the domains MEM and OBJ (1, 2), their pymalloc functions and
    the table that PyMem_SetAllocator is given to make a process allocate
    new objects with the C library's malloc and calloc (the RAW domain's
    own functions), keeping pymalloc's realloc and free, which pass a block
    that is not in one of pymalloc's arenas on to the C library: the new
    functions wrap pymalloc, as the API asks of an allocator set after
    start-up. Why: pymalloc unmaps an arena as soon as its last object is
    freed, so a program that builds a large structure of small objects for
    each input (a million-number string) has every page of it faulted in
    afresh for the next; the C library keeps freed memory for reuse. It is
    not every process's allocator: a forked process writes to more of the
    pages it shares with the zygote on the C library's malloc, and small
    objects cost it more, which a program that allocates little pays for
    nothing (see C_MALLOC_AFTER). Empty (nothing is changed) where the
    interpreter does not run pymalloc as its plain allocator: another
    implementation, a free-threaded build (mimalloc only; its ABI flags
    have a "t"), pymalloc absent (no blocks counted) or debug hooks
    installed (their context is not NULL). The sandbox never sets
    PYTHONMALLOC."""
    if sys.implementation.name != "cpython" or "t" in getattr(sys, "abiflags", "") or sys.getallocatedblocks() <= 0:
        return ()
    raw, mem, obj = (_get_allocator(d) for d in range(3))  # PYMEM_DOMAIN_RAW, _MEM, _OBJ
    if raw.ctx or mem.ctx or obj.ctx or not raw.malloc or not raw.calloc:
        return ()
    out = []
    for domain, table in ((1, mem), (2, obj)):
        new = _Allocator(*table.fields())
        new.malloc, new.calloc = raw.malloc, raw.calloc
        out.append((domain, table.fields(), new))
    return tuple(out)


def _free_blocks():
    """(request size, free blocks) of each of pymalloc's size classes: the
    blocks its partly used pools can still hand out, read from
    sys._debugmallocstats (written to fd 2, here a memfd). Empty where that
    cannot be read."""
    try:
        mem = os.memfd_create("ticoder-mallocstats")
    except (AttributeError, OSError):
        return []
    text = b""
    try:
        saved = os.dup(2)
        try:
            os.dup2(mem, 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        os.lseek(mem, 0, os.SEEK_SET)
        while True:
            chunk = os.read(mem, 1 << 16)
            if not chunk:
                break
            text += chunk
    except (AttributeError, OSError):
        return []
    finally:
        os.close(mem)
    out = []
    for line in text.decode("ascii", "replace").splitlines():
        f = line.split()
        if len(f) == 5 and all(x.isdigit() for x in f):
            out.append((int(f[1]), int(f[4])))
    return out


# The blocks fill_pools took, never freed.
_FILLED = []


def fill_pools():
    """Fills every partly used pool of pymalloc with bytes objects that
    are never freed. Run in the zygote once, before its first fork: a
    forked process then takes the small objects it makes from pools of its
    own instead of writing into half-full pools on pages it shares with the
    zygote, each of which it would first copy (a page fault, the dearest
    part of a fork here: 355 of them fell to 330 in a process that runs a
    small program, BENCHMARKS.md). Size classes under 48 bytes (no bytes
    object is that small) are left as they are."""
    head = sys.getsizeof(b"")  # a bytes object of n bytes asks for head + n
    for size, free in _free_blocks():
        if size >= 48 and free > 0:
            _FILLED.extend(bytes(size - head) for _ in range(free))


# Made once, in the worker, before the zygote is forked (see use_c_malloc).
C_MALLOC = _c_malloc_domains()


# Page faults after which process C, running a suite, allocates its new
# objects with the C library's malloc (use_c_malloc): 32 MiB faulted in, a
# program whose inputs build large structures (tens of thousands of faults
# an input for a million-number string), far above what a program that
# builds none needs (under a thousand: the fork, the module, its inputs).
C_MALLOC_AFTER = 8192


def use_c_malloc():
    """Has this process allocate new objects with the C library's malloc
    (see _c_malloc_domains); True if it now does. Nothing is changed where
    the domains no longer have pymalloc's functions (the program traces its
    memory with tracemalloc, whose hooks stay)."""
    if not C_MALLOC or any(_get_allocator(d).fields() != was for d, was, _ in C_MALLOC):
        return False
    for domain, _, table in C_MALLOC:
        ctypes.pythonapi.PyMem_SetAllocator(domain, ctypes.byref(table))
    return True


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
