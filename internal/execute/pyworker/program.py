"""Process C: what runs in the candidate program's own process.

Untrusted: this code runs in a process the zygote forked for one program
(child.child_main hands it over), beside the program, which can read and
change anything here. So nothing C sends is trusted: it reports only what
the program did (the value a call returned, encoded as plain data; the
name of an exception; a suite input's output or its digest), each message
stamped with the token C was given after its fork (Stamp), and the worker
validates every message and decides every verdict itself, but for
allow_objects (kind "L", legacy_run), where C runs the tests and a hostile
program can forge its results. C never sees an expected value, a hidden
test's code or another program.
"""

import marshal
import os
import reprlib
import resource
import signal
import sys
from time import perf_counter as _perf

from . import suite
from .baseline import CLEAN_TAG, PROGRAM_FILE, program_globals, restore_builtins
from .limits import C_MALLOC_AFTER, SUITE_BIG, SUITE_ITEMS, use_c_malloc
from .values import MAX_DEPTH, MAX_NAME, MAX_VALUE, NotPlain, clip, decode, encode, exc_name
from .wire import _dumps, send_line, write_all


class TimeUp(BaseException):
    """Raised in a value test that the worker says has used its time
    (SIGUSR1, see Session.stop): C reports it and goes on with the next
    test instead of being killed and replaced."""


_TIMED = [0]  # the stage of the value test that SIGUSR1 stops: 0 none, 1 its call, 2 its module code or setup


def _time_up(signum, frame):
    if _TIMED[0]:
        _TIMED[0] = 0  # once: never in the code that reports it
        raise TimeUp()


def value_message(j, value):
    try:
        return {"j": j, "v": encode(value)}
    except NotPlain as e:
        try:
            r = repr(value)
        except BaseException:  # noqa: BLE001 - a hostile __repr__
            r = "<unprintable>"
        return {"j": j, "np": clip(type(value).__name__, MAX_NAME), "r": clip(r, MAX_VALUE), "why": clip(str(e), MAX_NAME)}
    except RecursionError:
        return {"j": j, "np": clip(type(value).__name__, MAX_NAME), "why": "too deep"}


def names_message(j, g, wanted):
    """The program's module-level names that a test takes from it (wanted,
    see wanted_names): its functions, modules and plain values."""
    out = {}
    for k in wanted:
        if k not in g:
            continue
        v = g[k]
        if type(v) is type(sys):
            out[k] = ["m", clip(getattr(v, "__name__", ""), MAX_NAME)]
        elif callable(v):
            out[k] = "f"
        else:
            try:
                enc = encode(v, 0, [10000])
            except (NotPlain, RecursionError):
                continue
            out[k] = ["v", enc]
    return {"j": j, "n": out}


class Stamp:
    """Sends C's messages, each stamped with the token this process was
    given with its fork: lines written blindly to a descriptor by the
    program are rejected by the worker."""

    def __init__(self, fd, token, bell=None):
        self.fd = fd
        self.token = token
        self.bell = bell

    def __call__(self, msg):
        msg["k"] = self.token
        send_line(self.fd, msg)

    def ring(self):
        """Tells the worker that what it waits for has been written (a
        full bell means it has been told already)."""
        if self.bell is not None:
            try:
                os.write(self.bell, b"!")
            except OSError:
                pass


def serve_calls(out, ctl, g, first=()):
    """Answers calls of the program's functions (first: those the worker
    sent with the spawn) until the worker says end."""
    for name, a, k in first:
        out(call_reply(g, name, a, k))
    out.ring()
    while True:
        try:
            msg = ctl.read(None)
        except BaseException:  # noqa: BLE001
            os._exit(0)
        if type(msg) is not dict:
            return
        if "b" in msg:
            for name, a, k in msg["b"]:
                out(call_reply(g, name, a, k))
            out.ring()
        else:
            return


def call_reply(g, name, a, k):
    """Calls the program's function name with decoded arguments."""
    try:
        fn = g[name]
        value = fn(*[decode(x) for x in a], **{n: decode(x) for n, x in k.items()})
        try:
            return {"r": encode(value)}
        except NotPlain as e:
            return {"np": clip(type(value).__name__, MAX_NAME), "why": clip(str(e), MAX_NAME)}
        except RecursionError:
            return {"np": clip(type(value).__name__, MAX_NAME), "why": "too deep"}
    except BaseException as e:  # noqa: BLE001 - SystemExit too
        return {"x": exc_name(e)}


