"""The judges: who decides a test's verdict, in the worker.

Trusted code of the worker. judge_value decides an `assert CALL ==
LITERAL` test from the plain value C sent; judge_trusted runs a benchmark's
own hidden test here, in the worker, against proxies of the program's
functions; judge_forked runs a generated (untrusted) test in a judge
process forked from the zygote for that one test (testenv.judge_main),
relays and checks its calls of the program's functions, reads only its
verdict, and removes what it left before C's next test.
"""

import marshal
import os

from . import zygote
from .cleanup import remove_tree
from .limits import TMP
from .testenv import run_test_code, test_globals
from .values import MAX_NAME, MAX_TEXT, MAX_VALUE, NotPlain, clip, decode, encode, exc_name, not_plain_text, plain_repr
from .wire import Died, Flood, Garbled, LineReader, frame, get_dict, send_line, write_until


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
    from_j_r, to_j_w, bell_r, ticket = zygote.ZYGOTE.spawn(limits, workdir)
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


def end_judge(ticket, workdir, sess):
    """Kills a judge and whatever it started, reaps it and removes its
    directory, leaving C (sess) running. Raises Dirty when that fails."""
    zygote.ZYGOTE.end(ticket)
    zygote.kill_strays(sess.pid())
    remove_tree(TMP + "/" + workdir)


def judge_value(w, msg):
    """Decides a value test from the value C reported: `assert CALL ==
    LITERAL`, or a predicate_form test (w.check), whose result is then the
    one its judge process would have given (no value shown)."""
    msg = get_dict(msg, "j", "v", "x", "np", "r", "why")
    if "x" in msg:
        x = msg["x"]
        if type(x) is not str:
            raise Garbled("bad exception")
        if x == "AssertionError":
            # A judge cannot tell the program's AssertionError from the
            # test's own failing assert.
            return "fail", (None if w.check is not None else x), None
        return "error", clip(x, MAX_NAME), None
    if "np" in msg:
        shown = msg.get("r") if w.check is None else None
        return "fail", not_plain_text(clip(msg["np"], MAX_NAME), clip(msg.get("why", ""), MAX_NAME)), (clip(shown, MAX_VALUE) if type(shown) is str else None)
    if "v" not in msg:
        raise Garbled("no value")
    value = decode(msg["v"])
    if w.check is not None:
        try:
            ok = holds(w.check, value)
        except Exception as e:  # noqa: BLE001 - what the test's own comparison raises
            return "error", exc_name(e), None
        return ("pass" if ok else "fail"), None, None
    try:
        ok = value == w.expected[0]
    except RecursionError:
        ok = False
    return ("pass" if ok else "fail"), None, plain_repr(value)


def holds(check, value):
    """Whether a predicate_form check holds of value (plain data). Raises
    what the comparison raises, as the test itself would."""
    kind = check[0]
    if kind == "truthy":
        return bool(value)
    if kind == "falsy":
        return not value
    if kind == "is":
        return value is check[1]
    if kind == "is not":
        return value is not check[1]
    _, op, lit, swapped = check
    return bool(op(lit, value) if swapped else op(value, lit))
