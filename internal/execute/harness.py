# ticoder execution harness: the Python half of the execution engine.
#
# One long-lived worker runs this file as PID 1 of its sandbox. It reads
# requests from fd 3 and writes replies to fd 4, each a 4-byte big-endian
# length followed by JSON (this file itself comes as the first frame: see
# bootstrap in worker.go). Untrusted code never runs in this process.
#
# Who decides a test's verdict (see doc.go for the threat model):
#
#   * The candidate program runs in a child, C, forked per program. C holds
#     no channel that carries verdicts: it only reports what the program did
#     (the value a call returned, encoded as plain data, or the name of the
#     exception it raised) on a pipe to the worker, and answers calls.
#     With each test's first message it reports how long its part took
#     ("s": checked, and cut to what the worker saw pass): a test's time
#     is that plus the worker's part, without the fork and scheduling.
#   * `assert CALL == LITERAL` tests (kind "A"): C evaluates CALL and sends
#     the value; the worker compares it with the literal itself. Expected
#     values that are not literals are evaluated once, in a process of
#     their own that never sees a program, and kept as plain data.
#   * A benchmark's own hidden tests (trusted code, kind "T") run in the
#     worker against proxies: calling a program's function sends the
#     arguments to C, which calls it and sends back the plain value.
#   * Any other test (generated, kind "J") runs the same way in a judge
#     process forked for that one test (from the zygote: it holds nothing
#     of the worker's); its calls are relayed and checked by the worker,
#     and only its own verdict is read from it.
#   * With allow_objects (kind "L"), C runs the tests itself and reports
#     verdicts, as OpenAI's harness does: a hostile program can then forge
#     its own results. Off by default.
#
# Every process that runs untrusted code is forked from a zygote that never
# holds a request's data (see Zygote): C reads its token, its program, its
# side of the tests and the literal calls of its first hidden test from the
# worker after its fork. A test sees only the names of the program it uses
# (wanted_names) and the real builtins. C rings a bell (a byte on a third
# pipe) once it has written what the worker waits for, so a batch of
# answers wakes the worker once (see LineReader). Everything read from a
# child is bounded and validated; anything malformed is a crash of that
# test only. After each program every process but the worker and the
# zygote is killed and /tmp is emptied, so nothing leaks to the next one.

import builtins
import ctypes
import gc
import json
import marshal
import os
import random
import reprlib
import resource
import select
import signal
import socket
import struct
import shutil
import symtable
import sys
import tempfile
import time

# Modules candidates commonly import, loaded once here so that a forked child
# does not pay for the import again.
import ast, bisect, collections, copy, datetime, decimal, fractions, functools  # noqa: E401
import hashlib, heapq, itertools, math, operator, re, statistics  # noqa: E401
import array, calendar, cmath, numbers, string, textwrap, typing, unicodedata  # noqa: E401

try:
    import suite  # beside this file (the unit tests); the worker reads it in main
except ImportError:
    suite = None

PRELOADED = (ast, bisect, collections, copy, datetime, decimal, fractions, functools,
             hashlib, heapq, itertools, math, operator, re, statistics,
             array, calendar, cmath, numbers, string, textwrap, typing, unicodedata)

REQ_FD, RESP_FD = 3, 4
MAX_VALUE = 1000  # characters of a returned value's repr that are kept
MAX_NAME = 200  # characters of an exception or type name that are kept
MAX_TEXT = 4000  # characters of an error message that are kept
MAX_LINE = 16 << 20  # one message from a child; more is a crash
MAX_NAMES = 4096  # module-level names of a program offered to a test
MAX_DEPTH = 100  # nesting of an encoded value
MAX_ITEMS = 1 << 20  # elements of an encoded value
IS_INIT = os.getpid() == 1
# The directory children work in and that is emptied after each of them: the
# sandbox's private tmpfs, or (only with --unsafe-no-sandbox, where /tmp is
# the host's) a fresh directory of this worker's own.
TMP = "/tmp" if IS_INIT else tempfile.mkdtemp(prefix="ticoder-unsafe-")


# ------------------------------------------------------------ project module
#
# With `ticoder run --spec FILE::NAME` the worker is started with one argument:
# a JSON description of the project's module, {"name": "shop.pricing", "file":
# the module's path, "path": directories that go first on sys.path}. Every
# program is then that module's whole source (the file with the function
# replaced by a candidate) and runs as the module: its globals are a fresh
# module object's, registered in sys.modules under its dotted name, so its
# relative imports work and the project's own modules that import it get the
# program, not the file on disk (which stays untouched, read-only).
import importlib.machinery  # noqa: E402


def _project_module(argv):
    if len(argv) != 2 or argv[0] != "-c" or not argv[1].startswith("{"):
        return None
    m = json.loads(argv[1])
    if type(m.get("name")) is not str or type(m.get("file")) is not str or type(m.get("path")) is not list:
        raise SystemExit("ticoder: bad module description")
    return m


MODULE = _project_module(sys.argv)
if MODULE is not None:
    sys.path[:0] = [p for p in MODULE["path"] if type(p) is str and p not in sys.path]
while "" in sys.path:  # Python < 3.11 has no -P: no working directory on sys.path
    sys.path.remove("")
PROGRAM_FILE = "<candidate>" if MODULE is None else MODULE["file"]


def program_globals():
    """A program's fresh globals: a plain dict, or the project's module's."""
    if MODULE is None:
        return {}
    name, path = MODULE["name"], MODULE["file"]
    mod = type(sys)(name)
    mod.__file__ = path
    mod.__spec__ = importlib.machinery.ModuleSpec(name, None, origin=path)
    mod.__spec__.has_location = True
    if os.path.basename(path) == "__init__.py":
        mod.__path__ = [os.path.dirname(path)]
        mod.__spec__.submodule_search_locations = mod.__path__
        mod.__package__ = name
    else:
        mod.__package__ = name.rpartition(".")[0]
    sys.modules[name] = mod
    return mod.__dict__


def _not_json(o):
    raise TypeError("not JSON: %s" % type(o).__name__)


# json.dumps and json.loads without their Python layers (an encoder built
# per call, encoding detection, whitespace matching): the messages are small
# and many, several per program. ASCII only, compact, one value per text.
_encoder = json.encoder.c_make_encoder and json.encoder.c_make_encoder(
    None, _not_json, json.encoder.c_encode_basestring_ascii, None, ":", ",", False, False, True)
_scanner = json.scanner.c_make_scanner and json.scanner.c_make_scanner(json.JSONDecoder())


def _dumps(obj):
    if _encoder is None:  # a Python without the json accelerator
        return json.dumps(obj, separators=(",", ":"))
    return "".join(_encoder(obj, 0))


def _loads(data):
    if _scanner is None:
        return json.loads(data)
    s = data.decode() if type(data) is bytes else data
    try:
        obj, end = _scanner(s, 0)
    except StopIteration:
        raise ValueError("not JSON")
    if end != len(s):
        raise ValueError("more than one JSON value")
    return obj

_write = os.write
_perf = time.perf_counter
_mono = time.monotonic

# random's state as every child and every trusted test first sees it.
RANDOM_STATE = random.getstate()
BUILTINS = dict(builtins.__dict__)


def builtins_tag_reader():
    """A function that returns the builtins dict's version tag, which
    CPython changes on every change to a dict, or None where it cannot be
    read (another Python's layout: the probe below fails there, and the
    builtins are then restored before every test). Putting the builtins
    back touches every builtin object, which in a freshly forked process
    copies dozens of pages; the tag says when there is nothing to undo."""
    try:
        d = builtins.__dict__
        used = ctypes.c_ssize_t.from_address(id(d) + 16)  # ma_used, after the object header
        tag = ctypes.c_uint64.from_address(id(d) + 24)  # ma_version_tag
        if used.value != len(d):
            return None
        v0 = tag.value
        d["__ticoder_probe__"] = None
        v1 = tag.value
        del d["__ticoder_probe__"]
        v2 = tag.value
        if v0 == v1 or v1 == v2 or v0 == v2 or used.value != len(d):
            return None
        return lambda: tag.value
    except (AttributeError, TypeError, ValueError, KeyError, OSError):
        return None


BUILTINS_TAG = builtins_tag_reader()


def restore_builtins(clean=None):
    """Gives the builtins back their snapshot (BUILTINS) unless their tag
    is still clean, the one restore_builtins returned last time; returns
    the tag to pass next time."""
    if BUILTINS_TAG is not None and clean is not None and BUILTINS_TAG() == clean:
        return clean
    bdict = builtins.__dict__
    bdict.clear()
    bdict.update(BUILTINS)
    return BUILTINS_TAG() if BUILTINS_TAG is not None else None