def child_run(wfd, ctl, program, ctests, start, token, batch, bell, first=0):
    """Runs the program's part of tests[start:], one message per test;
    ctests are their parts as handle_run builds them: ("A", setup, input),
    ("L", legacy), ("T" or "J", the names the test takes, see
    wanted_names), ("-",) for a test that did not compile, or ("D",) for
    one the worker decides on an earlier test's value (a call they share,
    prepare.shared_calls). token stamps
    its messages; batch holds the calls of tests[start] that the worker
    sends before the test runs (see prefetch_calls): they are answered, for
    the functions the program defines, right after its names, with no
    round trip. first is the input a suite test tests[start] starts at (see
    child_suite)."""
    if type(token) is not str:
        return
    out = Stamp(wfd, token, bell)
    del token
    # The zygote's builtins are the snapshot, and tagged so (zygote_main).
    clean = CLEAN_TAG[0]
    signal.signal(signal.SIGUSR1, _time_up)
    try:
        code = compile(program, PROGRAM_FILE, "exec")
    except BaseException as e:  # noqa: BLE001
        name = exc_name(e)
        for j in range(start, len(ctests)):
            if ctests[j][0] != "-" and ctests[j][0] != "D":  # (the worker reads nothing for those)
                out({"j": j, "x": name, "s": 0.0})
        out.ring()
        return
    for j in range(start, len(ctests)):
        c = ctests[j]
        kind = c[0]
        if kind == "-" or kind == "D":  # not compiled; decided on another test's value
            continue
        clean = restore_builtins(clean)
        g = program_globals()
        # The test's time as C sees it (its module code and its part of the
        # test), without the fork or the worker's scheduling: what the
        # worker records as the test's time and scales reference limits by.
        t0 = _perf()
        stage = 0  # (TimeUp comes only while a value test runs: see _TIMED)
        try:
            if kind == "A":
                stage = 2
                try:
                    _TIMED[0] = stage
                    exec(code, g)
                    clean = restore_builtins(clean)
                    if c[1] is not None:
                        exec(c[1], g)
                    stage = _TIMED[0] = 1
                    msg = value_message(j, eval(c[2], g))
                finally:
                    _TIMED[0] = 0
            else:
                exec(code, g)
                # Undo whatever the program's module code did to the builtins
                # before the test's own code runs.
                clean = restore_builtins(clean)
                if kind == "P":
                    child_suite(out, g, j, c, first if j == start else 0, t0)
                    continue
                elif kind == "L":
                    msg = legacy_run(j, g, c[1])
                else:
                    msg = names_message(j, g, c[1])
                    first = ()
                    if j == start and batch:
                        # The worker keeps exactly these: the calls of functions
                        # that the names say the program defines.
                        names = msg["n"]
                        first = [c for c in batch if names.get(c[0]) == "f"]
                    msg["s"] = _perf() - t0
                    out(msg)
                    serve_calls(out, ctl, g, first)
                    continue
        except TimeUp:
            msg = {"j": j, "to": stage}
        except BaseException as e:  # noqa: BLE001 - SystemExit too
            msg = {"j": j, "x": exc_name(e)}
        msg["s"] = _perf() - t0
        out(msg)
        if kind != "A" and kind != "L":
            # (The worker reads a value test's message from the pipe: no
            # second write per test. It waits on the bell for the rest.)
            out.ring()


def legacy_run(j, g, legacy):
    """Runs a test inside the program's process and reports its verdict
    (allow_objects: the program can forge this)."""
    setup, inp, exp, code = legacy
    rec = {"j": j}
    try:
        if setup is not None:
            exec(setup, g)
        if inp is not None:
            value = eval(inp, g)
            try:
                rec["v"] = clip(repr(value), MAX_VALUE)
            except BaseException:  # noqa: BLE001
                rec["v"] = "<unprintable>"
            rec["hv"] = True
            expected = eval(exp, g)
            rec["o"] = "pass" if value == expected else "fail"
        else:
            exec(code, g)
            rec["o"] = "pass"
    except AssertionError:
        rec["o"] = "fail"
    except BaseException as e:  # noqa: BLE001
        rec["o"] = "error"
        rec["e"] = exc_name(e)
    return rec


# ------------------------------------------------------------ suites, C side
#
# A suite test (kind "P", Go's Suite) calls the program's function on many
# inputs; the worker compares the outputs with the reference's (see
# suiterun.SuiteRun, and suite for the rules). C never sees an expected
# output.


class _Preview(reprlib.Repr):
    """A bounded repr of an output the worker gets only as a digest."""

    def __init__(self):
        reprlib.Repr.__init__(self)
        self.maxstring = self.maxlong = self.maxother = 200
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = self.maxfrozenset = 30

    def repr_int(self, x, level):
        if abs(x).bit_length() > 8000:
            return "<int of %d bits>" % abs(x).bit_length()
        return reprlib.Repr.repr_int(self, x, level)


