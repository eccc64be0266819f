# ticoder execution harness: the Python half of the execution engine.
#
# One long-lived worker runs this file (as PID 1 of its sandbox). It reads
# requests from fd 3 and writes replies to fd 4, each a 4-byte big-endian
# length followed by JSON. Candidate code never runs in this process: for each
# program the worker forks a child that sets resource limits, runs the
# program's tests one by one, and reports each result on a pipe of its own.
# The worker enforces every deadline itself (a child that ignores signals or
# spins in C code is killed), restarts a child after a timeout or crash to go
# on with the remaining tests, and after every child kills whatever it left
# behind. Nothing the candidate prints reaches the Go side: its stdout and
# stderr are /dev/null and fds 3 and 4 are closed in the child.

import builtins
import gc
import json
import os
import resource
import select
import signal
import struct
import sys
import time

# Modules candidates commonly import, loaded once here so that a forked child
# does not pay for the import again.
import bisect, collections, copy, datetime, decimal, fractions, functools  # noqa: E401,F401
import hashlib, heapq, itertools, math, operator, random, re, statistics  # noqa: E401,F401
import string, typing  # noqa: E401,F401

REQ_FD, RESP_FD = 3, 4
MAX_VALUE = 1000  # characters of a returned value's repr that are kept
MAX_CHILD_BYTES = 4 << 20  # a child that writes more than this is killed
IS_INIT = os.getpid() == 1
REDUCED = "reduced limit"  # a timeout under a limit lowered by degrade

_dumps = json.dumps
_loads = json.loads
_write = os.write
_perf = time.perf_counter

PLAIN_SCALARS = (int, float, complex, str, bytes, bool, type(None))


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
    data = _dumps(obj, ensure_ascii=True).encode()
    data = struct.pack(">I", len(data)) + data
    while data:
        n = os.write(RESP_FD, data)
        data = data[n:]


# ---------------------------------------------------------------- child side


def is_plain(v, depth=0):
    """Reports whether v is built only from builtin data types, so that == on
    it runs no code the candidate wrote."""
    t = type(v)
    if t in PLAIN_SCALARS:
        return True
    if depth > 50:
        return False
    if t in (list, tuple, set, frozenset):
        return all(is_plain(x, depth + 1) for x in v)
    if t is dict:
        return all(is_plain(k, depth + 1) and is_plain(x, depth + 1) for k, x in v.items())
    return False


def safe_equal(value, expected):
    """value == expected, decided without calling the candidate's methods."""
    if is_plain(value):
        return bool(value == expected) if is_plain(expected) else bool(expected == value)
    # The candidate returned an object of its own: ask the expected side.
    r = type(expected).__eq__(expected, value)
    return r is True


def bounded_repr(v):
    try:
        s = repr(v)
    except BaseException as e:  # noqa: BLE001 - a hostile __repr__
        return "<repr raised %s>" % type(e).__name__
    if len(s) > MAX_VALUE:
        s = s[:MAX_VALUE] + "…"
    return s


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


def child_setup(wfd, limits, workdir):
    os.setsid()
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    if null > 2:
        os.close(null)
    os.closerange(3, wfd)
    os.closerange(wfd + 1, 1 << 16)
    try:
        os.mkdir(workdir, 0o700)
    except FileExistsError:
        pass
    os.chdir(workdir)
    child_limits(limits)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)



def child_run(wfd, program, tests, start):
    """Runs tests[start:] on program, writing one JSON line per test."""
    snapshot = dict(builtins.__dict__)
    bdict = builtins.__dict__
    dumps, write, perf = _dumps, _write, _perf
    try:
        code = compile(program, "<candidate>", "exec")
    except BaseException as e:  # noqa: BLE001
        name = type(e).__name__
        for j in range(start, len(tests)):
            write(wfd, (dumps({"j": j, "o": "error", "e": name}) + "\n").encode())
        return
    for j in range(start, len(tests)):
        test = tests[j]
        bdict.clear()
        bdict.update(snapshot)
        rec = {"j": j}
        t0 = perf()
        try:
            if test[0] is not None:
                raise test[0]
            g = {}
            exec(code, g)
            # Undo whatever the program's module code did to the builtins
            # before the test's own code runs.
            bdict.clear()
            bdict.update(snapshot)
            if test[1] is not None:
                exec(test[1], g)
            if test[2] is not None:  # assert INPUT == EXPECTED
                value = eval(test[2], g)
                rec["v"] = bounded_repr(value)
                rec["hv"] = True
                expected = eval(test[3], g)
                rec["o"] = "pass" if safe_equal(value, expected) else "fail"
            else:
                exec(test[4], g)
                rec["o"] = "pass"
        except AssertionError:
            rec["o"] = "fail"
        except BaseException as e:  # noqa: BLE001 - SystemExit too
            rec["o"] = "error"
            rec["e"] = type(e).__name__
        rec["s"] = perf() - t0
        write(wfd, (dumps(rec) + "\n").encode())


def compile_tests(tests):
    """Compiles each test once in the worker; children inherit the code."""
    out = []
    for t in tests:
        try:
            setup = compile(t["setup"], "<setup>", "exec") if t.get("setup") else None
            if t.get("input"):
                inp = compile(t["input"], "<input>", "eval")
                exp = compile(t["expected"], "<expected>", "eval")
                out.append((None, setup, inp, exp, None))
            else:
                out.append((None, setup, None, None, compile(t["code"], "<test>", "exec")))
        except BaseException as e:  # noqa: BLE001
            out.append((e, None, None, None, None))
    return out