def clip(s, n):
    if not isinstance(s, str):
        s = str(type(s).__name__)
    return s if len(s) <= n else s[:n] + "…"


def read_exact(fd, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = os.read(fd, n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return bytes(buf)


def recv():
    (n,) = struct.unpack(">I", read_exact(REQ_FD, 4))
    return _loads(read_exact(REQ_FD, n))


def send(obj):
    data = _dumps(obj).encode()
    data = struct.pack(">I", len(data)) + data
    while data:
        n = os.write(RESP_FD, data)
        data = data[n:]


def write_all(fd, data):
    while data:
        n = os.write(fd, data)
        data = data[n:]


def send_line(fd, obj):
    write_all(fd, (_dumps(obj) + "\n").encode())


def frame(*blobs):
    """marshal blobs, each behind its 4-byte length: what the worker hands
    a process the zygote forked (see recv_frame)."""
    return b"".join(struct.pack(">I", len(b)) + b for b in blobs)


def recv_frame(fd):
    """One object of a frame, read by a forked process from the worker."""
    (n,) = struct.unpack(">I", read_exact(fd, 4))
    return marshal.loads(read_exact(fd, n))


def write_until(fd, data, deadline):
    """Writes data to a pipe whose reader may not be reading yet (a process
    the zygote is forking); raises Died past deadline or if the reader is
    gone."""
    os.set_blocking(fd, False)
    try:
        while data:
            try:
                n = os.write(fd, data)
            except BlockingIOError:
                left = deadline - _mono()
                if left <= 0 or not select.select([], [fd], [], left)[1]:
                    raise Died()
                continue
            except OSError:
                raise Died()
            data = data[n:]
    finally:
        try:
            os.set_blocking(fd, True)
        except OSError:
            pass


# ------------------------------------------------------------ plain values
#
# A value crosses between processes only as plain data, encoded as JSON:
# None, bools, ints, floats and str as themselves; everything else as a
# one-key object. Subclasses of builtin types (namedtuple, Counter,
# OrderedDict, an IntEnum) are encoded as their base type's data, read with
# the base type's own methods, so no method of the program runs.


class NotPlain(Exception):
    """A value that is not built of plain data."""


class Garbled(Exception):
    """A message from a child that breaks the protocol."""


def encode(v, depth=0, budget=None):
    if budget is None:
        budget = [MAX_ITEMS]
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_DEPTH:
        raise NotPlain("too large")
    t = type(v)
    if v is None or t is bool or t is str:
        return v
    if t is float:
        return v if v - v == 0.0 else {"F": repr(v)}  # (not NaN or infinite: JSON has neither)
    if t is int:
        if -(1 << 1000) < v < (1 << 1000):
            return v
        return {"I": hex(v)}
    if t is list:
        return {"l": [encode(x, depth + 1, budget) for x in v]}
    if t is tuple:
        return {"t": [encode(x, depth + 1, budget) for x in v]}
    if t is dict:
        return {"d": [[encode(k, depth + 1, budget), encode(x, depth + 1, budget)] for k, x in v.items()]}
    if t is set:
        return {"s": [encode(x, depth + 1, budget) for x in v]}
    if t is frozenset:
        return {"f": [encode(x, depth + 1, budget) for x in v]}
    if t is bytes:
        return {"b": v.decode("latin-1")}
    if t is complex:
        return {"c": [v.real, v.imag]}
    if t is range:
        return {"r": [v.start, v.stop, v.step]}
    if t is fractions.Fraction:
        return {"q": [encode(v.numerator), encode(v.denominator)]}
    if t is decimal.Decimal:
        return {"D": str(v)}
    if t is collections.deque:
        return {"Q": [encode(x, depth + 1, budget) for x in v]}
    # Subclasses of builtins: their data, read through the base type.
    if isinstance(v, bool):
        return bool(int.__index__(v))
    if isinstance(v, int):
        return encode(int.__index__(v), depth, budget)
    if isinstance(v, float):
        return encode(float.__float__(v))
    if isinstance(v, str):
        return str.__str__(v)
    if isinstance(v, bytes):
        return {"b": bytes.__getitem__(v, slice(None)).decode("latin-1")}
    if isinstance(v, tuple):
        return {"t": [encode(x, depth + 1, budget) for x in tuple.__iter__(v)]}
    if isinstance(v, list):
        return {"l": [encode(x, depth + 1, budget) for x in list.__iter__(v)]}
    if isinstance(v, dict):
        return {"d": [[encode(k, depth + 1, budget), encode(x, depth + 1, budget)] for k, x in dict.items(v)]}
    if isinstance(v, frozenset):
        return {"f": [encode(x, depth + 1, budget) for x in frozenset.__iter__(v)]}
    if isinstance(v, set):
        return {"s": [encode(x, depth + 1, budget) for x in set.__iter__(v)]}
    raise NotPlain(t.__name__)


def decode(e, depth=0):
    """Decodes an encoded value; raises Garbled on anything malformed."""
    if depth > MAX_DEPTH + 1:
        raise Garbled("too deep")
    t = type(e)
    if e is None or t is bool or t is str or t is float or t is int:
        return e
    if t is not dict or len(e) != 1:
        raise Garbled("bad value")
    (k, x), = e.items()
    try:
        if k == "l":
            return [decode(y, depth + 1) for y in _list(x)]
        if k == "t":
            return tuple(decode(y, depth + 1) for y in _list(x))
        if k == "d":
            out = {}
            for pair in _list(x):
                if type(pair) is not list or len(pair) != 2:
                    raise Garbled("bad dict item")
                out[decode(pair[0], depth + 1)] = decode(pair[1], depth + 1)
            return out
        if k == "s":
            return {decode(y, depth + 1) for y in _list(x)}
        if k == "f":
            return frozenset(decode(y, depth + 1) for y in _list(x))
        if k == "b" and type(x) is str:
            return x.encode("latin-1")
        if k == "c" and type(x) is list and len(x) == 2 and all(type(y) in (int, float) for y in x):
            return complex(x[0], x[1])
        if k == "I" and type(x) is str and len(x) < 1 << 16:
            return int(x, 16)
        if k == "r" and type(x) is list and len(x) == 3 and all(type(y) is int for y in x):
            return range(*x)
        if k == "q" and type(x) is list and len(x) == 2:
            n, d = decode(x[0], depth + 1), decode(x[1], depth + 1)
            if type(n) is int and type(d) is int:
                return fractions.Fraction(n, d)
        if k == "F" and x in ("nan", "inf", "-inf"):
            return float(x)
        if k == "D" and type(x) is str and len(x) < 1 << 12:
            return decimal.Decimal(x)
        if k == "Q":
            return collections.deque(decode(y, depth + 1) for y in _list(x))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, RecursionError, decimal.InvalidOperation) as err:
        raise Garbled("bad value: %s" % type(err).__name__)
    raise Garbled("bad value")


def _list(x):
    if type(x) is not list:
        raise Garbled("bad value")
    return x


def plain_repr(v):
    """A bounded repr of a decoded (plain) value, computed by the worker."""
    try:
        s = repr(v)
    except (RecursionError, ValueError):
        return "<value too large to show>"
    return clip(s, MAX_VALUE)


def exc_name(e):
    return clip(type(e).__name__, MAX_NAME)


_exc_classes = {}


def exception_class(name):
    """The exception class a test sees for an exception the program raised:
    the builtin of that name, or an Exception subclass named like it."""
    cls = BUILTINS.get(name)
    if isinstance(cls, type) and issubclass(cls, Exception):
        return cls
    cls = _exc_classes.get(name)
    if cls is None:
        if len(_exc_classes) > 1000:
            _exc_classes.clear()
        cls = _exc_classes[name] = type(name, (Exception,), {})
    return cls


# ----------------------------------------------------------- channels


class TimedOut(BaseException):
    pass


class Died(BaseException):
    pass


class Flood(BaseException):
    pass


POLL_FIRST = 0.002  # seconds a reader with a bell first sleeps between looks at the pipe
POLL_MAX = 0.032  # and at most


class LineReader:
    """Reads newline-terminated JSON messages from a child's pipe.

    With a bell (the read end of a pipe on which the child writes a byte
    once it has written what the reader waits for, see Stamp.ring), the
    reader sleeps on the bell instead of the pipe: a process that answers
    a batch of calls wakes the worker once, not once per answer. The
    reader still looks at the pipe every few milliseconds (POLL_FIRST,
    doubling up to POLL_MAX), so a child that is slow or hangs in the
    middle of a batch is read answer by answer as before; it waits on the
    pipe itself while a message is arriving in pieces, and once the bell
    is closed (the child and whatever it started have ended)."""

    def __init__(self, fd, bell=None):
        self.fd = fd
        self.bell = bell
        self.buf = bytearray()
        self.scan = 0
        self.eof = False
        if bell is not None:
            os.set_blocking(fd, False)
            os.set_blocking(bell, False)

    def read(self, deadline, bell=True):
        """The next message; bell=False waits on the pipe itself (for a
        message the child sends without ringing, see child_run)."""
        tick = POLL_FIRST
        while True:
            msg = self.buffered()
            if msg is not None:
                return msg
            if len(self.buf) > MAX_LINE:
                raise Flood()
            if self.eof:
                raise Died()
            if self.bell is not None and self._drain():
                continue
            left = None
            if deadline is not None:
                left = deadline - _mono()
                if left <= 0:
                    raise TimedOut()
            if self.bell is None or self.buf or not bell:
                # No bell, or a message is arriving in pieces: the pipe.
                ready, _, _ = select.select([self.fd], [], [], left)
                if ready and self.bell is None:
                    chunk = os.read(self.fd, 1 << 16)
                    if not chunk:
                        self.eof = True
                    self.buf += chunk
                continue
            wait = tick if left is None else min(left, tick)
            tick = min(2 * tick, POLL_MAX)
            if select.select([self.bell], [], [], wait)[0]:
                try:
                    if not os.read(self.bell, 4096):
                        self.bell = None  # closed: wait on the pipe from now on
                except BlockingIOError:
                    pass

    def buffered(self):
        """The next message if a whole one is already read, else None
        (raises Garbled for one that is not JSON, or is null)."""
        i = self.buf.find(b"\n", self.scan)
        if i < 0:
            self.scan = len(self.buf)
            return None
        line = bytes(self.buf[:i])
        del self.buf[:i + 1]
        self.scan = 0
        try:
            msg = _loads(line)
        except (ValueError, RecursionError):
            raise Garbled("not JSON")
        if msg is None:
            raise Garbled("null")
        return msg

    def _drain(self):
        """Reads what the pipe holds without waiting; returns whether there
        was anything (or its end)."""
        try:
            chunk = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return False
        if not chunk:
            self.eof = True
        self.buf += chunk
        return True


def get_dict(msg, *allowed):
    if type(msg) is not dict:
        raise Garbled("unexpected message")
    for k in msg:
        if k not in allowed:
            raise Garbled("unexpected message")
    return msg


# ------------------------------------------------------------ child side


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
    wanted_names), or ("-",) for a test that did not compile. token stamps
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
    try:
        code = compile(program, PROGRAM_FILE, "exec")
    except BaseException as e:  # noqa: BLE001
        name = exc_name(e)
        for j in range(start, len(ctests)):
            out({"j": j, "x": name, "s": 0.0})
        out.ring()
        return
    for j in range(start, len(ctests)):
        c = ctests[j]
        kind = c[0]
        if kind == "-":  # the worker could not compile this test
            continue
        clean = restore_builtins(clean)
        g = program_globals()
        # The test's time as C sees it (its module code and its part of the
        # test), without the fork or the worker's scheduling: what the
        # worker records as the test's time and scales reference limits by.
        t0 = _perf()
        try:
            exec(code, g)
            # Undo whatever the program's module code did to the builtins
            # before the test's own code runs.
            clean = restore_builtins(clean)
            if kind == "A":
                if c[1] is not None:
                    exec(c[1], g)
                msg = value_message(j, eval(c[2], g))
            elif kind == "P":
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
# SuiteRun, and suite.py for the rules). C never sees an expected output.

