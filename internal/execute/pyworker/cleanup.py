"""Cleaning up after a program: its processes and what it left in /tmp.

Trusted code of the worker (reap_into also runs in the zygote). After each
program every process of the sandbox but the worker and the zygote is
killed (zygote.kill_others, with the helpers here) and /tmp is emptied
without following links (empty_tmp), so nothing a program leaves reaches
the next one. What cannot be cleaned raises Dirty: the Go side then
replaces the whole sandbox.
"""

import os
import signal

from .limits import TMP


class Dirty(Exception):
    """/tmp could not be emptied: this sandbox must be replaced."""


class NotStarted(Dirty):
    """The sandbox broke before a program began (the zygote is gone): not
    that program's doing."""


STARTED = [False]  # whether this worker has started a program yet


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


def kill_one(p):
    """Kills process p."""
    try:
        os.kill(p, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def pids():
    """Every process of the sandbox."""
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
