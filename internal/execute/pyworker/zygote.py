"""The zygote: the fork server every process that runs untrusted code
comes from, and the cleanup that needs to know it.

Trusted code: Zygote is the worker's handle on the zygote; zygote_main is
what runs in the zygote itself, a process forked from the worker before any
request that is never sent a request's data (see Zygote); kill_others and
kill_strays run in the worker after a program or a judge. What a forked
process runs it reads from the worker after its fork (child.child_main).
"""

import array
import os
import select
import signal
import socket
import struct
import time

from .baseline import CLEAN_TAG, restore_builtins
from .cleanup import Dirty, children_at, children_fd, kill_group, kill_one, pids, reap_into, reap_own, zombie
from .limits import IS_INIT, TMP, child_setup, fill_pools
from .wire import _dumps, _loads

# This worker's Zygote, made by worker.main before any request (its forked
# processes run child.child_main).
ZYGOTE = None


class Zygote:
    """A process forked from the worker before any request. Every process
    that runs untrusted code (a program's, a generated test's judge, an
    expected value's or a tool call's) is forked from it, so none shares
    memory with the worker (no test, expected value, request or result is
    in its address space, and the worker's own work between forks copies
    no page). The zygote itself is never sent a program, a test or any
    other data of a request, only limits and a directory name: what a
    process is to run it reads after the fork, from the worker, over a
    pipe of its own (see child.child_main), so no byte of one program is left
    in the memory the next one is forked from."""

    def __init__(self, child_main):
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        pid = os.fork()
        if pid == 0:
            try:
                self.sock.close()
                zygote_main(theirs, child_main)
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
        is to run from its input (see child.child_main). The worker does not
        wait for the fork: the pid is read later, with child_pid(ticket)."""
        data = _dumps({"limits": limits, "dir": workdir}).encode()
        data = _HEAD.pack(_SPAWN, len(data)) + data
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
            (pid,) = _PID.unpack(self._exact(8))
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
            self.wake()
            self.sock.sendall(_HEAD.pack(_REAP, 8) + _PID.pack(pid))
            (st,) = _PID.unpack(self._exact(8))
        except (OSError, EOFError, struct.error):
            raise Dirty()
        return None if st < 0 else st

    def _exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise EOFError
            buf += chunk
        return buf


# The zygote's requests: a header (_HEAD: the op, then the length of what
# follows), then that many bytes. _SPAWN's are the process's limits and
# directory as JSON, which the zygote does not read (the forked process
# does), with its three pipe ends alongside (SCM_RIGHTS); _REAP's a pid
# (_PID). Both are answered with a _PID: the pid forked, the wait status
# reaped (-1 if unknown). The format is binary, and the loop does as little
# as it can, because every page the zygote writes to after a fork it first
# copies: a fork made the zygote copy about 85 pages on a JSON request, and
# 53 on this one (BENCHMARKS.md).
_HEAD = struct.Struct(">BI")
_PID = struct.Struct(">q")
_FDS = struct.Struct("3i")
_SPAWN, _REAP = 1, 2


def zygote_main(sock, child_main):
    """The zygote's loop: fork a process (it runs child_main), reap one."""
    os.closerange(3, sock.fileno())
    os.closerange(sock.fileno() + 1, 1 << 16)
    CLEAN_TAG[0] = restore_builtins()  # what every forked process starts from
    statuses = {}  # wait statuses of processes reaped early
    fill_pools()
    # Bound once: the loop touches these and little else.
    recvmsg, recv, sendall, fork, close = sock.recvmsg, sock.recv, sock.sendall, os.fork, os.close
    head_unpack, pid_pack, fds_unpack = _HEAD.unpack, _PID.pack, _FDS.unpack
    space = socket.CMSG_SPACE(_FDS.size)

    def exact(buf, n):
        while len(buf) < n:
            chunk = recv(n - len(buf))
            if not chunk:
                raise EOFError
            buf += chunk
        return buf

    while True:
        try:
            head, anc, _, _ = recvmsg(_HEAD.size, space)
            if not head:
                return
            op, n = head_unpack(exact(head, _HEAD.size))
            body = exact(b"", n)
        except (EOFError, OSError, struct.error):
            return
        if len(anc) == 1 and anc[0][0] == socket.SOL_SOCKET and anc[0][1] == socket.SCM_RIGHTS and len(anc[0][2]) == _FDS.size:
            fds = fds_unpack(anc[0][2])
        else:
            fds = _fds_of(anc)
        if op == _SPAWN and len(fds) == 3:
            reap_into(statuses)
            pid = fork()
            if pid == 0:
                try:
                    _spawned(fds, body, child_main)
                finally:
                    os._exit(0)
            close(fds[0])
            close(fds[1])
            close(fds[2])
            sendall(pid_pack(pid))
            continue
        for fd in fds:
            close(fd)
        if op != _REAP or n != _PID.size:
            return  # the worker breaks its own protocol: it will see
        (pid,) = _PID.unpack(body)
        st = statuses.pop(pid, None)
        if st is None:
            try:
                _, st = os.waitpid(pid, 0)
            except ChildProcessError:
                st = -1
        sendall(pid_pack(st))


def _fds_of(anc):
    """Every descriptor in recvmsg's ancillary data, whatever its shape."""
    fds = array.array("i")
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
    return list(fds)


def _spawned(fds, body, child_main):
    """The start of a process the zygote forked: reads its limits and
    directory (the spawn's JSON), sets itself up, runs child_main."""
    msg = _loads(body)
    d = msg.get("dir")
    # A program works in /tmp itself (emptied after it), so that its
    # process makes no directory for the worker to remove: both cost
    # more than the rest of a fork here.
    workdir = TMP if d is None else TMP + "/" + d
    rec_w, ctl_r, bell_w = fds
    child_setup(fds, msg["limits"], workdir)
    child_main(rec_w, ctl_r, bell_w)


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
            kill_one(p)
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
                kill_one(p)
        if attempt > 10:
            time.sleep(0.001)
    raise Dirty()


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
                kill_one(p)
        reap_own()
        # Zombies of the worker are reaped above; those of the zygote (the
        # next spawn reaps them) and of C (its own children) run nothing.
        if not [p for p in pids() if p not in spare and not zombie(p, (ZYGOTE.pid, c))]:
            return
        if attempt > 10:
            time.sleep(0.001)
    raise Dirty()