SUITE_SMALL = 64 << 10  # bytes of an encoded output the reference's table keeps as a value
SUITE_BIG = 8 << 20  # at most, where the rules need values (floats, atol, oracles); else a digest
SUITE_ITEMS = 1 << 22  # elements of an output sent as a value


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
    (marshalled argument lists), modes (per input: "v", send the output;
    "d", send its digest), transform ("not_none" or ""), keep (0; or, when
    the reference's outputs are recorded, the largest value to send)). It
    calls entry on each input from first on, in order, and writes one
    message per input without ringing (the worker looks at the pipe every
    few milliseconds): {i, s, v} the output as plain data; {i, s, d, r} its
    digest and a preview; {i, s, x} an exception; {i, s, np, why} not plain
    data. Before them {i: -1, s}: the module ran."""
    _, entry, blob, modes, transform, keep = c
    inputs = marshal.loads(blob)
    fn = g.get(entry)
    if not callable(fn):
        out({"j": j, "x": "NameError", "s": _perf() - t0})
        out.ring()
        return
    out({"j": j, "i": -1, "s": _perf() - t0})
    # Most outputs are small: their messages are written as text here,
    # without building a dict (see suite_output for the others).
    head = '{"k":%s,"j":%d,"i":' % (_dumps(out.token), j)
    for i in range(first, len(inputs)):
        args = copy.deepcopy(inputs[i]) if keep else inputs[i]
        t1 = _perf()
        try:
            v = fn(*args)
        except BaseException as e:  # noqa: BLE001 - SystemExit too
            out({"j": j, "i": i, "x": exc_name(e), "s": _perf() - t1})
            out.ring()
            continue
        s = _perf() - t1
        if type(v).__module__ == "numpy":
            v = numpy_scalar(v)
        if transform == "not_none" and (keep or type(v) is not bool):
            v = v is not None  # (evalplus records the reference's as is-not-None)
        text = None
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
        msg.pop("v", None)
        msg["np"], msg["why"] = clip(type(v).__name__, MAX_NAME), clip(str(e), MAX_NAME)
        return msg
    try:
        msg["r"] = clip(_Preview().repr(v), MAX_VALUE)
    except BaseException:  # noqa: BLE001 - a hostile __repr__ of a subclass
        msg["r"] = "<unprintable>"
    return msg


# ------------------------------------------------------------ worker side


def kill_others(c=None):
    """Kills every process of this sandbox but the worker and the zygote,
    and reaps the worker's own; c is a program's process, which the zygote
    reaps (a zombie runs nothing; ZYGOTE.reap tells how it ended). Raises
    Dirty when processes survive (a sandbox that cannot be cleaned is
    replaced)."""
    ended = False  # c is known to have ended
    if c is not None:
        pidfd = None
        try:
            pidfd = os.pidfd_open(c)
        except OSError:
            pass
        kill_group(c)
        if pidfd is not None:  # readable once c has ended
            try:
                ended = bool(select.select([pidfd], [], [], 5.0)[0])
            finally:
                os.close(pidfd)
    if not IS_INIT:  # no pid namespace: only the program's own group
        reap_own()
        return
    spare = {1, ZYGOTE.pid}
    if c is not None:
        # Usually the program's process was all there was: when the
        # worker's only child is the zygote, and the zygote's only one is
        # that ended process, nothing else runs (every process of the
        # namespace descends from the worker; orphans become its children).
        reap_own()
        # (A pidfd that became readable means c has ended: no need to read
        # its state from /proc.)
        mine, zygotes = ZYGOTE.children_of_worker(), ZYGOTE.children()
        if mine == [ZYGOTE.pid] and zygotes is not None and set(zygotes) <= {c} and (not zygotes or ended or zombie(c)):
            return
    for p in pids():
        if p not in spare:
            _kill(p)
    for attempt in range(2000):
        reap_own()
        now = pids()
        left = [p for p in now if p not in spare and not zombie(p, (ZYGOTE.pid,))]
        if not left:
            if ZYGOTE.pid not in now or zombie(ZYGOTE.pid):
                raise Dirty()  # the program killed the zygote
            return
        for p in left:
            if not zombie(p):
                _kill(p)
        if attempt > 10:
            time.sleep(0.001)
    raise Dirty()


def kill_group(pid):
    """Kills process pid and its process group (it leads one: child_setup)."""
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except (ProcessLookupError, PermissionError):
            pass


def children_fd(pid):
    """An open descriptor of pid's children list in /proc (None if it cannot
    be opened), read again for each program with children_at."""
    try:
        return os.open("/proc/%d/task/%d/children" % (pid, pid), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None


def children_at(fd):
    """The pids listed by a children_fd descriptor (None if unknown)."""
    if fd is None:
        return None
    try:
        data = os.pread(fd, 1 << 16, 0)
        if len(data) >= 1 << 16:
            return None  # possibly cut short
        return [int(x) for x in data.split()]
    except (OSError, ValueError):
        return None


def _kill(p):
    try:
        os.kill(p, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def pids():
    return [int(n) for n in os.listdir("/proc") if n.isdigit()]


def zombie(p, parents=None):
    """Reports whether p has ended and waits to be reaped (with parents:
    by one of them)."""
    try:
        with open("/proc/%d/stat" % p, "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return fields[0] == b"Z" and (parents is None or int(fields[1]) in parents)
    except (OSError, IndexError, ValueError):
        return False


def reap_own():
    """Reaps every exited child of the worker (orphans come to PID 1)."""
    reap_into(None)


CLEAN_TAG = [None]  # the builtins' tag as the zygote leaves them to its children


class Zygote:
    """A process forked from the worker before any request. Every process
    that runs untrusted code (a program's, a generated test's judge, an
    expected value's or a tool call's) is forked from it, so none shares
    memory with the worker (no test, expected value, request or result is
    in its address space, and the worker's own work between forks copies
    no page). The zygote itself is never sent a program, a test or any
    other data of a request, only limits and a directory name: what a
    process is to run it reads after the fork, from the worker, over a
    pipe of its own (see child_main), so no byte of one program is left
    in the memory the next one is forked from."""

    def __init__(self):
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        pid = os.fork()
        if pid == 0:
            try:
                self.sock.close()
                zygote_main(theirs)
            finally:
                os._exit(0)
        theirs.close()
        self.pid = pid
        self.sent = 0  # spawns sent: a spawn's ticket is its number
        self.read = 0  # pid replies read
        self.pids = {}  # ticket -> pid read and not yet asked for
        # The worker's and the zygote's children lists, kept open: kill_others
        # reads them after every program.
        self._mine = children_fd(os.getpid()) if IS_INIT else None
        self._theirs = children_fd(pid) if IS_INIT else None

    def children_of_worker(self):
        """The worker's children (None if unknown)."""
        return children_at(self._mine)

    def children(self):
        """The zygote's children (None if unknown)."""
        return children_at(self._theirs)

    def send(self, obj):
        self.wake()
        data = _dumps(obj).encode()
        self.sock.sendall(struct.pack(">I", len(data)) + data)

    def wake(self):
        """Continues the zygote, which a program may have stopped."""
        try:
            os.kill(self.pid, signal.SIGCONT)
        except OSError:
            pass

    def spawn(self, limits, workdir=None):
        """Has the zygote fork a process under limits, working in
        TMP/workdir (a fresh directory; TMP itself if None), with its ends
        of three pipes; returns the worker's ends (its messages, its input,
        its bell) and the spawn's ticket. The process first reads what it
        is to run from its input (see child_main). The worker does not wait
        for the fork: the pid is read later, with child_pid(ticket)."""
        data = _dumps({"op": "spawn", "limits": limits, "dir": workdir}).encode()
        data = struct.pack(">I", len(data)) + data
        rec_r, rec_w = os.pipe()
        ctl_r, ctl_w = os.pipe()
        bell_r, bell_w = os.pipe()
        try:
            self.wake()
            sent = socket.send_fds(self.sock, [data], [rec_w, ctl_r, bell_w])
            self.sock.sendall(data[sent:])
        except OSError:
            for fd in (rec_r, ctl_w, bell_r):
                os.close(fd)
            raise Dirty()
        finally:
            for fd in (rec_w, ctl_r, bell_w):
                os.close(fd)
        self.sent += 1
        return rec_r, ctl_w, bell_r, self.sent

    def _read_pid(self):
        try:
            pid = struct.unpack(">q", self._exact(8))[0]
        except (OSError, EOFError):
            raise Dirty()
        self.read += 1
        self.pids[self.read] = pid

    def child_pid(self, ticket):
        """The pid of the process that spawn's ticket forked. The zygote
        answers spawns in order: the pids of earlier spawns are kept for
        their own callers."""
        while ticket not in self.pids:
            if self.read >= ticket:
                raise Dirty()  # asked for twice: a bug, not the program's doing
            self._read_pid()
        return self.pids.pop(ticket)

    def end(self, ticket):
        """Kills the process that spawn's ticket forked, with its process
        group, and reaps it; returns its wait status (None if unknown)."""
        pid = self.child_pid(ticket)
        kill_group(pid)
        return self.reap(pid)

    def reap(self, pid):
        """Reaps one of the zygote's children; returns its wait status
        (None if unknown)."""
        while self.read < self.sent:  # the pid replies come first
            self._read_pid()
        try:
            self.send({"op": "reap", "pid": pid})
            (n,) = struct.unpack(">I", self._exact(4))
            return _loads(self._exact(n)).get("status")
        except (OSError, EOFError, ValueError):
            raise Dirty()

    def _exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise EOFError
            buf += chunk
        return buf


