"""The entry of every process the zygote forks, and the task processes.

Untrusted territory: child_main runs in a fresh process forked from the
zygote (which holds no request data) and reads from the worker, over a
pipe of its own, what that process is to run: a program (process C, see
program), a generated test (a judge process, see testenv.judge_main) or a
task (task_main here: an expected value that is not a literal, evaluated
without any program, or a tool call). Whatever runs here reports on its
own pipe only, and the worker validates it.
"""

import os

from .program import child_run
from .testenv import judge_main
from .values import MAX_TEXT, clip, encode
from .wire import LineReader, _dumps, _loads, recv_frame, write_all


def child_main(out_w, in_r, bell_w):
    """A process the zygote forked: reads from the worker what it is to run
    (a marshal frame, see wire.frame) and runs it. ("run", token, program,
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
    """A task's process (see task.run_task): runs it and writes its JSON
    reply."""
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