# --------------------------------------------------------------- parent side


def cleanup(pid):
    """Kills the child and everything it started, and reaps them."""
    if IS_INIT:
        try:
            os.kill(-1, signal.SIGKILL)  # every process of this namespace but us
        except ProcessLookupError:
            pass
    else:
        for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
            try:
                target()
            except (ProcessLookupError, PermissionError):
                pass
    status = None
    while True:
        try:
            p, st = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        if p == pid:
            status = st
    return status


def describe(status):
    if status is None:
        return "died"
    if os.WIFSIGNALED(status):
        return "signal %d" % os.WTERMSIG(status)
    if os.WIFEXITED(status):
        return "exit status %d" % os.WEXITSTATUS(status)
    return "died"


def wipe(path):
    try:
        entries = os.listdir(path)
    except OSError:
        return
    for name in entries:
        p = os.path.join(path, name)
        try:
            if os.path.isdir(p) and not os.path.islink(p):
                wipe(p)
                os.rmdir(p)
            else:
                os.unlink(p)
        except OSError:
            pass


def run_program(program, tests, timeouts, limits, workdir, degrade):
    """Runs every test on one program; returns a list of result dicts.

    degrade = (n, limit): after n timeouts of this program, every later test
    gets at most limit seconds (0 turns it off)."""
    results = [None] * len(tests)
    full = timeouts
    timeouts = list(timeouts)
    start = 0
    timed_out = 0
    while start < len(tests):
        r, w = os.pipe()
        cpu = sum(timeouts[start:]) + 1
        pid = os.fork()
        if pid == 0:  # child
            try:
                os.close(r)
                child_setup(w, dict(limits, cpu=cpu), workdir)
                child_run(w, program, tests, start)
            finally:
                os._exit(0)
        os.close(w)
        buf = b""
        deadline = time.monotonic() + timeouts[start]
        killed_at = None
        eof = False
        while not eof:
            left = deadline - time.monotonic()
            if left <= 0:
                killed_at = "timeout"
                break
            ready, _, _ = select.select([r], [], [], left)
            if not ready:
                continue
            chunk = os.read(r, 65536)
            if not chunk:
                eof = True
                break
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    rec = _loads(line)
                    j = rec["j"]
                except Exception:  # noqa: BLE001 - a forged or garbled line
                    continue
                if not isinstance(j, int) or j != start or results[j] is not None:
                    continue
                results[j] = rec
                start += 1
                if start < len(tests):
                    deadline = time.monotonic() + timeouts[start]
            if len(buf) > MAX_CHILD_BYTES:
                killed_at = "flood"
                break
        os.close(r)
        status = cleanup(pid)
        wipe(workdir)
        if start >= len(tests):
            break
        if killed_at == "timeout":
            results[start] = {"j": start, "o": "timeout"}
            if timeouts[start] < full[start]:
                results[start]["e"] = REDUCED
            timed_out += 1
            if degrade[0] and timed_out >= degrade[0]:
                timeouts = [min(t, degrade[1]) for t in timeouts]
        else:
            results[start] = {"j": start, "o": "crash", "e": describe(status) if killed_at is None else "output flood"}
        start += 1
    return results


def run_in_child(fn, timeout, limits, workdir):
    """Runs fn() in a forked child; returns (ok, value or error text)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            child_setup(w, dict(limits, cpu=timeout), workdir)
            try:
                out = {"ok": True, "result": fn()}
            except BaseException as e:  # noqa: BLE001
                out = {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}
            try:
                data = _dumps(out).encode()
            except BaseException as e:  # noqa: BLE001
                data = _dumps({"ok": False, "error": "result is not JSON: %s" % e}).encode()
            while data:
                n = os.write(w, data)
                data = data[n:]
        finally:
            os._exit(0)
    os.close(w)
    buf = bytearray()
    deadline = time.monotonic() + timeout
    err = None
    while True:
        left = deadline - time.monotonic()
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
    status = cleanup(pid)
    wipe(workdir)
    if err is None and not buf:
        err = "child %s" % describe(status)
    if err is not None:
        return {"ok": False, "error": err}
    try:
        out = _loads(bytes(buf))
    except ValueError as e:
        return {"ok": False, "error": "garbled result: %s" % e}
    if not isinstance(out, dict) or "ok" not in out:
        return {"ok": False, "error": "garbled result"}
    return out


def handle_run(req):
    tests = compile_tests(req["tests"])
    timeouts = req["timeouts"]
    limits = req.get("limits", {})
    workdir = req.get("workdir", "/tmp/run")
    degrade = (req.get("degrade_after", 0), req.get("degrade_limit", 0))
    for prog in req["programs"]:
        if not tests:
            results = []
        else:
            results = run_program(prog["code"], tests, timeouts, limits, workdir, degrade)
        send({"type": "result", "program": prog["id"], "results": results})
    send({"type": "done"})


def handle_call(req):
    src, name, arg = req["source"], req["function"], req.get("arg")

    def fn():
        g = {"__name__": "ticoder_tool"}
        exec(compile(src, "<tool>", "exec"), g)
        return g[name](arg)

    out = run_in_child(fn, req.get("timeout", 60), req.get("limits", {}), req.get("workdir", "/tmp/run"))
    out["type"] = "call"
    send(out)


def main():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Objects that exist now live in every child: keep the collector from
    # touching (and so copying) their pages after each fork.
    gc.collect()
    gc.freeze()
    send({"type": "ready", "pid": os.getpid(), "python": sys.version.split()[0]})
    while True:
        try:
            req = recv()
        except EOFError:
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


main()