def zygote_main(sock):
    """The zygote's loop: fork a process (child_main), reap one."""
    os.closerange(3, sock.fileno())
    os.closerange(sock.fileno() + 1, 1 << 16)
    CLEAN_TAG[0] = restore_builtins()  # what every forked process starts from
    statuses = {}  # wait statuses of processes reaped early

    def exact(n):
        buf = b""
        while len(buf) < n:
            chunk = sock.recv(n - len(buf))
            if not chunk:
                raise EOFError
            buf += chunk
        return buf

    while True:
        try:
            head, fds, _, _ = socket.recv_fds(sock, 4, 3)
            if not head:
                return
            head += exact(4 - len(head))
            (n,) = struct.unpack(">I", head)
            msg = _loads(exact(n))
        except (EOFError, OSError, ValueError):
            return
        op = msg.get("op")
        if op != "spawn" or len(fds) != 3:
            for fd in fds:
                os.close(fd)
            if op == "spawn":
                return  # the worker breaks its own protocol: it will see
        if op == "spawn":
            reap_into(statuses)
            rec_w, ctl_r, bell_w = fds
            d = msg.get("dir")
            # A program works in /tmp itself (emptied after it), so that its
            # process makes no directory for the worker to remove: both cost
            # more than the rest of a fork here.
            workdir = TMP if d is None else TMP + "/" + d
            pid = os.fork()
            if pid == 0:
                try:
                    child_setup((rec_w, ctl_r, bell_w), msg["limits"], workdir)
                    child_main(rec_w, ctl_r, bell_w)
                finally:
                    os._exit(0)
            for fd in fds:
                os.close(fd)
            sock.sendall(struct.pack(">q", pid))
        elif op == "reap":
            st = statuses.pop(msg["pid"], None)
            if st is None:
                try:
                    _, st = os.waitpid(msg["pid"], 0)
                except ChildProcessError:
                    st = None
            data = _dumps({"status": st}).encode()
            sock.sendall(struct.pack(">I", len(data)) + data)


def child_main(out_w, in_r, bell_w):
    """A process the zygote forked: reads from the worker what it is to run
    (a marshal frame, see frame) and runs it. ("run", token, program,
    start, batch, first) and then the request's tests: a program's process, C;
    ("judge", …): a generated test's judge; ("task", …): an expected value
    or a tool call."""
    try:
        head = recv_frame(in_r)
        kind = head[0]
        if kind == "run":
            ctests = recv_frame(in_r)
    except BaseException:  # noqa: BLE001 - the worker went away
        return
    if kind == "run":
        _, token, program, start, batch, first = head
        del head
        os.set_blocking(bell_w, False)
        try:
            batch = _loads(batch)
        except ValueError:
            return
        child_run(out_w, LineReader(in_r), program, ctests, start, token, batch, bell_w, first)
    elif kind == "judge":
        judge_main(out_w, in_r, head)
    elif kind == "task":
        task_main(out_w, head)


def reap_into(statuses):
    """Reaps the calling process's ended children; with statuses (the
    zygote's), keeps their wait statuses (a bounded number) for the worker
    to ask about."""
    while True:
        try:
            pid, st = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if statuses is None:
            continue
        if len(statuses) > 1024:
            statuses.clear()
        statuses[pid] = st


def describe(status):
    if status is None:
        return "died"
    if os.WIFSIGNALED(status):
        return "signal %d" % os.WTERMSIG(status)
    if os.WIFEXITED(status):
        return "exit status %d" % os.WEXITSTATUS(status)
    return "died"


class Dirty(Exception):
    """/tmp could not be emptied: this sandbox must be replaced."""


class NotStarted(Dirty):
    """The sandbox broke before a program began (the zygote is gone): not
    that program's doing."""


STARTED = [False]  # whether this worker has started a program yet


def empty_tmp():
    """Removes everything under /tmp without following links. Raises Dirty
    when something is left (the worker is then replaced by a fresh one)."""
    clear_dir(TMP)


