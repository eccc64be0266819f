"""The wire: how ticoder's processes talk, and the bounds on what is read.

Shared by every process of the sandbox; holds no request data of its own.
The worker reads Go's requests from fd 3 and writes its replies to fd 4,
each a 4-byte big-endian length followed by JSON (recv, send). A process
the zygote forks reads what it runs from the worker as a marshal frame
(frame, recv_frame) and writes newline-terminated JSON messages back
(send_line); the worker reads those with a LineReader, which bounds a
message (MAX_LINE) and raises Garbled for anything that is not JSON.
Nothing read from a child is trusted: a reader checks each message's keys
(get_dict) and the modules that read it validate every value.
"""

import json
import marshal
import os
import select
import struct
from time import monotonic as _mono

REQ_FD, RESP_FD = 3, 4
MAX_LINE = 16 << 20  # one message from a child; more is a crash


class Garbled(Exception):
    """A message from a child that breaks the protocol."""


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
    s = data.decode() if type(data) in (bytes, bytearray) else data
    try:
        obj, end = _scanner(s, 0)
    except StopIteration:
        raise ValueError("not JSON")
    if end != len(s):
        raise ValueError("more than one JSON value")
    return obj


def read_exact(fd, n):
    """n bytes from fd, read into one buffer: a forked process pays for
    every page it writes (a fault each), so a frame is not copied on its
    way in."""
    buf = bytearray(n)
    with memoryview(buf) as view:
        got = 0
        while got < n:
            k = os.readv(fd, [view[got:]])
            if not k:
                raise EOFError
            got += k
    return buf


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


# ----------------------------------------------------------- channels


class TimedOut(BaseException):
    """A child did not answer by its deadline."""


class Died(BaseException):
    """A child's pipe closed (the child ended) or took no more input."""


class Flood(BaseException):
    """A child wrote a message longer than MAX_LINE."""


POLL_FIRST = 0.002  # seconds a reader with a bell first sleeps between looks at the pipe
POLL_MAX = 0.032  # and at most


class LineReader:
    """Reads newline-terminated JSON messages from a child's pipe.

    With a bell (the read end of a pipe on which the child writes a byte
    once it has written what the reader waits for, see program.Stamp.ring), the
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
        message the child sends without ringing, see program.child_run)."""
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

def call_key(name, args, kwargs):
    """A call of the program's function name with encoded arguments, as the
    JSON text that both identifies it (a prefetched call and the test's own
    call of it have the same text) and carries it to C in a batch."""
    return _dumps([name, args, kwargs])
