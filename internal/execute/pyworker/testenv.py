"""A test's environment: its globals, the program's functions as proxies,
and the run of its code.

Runs a test's own code: a generated test (untrusted) only in a judge
process forked from the zygote for that one test (judge_main, which the
worker's judge.judge_forked feeds and reads), and a benchmark's own hidden
test (trusted) in the worker itself (judge.judge_trusted). Either way the
test sees only the names of the program it uses (prepare.wanted_names),
as proxies whose calls run the program's function in C with plain data
both ways, and the real builtins; its outcome is decided here, by the
exception its code raises.
"""

import random
import sys

from .baseline import RANDOM_STATE, WORKER_TAG, restore_builtins
from .values import MAX_NAME, NotPlain, clip, decode, encode, exc_name, exception_class, not_plain_text
from .wire import Died, Flood, Garbled, LineReader, TimedOut, get_dict, send_line


class Test:
    """A test as the worker holds it."""

    __slots__ = ("kind", "setup", "inp", "expected", "check", "call", "code", "bad", "legacy", "prefetch", "wanted", "entry", "suite")

    def __init__(self):
        self.kind = "J"
        self.setup = self.inp = self.expected = self.code = self.bad = self.legacy = None
        self.check = None  # a value test's predicate other than == EXPECTED (prepare.predicate_form)
        self.call = None  # a value test's (setup, call) sources: tests with the same one share its run
        self.prefetch = ()
        self.wanted = ()  # the names the test takes from the program (wanted_names)
        self.entry = ""  # the function under test, taken from the program even if a builtin's name
        self.suite = None  # a suite test's CompiledSuite


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


def judge_main(wfd, rfd, head):
    """A judge's process (see judge.judge_forked): runs one generated test
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