def remove_tree(d):
    """Removes directory d and everything under it without following
    links. Raises Dirty when something is left."""
    try:
        clear_dir(d)
        os.rmdir(d)
    except FileNotFoundError:
        return
    except OSError:
        raise Dirty()


def clear_dir(root):
    """Removes everything under root without following links. Raises Dirty
    when something is left."""
    try:
        top = os.listdir(root)
    except FileNotFoundError:
        if root == TMP:
            raise Dirty()
        return
    except OSError:
        try:  # a program may have made the directory unreadable
            os.chmod(root, 0o700)
            top = os.listdir(root)
        except OSError:
            raise Dirty()
    if not top:
        return
    if len(top) == 1:
        # Usually all a program left is its empty working directory: rmdir
        # removes only an empty directory (never a link or what it names).
        try:
            os.rmdir(os.path.join(root, top[0]))
            return
        except OSError:
            pass  # not empty, not a directory, or unreadable: the long way
    stack = [root]
    dirs = []
    budget = 200000
    while stack:
        d = stack.pop()
        try:
            if d != root:
                os.chmod(d, 0o700)  # a program may have made it unreadable
            with os.scandir(d) as it:
                entries = list(it)
        except OSError:
            raise Dirty()
        for e in entries:
            budget -= 1
            if budget < 0:
                raise Dirty()
            try:
                if e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
                    dirs.append(e.path)
                else:
                    os.unlink(e.path)
            except OSError:
                raise Dirty()
    for d in reversed(dirs):
        try:
            os.rmdir(d)
        except OSError:
            raise Dirty()


class Test:
    """A test as the worker holds it."""

    __slots__ = ("kind", "setup", "inp", "expected", "code", "bad", "legacy", "prefetch", "wanted", "entry", "suite")

    def __init__(self):
        self.kind = "J"
        self.setup = self.inp = self.expected = self.code = self.bad = self.legacy = None
        self.prefetch = ()
        self.wanted = ()  # the names the test takes from the program (wanted_names)
        self.entry = ""  # the function under test, taken from the program even if a builtin's name
        self.suite = None  # a suite test's CompiledSuite


_compiled = {}


def compile_tests(raw, allow_objects):
    """Compiles each test in the worker and decides who judges it. The same
    tests come in request after request (one problem's, for its many
    programs): each is compiled once and kept."""
    if len(_compiled) > 20000:
        _compiled.clear()
    out = []
    for t in raw:
        if t.get("suite") is not None:
            out.append(compile_suite_test(t["suite"]))
            continue
        key = (allow_objects, bool(t.get("trusted")), t.get("setup"), t.get("code"), t.get("input"), t.get("expected"), t.get("entry"))
        w = _compiled.get(key)
        if w is None:
            w = _compiled[key] = compile_test(t, allow_objects)
        out.append(w)
    return out


def compile_test(t, allow_objects):
    """Compiles one test (a Test, never changed afterwards)."""
    w = Test()
    entry = t.get("entry") or ""
    if type(entry) is str and entry.isidentifier() and not entry.startswith("__"):
        w.entry = entry
    try:
        w.setup = compile(t["setup"], "<setup>", "exec") if t.get("setup") else None
        if allow_objects:
            w.kind = "L"
            if t.get("input"):
                w.legacy = (w.setup, compile(t["input"], "<input>", "eval"), compile(t["expected"], "<expected>", "eval"), None)
            else:
                w.legacy = (w.setup, None, None, compile(t["code"], "<test>", "exec"))
        elif t.get("trusted"):
            w.kind = "T"
            w.code = compile(t["code"], "<test>", "exec")
            w.wanted = wanted_names(t.get("setup") or "", t["code"], w.entry)
            w.prefetch = prefetch_calls(literal_calls(t["code"]))
        else:
            w.code = compile(t["code"], "<test>", "exec")
            w.wanted = wanted_names(t.get("setup") or "", t["code"], w.entry)
            if t.get("input"):
                w.inp = compile(t["input"], "<input>", "eval")
                w.expected = expected_value(t["expected"], t.get("setup") or "")
                if w.expected is not None:
                    w.kind = "A"
    except BaseException as e:  # noqa: BLE001
        w.bad = exc_name(e)
    return w


def wanted_names(setup, code, entry):
    """The names a test (its setup, then its code) takes from the
    program's module: the global names it uses and does not bind itself,
    but for builtins and dunders, and the function under test, entry,
    whatever its name. A program's other names never reach the test, so a
    program that also defines abs, len or isinstance does not change what
    the test's own uses of them do."""
    src = setup + "\n" + code if setup else code
    used = set()
    try:
        top = symtable.symtable(src, "<test>", "exec")
        bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
        tables = [top]
        while tables:
            t = tables.pop()
            tables.extend(t.get_children())
            for sym in t.get_symbols():
                if sym.is_referenced() and (t is top or sym.is_global()):
                    used.add(sym.get_name())
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        bound = set()
    out = sorted(n for n in used - bound if not n.startswith("__") and n not in BUILTINS and n != entry)
    if entry:
        out.insert(0, entry)
    return tuple(out[:MAX_NAMES])


_expected_cache = {}


def expected_value(src, setup):
    """The plain value of an expected-value expression as a 1-tuple, or
    None when it is not plain data without the program. Literals are parsed
    here; anything else is evaluated once in a child that runs no program."""
    if not setup:
        try:
            return (ast.literal_eval(src),)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
    key = (src, setup)
    if key in _expected_cache:
        return _expected_cache[key]
    if len(_expected_cache) > 20000:
        _expected_cache.clear()
    out = run_task(("expected", src, setup), 2.0, {"memory": 1 << 30, "nproc": 1}, "expected")
    value = None
    if out.get("ok"):
        try:
            value = (decode(out["result"]),)
        except Garbled:
            value = None
    _expected_cache[key] = value
    return value


def _eval_expected(src, setup):
    g = {}
    if setup:
        exec(compile(setup, "<setup>", "exec"), g)
    return encode(eval(compile(src, "<expected>", "eval"), g))


def _tool_call(src, name, arg):
    g = {"__name__": "ticoder_tool"}
    exec(compile(src, "<tool>", "exec"), g)
    return g[name](arg)


def task_main(wfd, head):
    """A task's process (see run_task): runs it and writes its JSON reply."""
    try:
        if head[1] == "expected":
            out = {"ok": True, "result": _eval_expected(head[2], head[3])}
        elif head[1] == "call":
            out = {"ok": True, "result": _tool_call(head[2], head[3], head[4])}
        else:
            out = {"ok": False, "error": "unknown task"}
    except BaseException as e:  # noqa: BLE001
        out = {"ok": False, "error": clip("%s: %s" % (type(e).__name__, e), MAX_TEXT)}
    try:
        data = _dumps(out).encode()
    except BaseException as e:  # noqa: BLE001
        data = _dumps({"ok": False, "error": clip("result is not JSON: %s" % e, MAX_TEXT)}).encode()
    write_all(wfd, data)


MAX_PREFETCH = 256


def call_key(name, args, kwargs):
    """A call of the program's function name with encoded arguments, as the
    JSON text that both identifies it (a prefetched call and the test's own
    call of it have the same text) and carries it to C in a batch."""
    return _dumps([name, args, kwargs])


def prefetch_calls(calls):
    """Encodes a test's literal calls once, when the test is compiled:
    [(function name, call_key)]. A call whose arguments are not plain data
    is left out (the test then makes it on its own)."""
    out = []
    for name, args, kwargs in calls:
        try:
            out.append((name, call_key(name, [encode(x) for x in args], {str(n): encode(x) for n, x in kwargs.items()})))
        except (NotPlain, RecursionError, TypeError, ValueError):
            pass
    return tuple(out)


