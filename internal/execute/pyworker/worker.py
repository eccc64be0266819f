"""The worker: the request loop, and the run of one program's tests.

Trusted code, the sandbox's PID 1; untrusted code never runs in this
process. main answers Go's requests (see wire.go): "run" runs every test
on every program (handle_run, run_program: a process C per program, forked
from the zygote, restarted after a timeout or a crash), "call" runs a tool
call in a task process (handle_call), "ping" answers "pong". After each
program every other process is killed and /tmp emptied (cleanup); a
sandbox that cannot be cleaned makes the worker exit, and Go replaces it.
"""

import ctypes
import gc
import hashlib
import marshal
import os
import shutil
import signal
import sys
from time import monotonic as _mono, perf_counter as _perf

from . import zygote
from .baseline import set_path
from .child import child_main
from .cleanup import STARTED, Dirty, NotStarted, describe, empty_tmp
from .judge import judge_forked, judge_trusted, judge_value
from .limits import DRAIN_WAIT, IS_INIT, SLOWER_CPU, SPAWN_WAIT, STOP_WAIT, TMP, c_seconds
from .prepare import compile_tests, shared_calls
from .session import Session
from .suiterun import SuiteRun
from .task import run_task
from .values import MAX_NAME, MAX_VALUE, clip
from .wire import Garbled, Died, Flood, LineReader, TimedOut, frame, get_dict, recv, send, write_until


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


def shared_result(w, j, f, results, values):
    """Test j's result from the run of test f, whose call it shares (see
    prepare.shared_calls): decided on f's value, or f's result where f
    has none (a timeout, a crash, not run)."""
    got = values.get(f)
    if got is None:
        rec = dict(results[f])
        rec["j"] = j
        return rec
    msg, secs = got
    rec = {"j": j, "s": secs}
    rec["o"], exc, shown = judge_value(w, msg)
    if shown is not None:
        rec["v"], rec["hv"] = shown, True
    if exc:
        rec["e"] = exc
    return rec


def run_program(program, tests, ctests, timeouts, limits, degrade, skip=(0, 0, ""), same=None):
    """Runs every test on one program; returns a list of result dicts.
    ctests is the marshalled program's side of the tests (see handle_run).

    degrade = (n, limit, reduced): after n timeouts of this program, every
    later test gets at most limit seconds (0 turns it off); a timeout under
    such a lowered limit carries the exception text reduced. skip = (n,
    start, notrun): after n timeouts among the tests from index start on (a
    tail), the later ones are reported as timeouts with the exception text
    notrun, without running (0 turns it off). same[j], where not None, is
    the earlier test whose call test j shares (prepare.shared_calls): C
    skips j, and its result is shared_result's."""
    results = [None] * len(tests)
    if same is None:
        same = [None] * len(tests)
    shared = {f for f in same if f is not None}  # tests whose values others use
    values = {}  # f in shared -> (C's message, seconds)
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

    def time_out(j):
        """Records that test j timed out, and what follows from it."""
        nonlocal timed_out, skipped, timeouts
        results[j] = {"j": j, "o": "timeout"}
        if timeouts[j] < full[j]:
            results[j]["e"] = degrade[2]
        timed_out += 1
        if degrade[0] and timed_out >= degrade[0]:
            timeouts = [min(t, degrade[1]) for t in timeouts]
        if skip[0] and j >= skip[1]:
            skipped += 1
            if skipped >= skip[0]:
                for k in range(j + 1, len(tests)):
                    if results[k] is None:
                        results[k] = {"j": k, "o": "timeout", "e": skip[2]}
    while start < len(tests):
        while start < len(tests) and (results[start] is not None or same[start] is not None):
            if results[start] is None:
                results[start] = shared_result(tests[start], start, same[start], results, values)
            start += 1
        if start >= len(tests):
            break
        # C's CPU limit: a backstop only. C now outlives tests it is told to
        # stop, each of which may have run up to (1 + SLOWER_CPU) times its
        # limit (Session.read_test).
        cpu = sum(timeouts[start:]) * (1 + SLOWER_CPU) + 1
        # C reads its token, its program and its tests from the worker after
        # the fork (the zygote never holds them). Only the token's hash
        # stays in the worker.
        token = os.urandom(16).hex()
        token_hash = hashlib.sha256(token.encode()).digest()
        batch = "[" + ",".join(key for _, key in tests[start].prefetch) + "]" if tests[start].kind == "T" else "[]"
        try:
            rec_r, ctl_w, bell_r, ticket = zygote.ZYGOTE.spawn(dict(limits, cpu=cpu))
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
                if same[start] is not None:  # C skips it too
                    results[start] = shared_result(w, start, same[start], results, values)
                    start += 1
                    continue
                if w.kind == "P":
                    run = suites.setdefault(start, SuiteRun(w.suite))
                    run.read(sess, start)
                    results[start] = run.result(start)
                    start += 1
                    failure = "restart"  # C may still be running inputs
                    break
                t0 = _perf()
                try:
                    msg, deadline = sess.read_test(_mono(), timeouts[start], w.kind != "A" and w.kind != "L")
                except TimedOut:
                    # A value test that used its time: C is told to stop it
                    # and, if it does at once, goes on with the next test.
                    if w.kind != "A" or not sess.stop(start, STOP_WAIT):
                        raise
                    time_out(start)
                    start += 1
                    continue
                if type(msg) is not dict or msg.get("j") != start:
                    raise Garbled("out of order")
                # C's own time for the test so far, at most what the worker
                # saw pass (a program can only understate its own time).
                secs = c_seconds(msg.pop("s", None), _perf() - t0)
                t1 = _perf()
                rec = {"j": start}
                if w.kind == "A":
                    if start in shared:
                        values[start] = (msg, secs)
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
                    if sess.busy() and not sess.drain(min(deadline, _mono() + DRAIN_WAIT)):
                        # The test ended before C answered every prefetched
                        # call, and C does not answer the rest at once: the
                        # next test starts in a fresh process.
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
        sess.close()
        try:
            pid = sess.pid()
        except Dirty:
            # The zygote is gone. Unless this program's process was heard
            # from, the program never started: it runs again elsewhere.
            raise Dirty() if started or sess.heard else NotStarted()
        started = STARTED[0] = True
        zygote.kill_others(pid)
        status = zygote.ZYGOTE.reap(pid) if failure == "died" else None
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
            time_out(start)
        else:
            why = describe(status) if failure == "died" else failure
            results[start] = {"j": start, "o": "crash", "e": why}
        start += 1
    return results


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
    same = shared_calls(tests)
    ctests = []
    for w, f in zip(tests, same):
        if w.bad:
            ctests.append(("-",))
        elif f is not None:
            ctests.append(("D",))  # decided on test f's value
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
            results = run_program(prog["code"], tests, ctests, timeouts, limits, degrade, skip, same) if tests else []
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
    """Gives back to the system the heap that start-up (compiling this
    package, the imports) used and freed: the zygote is forked next, and
    every page it holds is copied into each program's process at its fork
    and torn down at its exit. glibc only; elsewhere nothing is done."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (AttributeError, OSError):
        pass


def main():
    """The worker: starts the zygote, then answers requests until fd 3
    ends. (The bootstrap calls it once every module is loaded.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    set_path()
    not_dumpable()
    empty_tmp()
    # Objects that exist now live in every child: keep the collector from
    # touching (and so copying) their pages after each fork.
    gc.collect()
    gc.freeze()
    trim_heap()
    zygote.ZYGOTE = zygote.Zygote(child_main)
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