def child_suite(out, g, j, c, first, t0):
    """Runs suite test j in the program's process. c is ("P", entry, inputs
    (argument lists, each marshalled alone, one after the other), ends (the
    end of each in inputs, native unsigned ints), modes (per input: "v",
    send the output; "d", send its digest), transform ("not_none" or ""),
    keep (0; or, when the reference's outputs are recorded, the largest
    value to send)). It calls entry on each input from first on, in order,
    each loaded afresh (a program may change its arguments), and writes one
    message per input without ringing (the worker looks at the pipe every
    few milliseconds): {i, s, v} the output as plain data; {i, s, d, r} its
    digest and a preview; {i, s, x} an exception; {i, s, np, why} not plain
    data. Before them {i: -1, s}: the module ran."""
    _, entry, blob, ends, modes, transform, keep = c
    blob, ends = memoryview(blob), memoryview(ends).cast("I")
    fn = g.get(entry)
    if not callable(fn):
        out({"j": j, "x": "NameError", "s": _perf() - t0})
        out.ring()
        return
    out({"j": j, "i": -1, "s": _perf() - t0})
    # Most outputs are small: their messages are written as text here,
    # without building a dict (see suite_output for the others).
    head = '{"k":%s,"j":%d,"i":' % (_dumps(out.token), j)
    pymalloc = True  # (see limits.use_c_malloc)
    for i in range(first, len(ends)):
        args = marshal.loads(blob[ends[i - 1] if i else 0:ends[i]])
        t1 = _perf()
        try:
            v = fn(*args)
        except BaseException as e:  # noqa: BLE001 - SystemExit too
            out({"j": j, "i": i, "x": exc_name(e), "s": _perf() - t1})
            out.ring()
            continue
        s = _perf() - t1
        # An input that took a while may have built (and freed) a large
        # structure, which pymalloc would have the next input fault in again.
        if pymalloc and s > 0.005 and resource.getrusage(resource.RUSAGE_SELF).ru_minflt > C_MALLOC_AFTER:
            use_c_malloc()
            pymalloc = False
        msg = None
        if type(v).__module__ == "numpy":
            w = numpy_scalar(v)
            if w is not v and not keep:
                # evalplus compares it by value, but past exact equality it
                # asks for the expected output's type: the worker is told.
                msg = {"j": j, "i": i, "s": s, "nt": clip("numpy." + type(v).__name__, MAX_NAME)}
            v = w
        if transform == "not_none" and (keep or type(v) is not bool):
            v = v is not None  # (evalplus records the reference's as is-not-None)
            msg = None
        text = None
        if msg is not None:
            out(suite_output(msg, v, modes[i], keep))
            continue
        if not keep and modes[i] == "v":
            try:
                text = _dumps(encode(v, 0, [SUITE_ITEMS]))
            except (NotPlain, RecursionError):
                pass
        if text is not None and len(text) <= SUITE_BIG:
            write_all(out.fd, ("%s%d,\"s\":%r,\"v\":%s}\n" % (head, i, s, text)).encode())
        else:
            out(suite_output({"j": j, "i": i, "s": s}, v, modes[i], keep))
    out.ring()


def numpy_scalar(v):
    """A numpy scalar (numpy.int64, bool_, float32, ...) as Python's number
    of the same value, which evalplus's == accepts; v itself otherwise."""
    item = getattr(v, "item", None)
    if getattr(v, "shape", None) == () and callable(item):
        try:
            r = item()
        except Exception:  # noqa: BLE001
            return v
        if type(r) in (bool, int, float, complex):
            return r
    return v


def numpy_items(v, depth=0):
    """v with the numpy scalars inside it (in lists, tuples, dicts, sets and
    frozensets, at any depth) as Python's numbers (numpy_scalar), as
    evalplus's == sees them: (np.int64(4), np.int64(5)) == (4, 5). v itself
    where nothing changes. Only on the path of an output that is not plain
    data, so that plain outputs cost no second walk."""
    t = type(v)
    if t.__module__ == "numpy":
        return numpy_scalar(v)
    if depth > MAX_DEPTH:
        return v
    if t is list or t is tuple or t is set or t is frozenset:
        old = list(v)
        items = [numpy_items(x, depth + 1) for x in old]
        return v if all(a is b for a, b in zip(items, old)) else t(items)
    if t is dict:
        old = list(v.items())
        pairs = [(numpy_items(k, depth + 1), numpy_items(x, depth + 1)) for k, x in old]
        return v if all(a is k and b is x for (a, b), (k, x) in zip(pairs, old)) else dict(pairs)
    return v


def suite_output(msg, v, mode, keep):
    """Fills msg with output v (see child_suite)."""
    if mode == "v" or keep:
        try:
            enc = encode(v, 0, [SUITE_ITEMS])
            size = len(_dumps(enc))
        except NotPlain:
            enc = None  # too large or not plain: a digest tells
        except RecursionError:
            enc = None
        if enc is not None:
            floats = keep and suite.is_floats(v)
            if size <= (max(keep, SUITE_BIG if floats else 0) if keep else SUITE_BIG):
                msg["v"] = enc
                if not keep:
                    return msg
            if keep:
                msg["f"] = floats
    try:
        msg["d"] = suite.digest(v)
    except (TypeError, ValueError, RecursionError, MemoryError) as e:
        w = numpy_items(v)
        if w is not v:  # numpy's numbers inside a tuple, list, dict or set
            msg.pop("v", None)
            msg.pop("f", None)
            return suite_output(msg, w, mode, keep)
        msg.pop("v", None)
        msg["np"], msg["why"] = clip(type(v).__name__, MAX_NAME), clip(str(e), MAX_NAME)
        return msg
    try:
        msg["r"] = clip(_Preview().repr(v), MAX_VALUE)
    except BaseException:  # noqa: BLE001 - a hostile __repr__ of a subclass
        msg["r"] = "<unprintable>"
    return msg