def literal_calls(src):
    """The calls a trusted test makes with literal arguments, in source
    order: [(function name, args, kwargs)]. `def check(candidate): …` called
    as `check(f)` at the end maps candidate to f. The worker sends these to
    the program's process in one message before the test runs, so that a
    test of many asserts costs one round trip, not one per call; a call the
    test then makes that is not among them (or comes out of order) is made
    on its own."""
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    alias = {}
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for n in tree.body:
        if (isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name)
                and n.value.func.id in defs):
            params = [a.arg for a in defs[n.value.func.id].args.args]
            for p, a in zip(params, n.value.args):
                if isinstance(a, ast.Name):
                    alias[p] = a.id
    out = []
    try:
        for node in ast.walk(tree):
            if len(out) >= MAX_PREFETCH:
                break
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                continue
            try:
                args = [ast.literal_eval(a) for a in node.args]
                kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            out.append(((node.lineno, node.col_offset), alias.get(node.func.id, node.func.id), args, kwargs))
    except RecursionError:
        return ()
    out.sort(key=lambda c: c[0])  # ast.walk is breadth first: back to source order
    return tuple(c[1:] for c in out)


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

    def pid(self):
        """C's pid (raises Dirty when the zygote is gone)."""
        if self._pid is None:
            self._pid = ZYGOTE.child_pid(self.ticket)
        return self._pid

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
        /proc/PID/schedstat, since it started: its earlier tests' too), and
        the time from began until C started (a zygote that waits for a CPU
        forks C late), and while C is ready to run but has run for less than
        the limit in all, the rest of the limit (the kernel counts a wait
        only once it ends). A CPU shared with busy processes also runs C
        slower (caches, the sibling hyperthread): a C that has lost time
        may run for the limit plus what it lost, up to twice the limit (a
        first test also pays for C's start, the fork's copied pages). On a
        quiet machine this is the wall clock, and
        a loaded machine's verdicts are a quiet one's; a test may get more,
        never less, than its limit. Raises TimedOut."""
        deadline = began + limit
        cap = began + limit * WAIT_FACTOR + WAIT_EXTRA
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
                    later = began + limit + lost
                    if ready and ran < limit + min(lost, limit):
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


class PlainOnly(BaseException):
    """A program returned something other than plain data."""

    def __init__(self, type_name, why):
        BaseException.__init__(self, type_name)
        self.type_name = type_name
        self.why = why


def reply_value(reply):
    if "r" in reply:
        return decode(reply["r"])
    if "np" in reply:
        raise PlainOnly(clip(reply["np"], MAX_NAME), clip(reply.get("why", ""), MAX_NAME))
    raise exception_class(clip(reply.get("x"), MAX_NAME))()


class Proxy:
    """Stands for one of the program's functions in a test: calling it runs
    the function in the program's process, with plain data both ways."""

    __slots__ = ("__name__", "_call")

    def __init__(self, name, call):
        self.__name__ = name
        self._call = call

    def __call__(self, *args, **kwargs):
        try:
            a = [encode(x) for x in args]
            k = {str(n): encode(x) for n, x in kwargs.items()}
        except NotPlain as e:
            raise TypeError("ticoder passes only plain data to the program (got %s)" % e)
        return reply_value(self._call(self.__name__, a, k))

    def __repr__(self):
        return "<program function %s>" % self.__name__


def test_globals(names, call, wanted):
    """A test's globals from the names C reported (names_message): proxies
    of the program's functions, its plain values, and modules it imported
    under their own names. Only the names the test takes (wanted) are
    accepted; the test's builtins are the real ones."""
    g = {"__name__": "__main__"}
    if type(names) is not dict:
        raise Garbled("bad names")
    for k, v in names.items():
        if type(k) is not str or k not in wanted:
            raise Garbled("bad name")
        if v == "f":
            g[k] = Proxy(k, call)
        elif type(v) is list and len(v) == 2 and v[0] == "v":
            g[k] = decode(v[1])
        elif type(v) is list and len(v) == 2 and v[0] == "m" and type(v[1]) is str:
            # Only a module already loaded here, and only under its own name
            # (`import os.path as path` too): a program cannot hand a test
            # another module in place of the one it names.
            mod = sys.modules.get(v[1])
            if mod is not None and v[1].rsplit(".", 1)[-1] == k:
                g[k] = mod
        else:
            raise Garbled("bad name kind")
    return g


def run_test_code(w, g):
    """Runs a test's code in g; returns (outcome, exception text). The
    function under test stays the program's even where the setup (a
    benchmark's prompt, say) defines a stub of it."""
    random.setstate(RANDOM_STATE)
    tested = g.get(w.entry) if w.entry else None
    try:
        if w.setup is not None:
            exec(w.setup, g)
            if tested is not None:
                g[w.entry] = tested
        exec(w.code, g)
        return "pass", None
    except AssertionError:
        return "fail", None
    except PlainOnly as e:
        return "fail", not_plain_text(e.type_name, e.why)
    except (TimedOut, Died, Flood, Garbled):
        raise
    except BaseException as e:  # noqa: BLE001 - SystemExit too
        return "error", exc_name(e)
    finally:
        WORKER_TAG[0] = restore_builtins(WORKER_TAG[0])
        random.setstate(RANDOM_STATE)


WORKER_TAG = [None]  # the builtins' tag after this process last restored them


def not_plain_text(type_name, why):
    if why == "too large":
        return "returned a value too large to compare"
    if why == "too deep":
        return "returned a value nested too deeply to compare"
    return "returned a %s object, not plain data (--allow-objects to compare objects)" % type_name


def judge_trusted(w, j, names, sess, deadline):
    """A hidden test in the worker, against proxies of the program."""
    g = test_globals(names, lambda n, a, k: sess.call(n, a, k, deadline), w.wanted)
    # (child_run keeps the same calls of a batch sent with the spawn.)
    sess.prefetch(j, [key for name, key in w.prefetch if names.get(name) == "f"])
    outcome, exc = run_test_code(w, g)
    if sess.broken is not None:  # the test code swallowed the failure
        raise sess.broken
    return outcome, exc


def judge_forked(w, j, names, sess, deadline, limits):
    """A generated test in a judge process of its own, forked from the
    zygote, so that it holds nothing of the worker's (no hidden test, no
    expected value, no other request): it gets its own test and the
    program's names, its calls are relayed (and checked) by the worker,
    and only its verdict is read from it. What it leaves is removed before
    C's next test: its processes, its directory."""
    test_globals(names, None, w.wanted)  # validate before anything is forked
    workdir = "judge-" + os.urandom(8).hex()
    from_j_r, to_j_w, bell_r, ticket = ZYGOTE.spawn(limits, workdir)
    os.close(bell_r)  # a judge's messages are few: no bell
    jrd = LineReader(from_j_r)
    try:
        try:
            write_until(to_j_w, frame(marshal.dumps(("judge", w.setup, w.code, names, w.wanted, w.entry))), deadline)
        except Died:
            return "crash", "test process died"
        while True:
            try:
                msg = get_dict(jrd.read(deadline), "c", "a", "k", "o", "e")
            except (Died, Flood, Garbled):
                return "crash", "test process died"
            if "o" in msg:
                o, e = msg.get("o"), msg.get("e")
                if o not in ("pass", "fail", "error") or (e is not None and type(e) is not str):
                    return "crash", "garbled verdict"
                return o, (clip(e, MAX_TEXT) if e else None)
            name, a, k = msg.get("c"), msg.get("a", []), msg.get("k", {})
            if names.get(name) != "f" or type(a) is not list or type(k) is not dict:
                return "crash", "garbled call"
            # Re-encode what the test sends: the program gets plain data.
            try:
                a = [encode(decode(x)) for x in a]
                k = {str(n): encode(decode(x)) for n, x in k.items()}
            except (Garbled, NotPlain):
                return "crash", "garbled call"
            reply = sess.call(name, a, k, deadline)
            try:
                if "r" in reply:
                    reply = {"r": encode(decode(reply["r"]))}
                elif "np" in reply:
                    reply = {"np": clip(reply["np"], MAX_NAME), "why": clip(reply.get("why", ""), MAX_NAME)}
                else:
                    reply = {"x": clip(reply.get("x"), MAX_NAME)}
            except NotPlain:
                raise Garbled("bad value")
            try:
                send_line(to_j_w, reply)
            except OSError:
                return "crash", "test process died"
    finally:
        os.close(to_j_w)
        os.close(from_j_r)
        end_judge(ticket, workdir, sess)


def judge_main(wfd, rfd, head):
    """A judge's process (see judge_forked): runs one generated test
    against proxies whose calls go to the worker."""
    _, setup, code, names, wanted, entry = head
    w = Test()
    w.setup, w.code, w.wanted, w.entry = setup, code, wanted, entry
    rd = LineReader(rfd)

    def call(n, a, k):
        send_line(wfd, {"c": n, "a": a, "k": k})
        return get_dict(rd.read(None), "r", "x", "np", "why")

    try:
        outcome, exc = run_test_code(w, test_globals(names, call, wanted))
        send_line(wfd, {"o": outcome, "e": exc})
    except BaseException:  # noqa: BLE001
        pass


def end_judge(ticket, workdir, sess):
    """Kills a judge and whatever it started, reaps it and removes its
    directory, leaving C (sess) running. Raises Dirty when that fails."""
    ZYGOTE.end(ticket)
    kill_strays(sess.pid())
    remove_tree(TMP + "/" + workdir)


