"""Tasks: an expected value or a tool call, run in a process of its own.

Trusted code of the worker: run_task has the zygote fork a process that
runs what the task names (child.task_main: untrusted code, evaluated
without any program), waits for its one JSON reply, bounded in time and
size, and cleans up after it as after a program.
"""

import marshal
import os
import select
import sys
from time import monotonic as _mono

from . import zygote
from .cleanup import Dirty, describe, empty_tmp
from .limits import SPAWN_WAIT
from .values import MAX_TEXT, clip
from .wire import Died, _loads, frame, write_until


def run_task(spec, timeout, limits, workdir):
    """Runs a task (see child.task_main) in a process the zygote forks,
    working in TMP/workdir; returns its reply: {ok, result} or {ok: False,
    error}."""
    deadline = _mono() + timeout
    try:
        r, w, bell_r, ticket = zygote.ZYGOTE.spawn(dict(limits, cpu=timeout), workdir)
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
        status = zygote.ZYGOTE.end(ticket)
        zygote.kill_others()
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