def kill_strays(c):
    """Kills every process of this sandbox but the worker, the zygote and
    C (c): what a judge started. (A process C started is killed too unless
    it is still C's child.) Raises Dirty when processes survive."""
    if not IS_INIT:
        return
    reap_own()
    mine, zygotes = ZYGOTE.children_of_worker(), ZYGOTE.children()
    if mine == [ZYGOTE.pid] and zygotes is not None and set(zygotes) <= {c}:
        return  # the usual case: the judge started nothing
    spare = {1, ZYGOTE.pid, c}
    for attempt in range(2000):
        for p in pids():
            if p not in spare and not zombie(p):
                _kill(p)
        reap_own()
        # Zombies of the worker are reaped above; those of the zygote (the
        # next spawn reaps them) and of C (its own children) run nothing.
        if not [p for p in pids() if p not in spare and not zombie(p, (ZYGOTE.pid, c))]:
            return
        if attempt > 10:
            time.sleep(0.001)
    raise Dirty()


def judge_value(w, msg):
    """Decides an `assert CALL == LITERAL` test from the value C reported."""
    msg = get_dict(msg, "j", "v", "x", "np", "r", "why")
    if "x" in msg:
        x = msg["x"]
        if type(x) is not str:
            raise Garbled("bad exception")
        return ("fail" if x == "AssertionError" else "error"), clip(x, MAX_NAME), None
    if "np" in msg:
        shown = msg.get("r")
        return "fail", not_plain_text(clip(msg["np"], MAX_NAME), clip(msg.get("why", ""), MAX_NAME)), (clip(shown, MAX_VALUE) if type(shown) is str else None)
    if "v" not in msg:
        raise Garbled("no value")
    value = decode(msg["v"])
    try:
        ok = value == w.expected[0]
    except RecursionError:
        ok = False
    return ("pass" if ok else "fail"), None, plain_repr(value)


# ------------------------------------------------------------ suites, worker side

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
        self.blob = marshal.dumps(self.inputs)
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
        """What C gets of this suite (see child_suite)."""
        return ("P", self.entry, self.blob, self.modes, "not_none" if self.oracle == "not_none" else "", self.keep)

    def value(self, i):
        """The expected output of input i, decoded once."""
        if i not in self.values:
            if len(self.values) > 4096:
                self.values.clear()
            self.values[i] = decode(self.expected[i]["v"])
        return self.values[i]


def compile_suite_test(body):
    """A suite test: body is a Suite in full, or only its id once this worker
    has it (Go sends a suite to a worker once)."""
    w = Test()
    w.kind = "P"
    try:
        sid = body["id"]
        if "entry" in body:
            SUITES[sid] = CompiledSuite(body)
            while len(SUITES) > SUITE_SLOTS:
                SUITES.popitem(last=False)
        w.suite = SUITES[sid]
    except KeyError:
        w.bad = "suite not loaded"
    except (ValueError, TypeError, IndexError, AttributeError, RecursionError, MemoryError) as e:
        w.bad = clip("bad suite: %s" % e, MAX_TEXT)
    return w


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
        so far (see load_delay)."""
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
        return get_dict(msg, "j", "i", "s", "v", "d", "r", "x", "np", "why", "f")

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
        why = self.judge.check(s.inputs[i], out, exp)
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


def load_suite_module():
    """Reads suite.py (the frame after this file) and makes it the module
    "suite"."""
    global suite
    (n,) = struct.unpack(">I", read_exact(REQ_FD, 4))
    mod = type(sys)("suite")
    exec(compile(read_exact(REQ_FD, n), "<suite>", "exec"), mod.__dict__)
    sys.modules["suite"] = suite = mod


WAIT_FACTOR = 4  # a test may wait for a CPU until WAIT_FACTOR times its limit
WAIT_EXTRA = 1.0  # plus this many seconds (see Session.read_test)
LAST_LOOK = 0.001  # seconds a timed-out test's reader looks once more at the pipe


_TICKS = os.sysconf("SC_CLK_TCK")


def load_delay(pid, since):
    """(lost, ran, ready) of process pid, or None when /proc cannot tell:
    lost is the seconds of its life that a loaded machine took, its
    run-queue delay so far (the second field of /proc/PID/schedstat) plus
    how long after since (monotonic seconds) it started; ran the seconds it
    has run on a CPU; ready whether it is running or ready to run now."""
    try:
        with open("/proc/%d/schedstat" % pid, "rb") as f:
            ran, waited = (int(x) / 1e9 for x in f.read().split()[:2])
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


def legacy_result(msg, j):
    msg = get_dict(msg, "j", "o", "e", "v", "hv", "s", "x")
    if "x" in msg:  # the module itself raised
        x = clip(msg["x"], MAX_NAME)
        return {"j": j, "o": "fail" if x == "AssertionError" else "error", "e": x}
    o = msg.get("o")
    if o not in ("pass", "fail", "error"):
        raise Garbled("bad outcome")
    rec = {"j": j, "o": o}
    if type(msg.get("e")) is str:
        rec["e"] = clip(msg["e"], MAX_NAME)
    if type(msg.get("v")) is str:
        rec["v"] = clip(msg["v"], MAX_VALUE)
        rec["hv"] = True
    return rec


def run_program(program, tests, ctests, timeouts, limits, degrade, skip=(0, 0, "")):
    """Runs every test on one program; returns a list of result dicts.
    ctests is the marshalled program's side of the tests (see handle_run).

    degrade = (n, limit, reduced): after n timeouts of this program, every
    later test gets at most limit seconds (0 turns it off); a timeout under
    such a lowered limit carries the exception text reduced. skip = (n,
    start, notrun): after n timeouts among the tests from index start on (a
    tail), the later ones are reported as timeouts with the exception text
    notrun, without running (0 turns it off)."""
    results = [None] * len(tests)
    for j, w in enumerate(tests):
        if w.bad is not None:
            results[j] = {"j": j, "o": "error", "e": w.bad}
    full = timeouts
    timeouts = list(timeouts)
    start = 0
    timed_out = 0
    skipped = 0  # timeouts in the tail that skip covers
    started = False
    suites = {}  # test index -> SuiteRun, for suite tests begun
    while start < len(tests):
        while start < len(tests) and results[start] is not None:
            start += 1
        if start >= len(tests):
            break
        cpu = sum(timeouts[start:]) + 1
        # C reads its token, its program and its tests from the worker after
        # the fork (the zygote never holds them). Only the token's hash
        # stays in the worker.
        token = os.urandom(16).hex()
        token_hash = hashlib.sha256(token.encode()).digest()
        batch = "[" + ",".join(key for _, key in tests[start].prefetch) + "]" if tests[start].kind == "T" else "[]"
        try:
            rec_r, ctl_w, bell_r, ticket = ZYGOTE.spawn(dict(limits, cpu=cpu))
        except Dirty:
            raise Dirty() if started else NotStarted()
        first = suites[start].next if start in suites else 0
        init = frame(marshal.dumps(("run", token, program, start, batch, first)), ctests)
        del token
        sess = Session(LineReader(rec_r, bell_r), ctl_w, token_hash, start, ticket)
        failure = None
        try:
            write_until(ctl_w, init, _mono() + SPAWN_WAIT)
            del init
            while start < len(tests):
                if results[start] is not None:  # compiled badly: C skips it too
                    start += 1
                    continue
                w = tests[start]
                if w.kind == "P":
                    run = suites.setdefault(start, SuiteRun(w.suite))
                    run.read(sess, start)
                    results[start] = run.result(start)
                    start += 1
                    failure = "restart"  # C may still be running inputs
                    break
                t0 = _perf()
                msg, deadline = sess.read_test(_mono(), timeouts[start], w.kind != "A" and w.kind != "L")
                if type(msg) is not dict or msg.get("j") != start:
                    raise Garbled("out of order")
                # C's own time for the test so far, at most what the worker
                # saw pass (a program can only understate its own time).
                secs = c_seconds(msg.pop("s", None), _perf() - t0)
                t1 = _perf()
                rec = {"j": start}
                if w.kind == "A":
                    rec["o"], exc, shown = judge_value(w, msg)
                    if shown is not None:
                        rec["v"], rec["hv"] = shown, True
                    if exc:
                        rec["e"] = exc
                elif w.kind == "L":
                    rec = legacy_result(msg, start)
                elif "x" in get_dict(msg, "j", "n", "x"):
                    x = clip(msg["x"], MAX_NAME)
                    rec["o"], rec["e"] = ("fail" if x == "AssertionError" else "error"), x
                else:
                    names = msg.get("n")
                    if w.kind == "T":
                        o, exc = judge_trusted(w, start, names, sess, deadline)
                    else:
                        o, exc = judge_forked(w, start, names, sess, deadline, dict(limits, cpu=timeouts[start] + 1))
                    rec["o"] = o
                    if exc:
                        rec["e"] = exc
                    if sess.busy():
                        # The test ended before C answered every prefetched
                        # call: the next test starts in a fresh process.
                        rec["s"] = secs + (_perf() - t1)
                        results[start] = rec
                        start += 1
                        failure = "restart"
                        break
                    if start + 1 < len(tests):
                        sess.end()  # (after the last test C is killed anyway)
                    secs += _perf() - t1  # the test's code, run by the worker
                rec["s"] = secs
                results[start] = rec
                start += 1
        except TimedOut:
            failure = "timeout"
        except Flood:
            failure = "output flood"
        except Garbled as e:
            failure = "protocol: %s" % (e.args[0] if e.args else "garbled")
        except Died:
            failure = "died"
        os.close(rec_r)
        os.close(ctl_w)
        os.close(bell_r)
        try:
            pid = sess.pid()
        except Dirty:
            # The zygote is gone. Unless this program's process was heard
            # from, the program never started: it runs again elsewhere.
            raise Dirty() if started or sess.heard else NotStarted()
        started = STARTED[0] = True
        kill_others(pid)
        status = ZYGOTE.reap(pid) if failure == "died" else None
        empty_tmp()  # a restarted process starts clean too (raises Dirty)
        if start >= len(tests):
            break
        if failure == "restart":
            continue
        if start in suites:
            run = suites[start]
            if run.interrupted(failure, describe(status) if failure == "died" else failure):
                continue  # the rest of its inputs, in a fresh process
            results[start] = run.result(start)
            start += 1
            continue
        if failure == "timeout":
            results[start] = {"j": start, "o": "timeout"}
            if timeouts[start] < full[start]:
                results[start]["e"] = degrade[2]
            timed_out += 1
            if degrade[0] and timed_out >= degrade[0]:
                timeouts = [min(t, degrade[1]) for t in timeouts]
            if skip[0] and start >= skip[1]:
                skipped += 1
                if skipped >= skip[0]:
                    for j in range(start + 1, len(tests)):
                        if results[j] is None:
                            results[j] = {"j": j, "o": "timeout", "e": skip[2]}
        else:
            why = describe(status) if failure == "died" else failure
            results[start] = {"j": start, "o": "crash", "e": why}
        start += 1
    return results


SPAWN_WAIT = 30.0  # seconds a forked process has to read what it runs


def run_task(spec, timeout, limits, workdir):
    """Runs a task (see task_main) in a process the zygote forks, working in
    TMP/workdir; returns its reply: {ok, result} or {ok: False, error}."""
    deadline = _mono() + timeout
    try:
        r, w, bell_r, ticket = ZYGOTE.spawn(dict(limits, cpu=timeout), workdir)
    except Dirty:
        sys.exit(0)  # the Go side replaces this worker
    os.close(bell_r)
    err = None
    try:
        write_until(w, frame(marshal.dumps(("task",) + spec)), _mono() + SPAWN_WAIT)
    except Died:
        err = "the task's process died"
    os.close(w)
    buf = bytearray()
    while err is None:
        left = deadline - _mono()
        if left <= 0:
            err = "timed out after %.1fs" % timeout
            break
        ready, _, _ = select.select([r], [], [], left)
        if not ready:
            continue
        chunk = os.read(r, 1 << 20)
        if not chunk:
            break
        buf += chunk
        if len(buf) > 256 << 20:
            err = "result too large"
            break
    os.close(r)
    try:
        status = ZYGOTE.end(ticket)
        kill_others()
        empty_tmp()
    except Dirty:
        sys.exit(0)  # the Go side replaces this worker
    if err is None and not buf:
        err = "child %s" % describe(status)
    if err is not None:
        return {"ok": False, "error": err}
    try:
        out = _loads(bytes(buf))
    except (ValueError, RecursionError) as e:
        return {"ok": False, "error": clip("garbled result: %s" % e, MAX_TEXT)}
    if not isinstance(out, dict) or "ok" not in out:
        return {"ok": False, "error": "garbled result"}
    if not out.get("ok"):
        out = {"ok": False, "error": clip(out.get("error"), MAX_TEXT)}
    return out


def handle_run(req):
    """Answers a run request (Go's runRequest): op, tests, timeouts,
    programs ([{id, code}]), limits, allow_objects, degrade_after,
    degrade_limit and reduced (the exception text of a timeout under a
    lowered limit), skip_after, skip_from and not_run (the exception text of
    a test not run after too many timeouts). Replies: {type: "result", program, results} per program,
    then {type: "done"[, dirty, handled]}."""
    allow = bool(req.get("allow_objects"))
    raw = req["tests"]
    tests = compile_tests(raw, allow)
    # What each program's process gets after its fork: its part of each
    # test, compiled here once per request. Nothing of a hidden test but
    # the names it takes; nothing of an expected value.
    ctests = []
    for w in tests:
        if w.bad:
            ctests.append(("-",))
        elif w.kind == "A":
            ctests.append(("A", w.setup, w.inp))
        elif w.kind == "L":
            ctests.append(("L", w.legacy))
        elif w.kind == "P":
            ctests.append(w.suite.child_part())
        else:
            ctests.append((w.kind, w.wanted))
    ctests = marshal.dumps(tuple(ctests))
    timeouts = req["timeouts"]
    limits = req.get("limits", {})
    degrade = (req.get("degrade_after", 0), req.get("degrade_limit", 0), req.get("reduced", ""))
    skip = (int(req.get("skip_after", 0)), int(req.get("skip_from", 0)), req.get("not_run", ""))
    programs = req["programs"]
    for i, prog in enumerate(programs):
        dirty = False
        try:
            results = run_program(prog["code"], tests, ctests, timeouts, limits, degrade, skip) if tests else []
        except NotStarted:
            if STARTED[0]:
                # A program before this one broke the sandbox (killed the
                # zygote) in a way its own cleanup did not see: this one runs
                # again, on a fresh sandbox.
                send({"type": "done", "dirty": True, "handled": i})
                sys.exit(0)
            results, dirty = None, True  # a fresh sandbox that cannot fork
        except Dirty:
            # The sandbox could not be cleaned after this program (its /tmp
            # or its processes): its results so far stand, the tests it did
            # not reach are crashes, and the Go side runs the other programs
            # on a fresh sandbox. (Running it again there would let it do the
            # same forever.)
            results, dirty = None, True
        if results is None:
            results = [{"j": j, "o": "crash", "e": "the sandbox could not be cleaned after this program"} for j in range(len(tests))]
        send({"type": "result", "program": prog["id"], "results": results})
        if dirty:
            send({"type": "done", "dirty": True, "handled": i + 1})
            sys.exit(0)
    send({"type": "done"})


def handle_call(req):
    """Answers a call request (Go's callRequest): op, source, function, arg,
    timeout and limits. Reply: {type: "call", ok, result or error}."""
    spec = ("call", req["source"], req["function"], req.get("arg"))
    out = run_task(spec, req.get("timeout", 60), req.get("limits", {}), "run")
    out["type"] = "call"
    send(out)


def not_dumpable():
    """Makes this process non-dumpable: its /proc entries (fd, mem, environ)
    are then out of reach of the children, who share its uid but hold no
    capability. Forked children inherit the setting."""
    PR_SET_DUMPABLE = 4
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE)")


def trim_heap():
    """Gives back to the system the heap that start-up (compiling this file,
    the imports) used and freed: the zygote is forked next, and every page
    it holds is copied into each program's process at its fork and torn
    down at its exit. glibc only; elsewhere nothing is done."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (AttributeError, OSError):
        pass


def main():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if suite is None:
        load_suite_module()
    not_dumpable()
    empty_tmp()
    # Objects that exist now live in every child: keep the collector from
    # touching (and so copying) their pages after each fork.
    gc.collect()
    gc.freeze()
    trim_heap()
    global ZYGOTE
    ZYGOTE = Zygote()
    send({"type": "ready", "pid": os.getpid(), "python": sys.version.split()[0]})
    while True:
        try:
            req = recv()
        except EOFError:
            if not IS_INIT:
                shutil.rmtree(TMP, ignore_errors=True)
            return
        op = req.get("op")
        if op == "run":
            handle_run(req)
        elif op == "call":
            handle_call(req)
        elif op == "ping":
            send({"type": "pong"})
        else:
            send({"type": "error", "error": "unknown op %r" % (op,)})


if __name__ == "__main__":
    main()
