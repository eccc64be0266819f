"""Unit tests of wire.py: the JSON codec, the frames and the line reader.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import marshal
import os
import struct
import time
import unittest
from unittest import mock

from pyworker import wire


class JSONTest(unittest.TestCase):
    """_dumps and _loads, the fast json.dumps and json.loads."""

    def test_round_trip(self):
        for v in [None, 1, -2.5, "é\n\x00", [1, [2, {"a": None}]], {"k": [True, False]}, float("inf")]:
            with self.subTest(v=v):
                text = wire._dumps(v)
                self.assertTrue(text.isascii())
                self.assertNotIn(" ", text.replace('" "', ""))
                self.assertEqual(wire._loads(text.encode()), v)
                self.assertEqual(wire._loads(text), v)

    def test_one_value_only(self):
        for bad in [b"", b" ", b"{", b"[1] [2]", b"1 x", b"\xff", b"nan"]:
            with self.subTest(bad=bad):
                with self.assertRaises(ValueError):
                    wire._loads(bad)

    def test_not_json(self):
        with self.assertRaises(TypeError):
            wire._dumps({"a": object()})

    def test_call_key(self):
        self.assertEqual(wire.call_key("f", [1, {"l": [2]}], {"x": None}), '["f",[1,{"l":[2]}],{"x":null}]')


class PipeTest(unittest.TestCase):
    def pipe(self):
        r, w = os.pipe()
        self.addCleanup(self.close, r)
        self.addCleanup(self.close, w)
        return r, w

    @staticmethod
    def close(fd):
        try:
            os.close(fd)
        except OSError:
            pass


class FrameTest(PipeTest):
    def test_request_frames(self):
        """recv and send: a 4-byte big-endian length, then JSON."""
        r, w = self.pipe()
        with mock.patch.object(wire, "RESP_FD", w), mock.patch.object(wire, "REQ_FD", r):
            wire.send({"type": "pong", "n": [1, 2]})
            head = os.read(r, 4)
            (n,) = struct.unpack(">I", head)
            body = os.read(r, n)
            self.assertEqual(body, b'{"type":"pong","n":[1,2]}')
            os.write(w, head + body)
            self.assertEqual(wire.recv(), {"type": "pong", "n": [1, 2]})
            os.close(w)
            with self.assertRaises(EOFError):
                wire.recv()

    def test_marshal_frames(self):
        """frame and recv_frame: what a forked process reads from the worker."""
        r, w = self.pipe()
        head = ("run", "token", "def f(): pass", 0, "[]", 0)
        os.write(w, wire.frame(marshal.dumps(head), marshal.dumps((("A", None, None),))))
        self.assertEqual(wire.recv_frame(r), head)
        self.assertEqual(wire.recv_frame(r), (("A", None, None),))

    def test_read_exact_cut_short(self):
        r, w = self.pipe()
        os.write(w, b"abc")
        os.close(w)
        with self.assertRaises(EOFError):
            wire.read_exact(r, 4)

    def test_write_until_reader_gone(self):
        r, w = self.pipe()
        os.close(r)
        with self.assertRaises(wire.Died):
            wire.write_until(w, b"x", time.monotonic() + 1)

    def test_write_until_deadline(self):
        r, w = self.pipe()
        with self.assertRaises(wire.Died):
            wire.write_until(w, b"x" * (1 << 22), time.monotonic() + 0.05)


class LineReaderTest(PipeTest):
    def test_messages(self):
        r, w = self.pipe()
        rd = wire.LineReader(r)
        os.write(w, b'{"a":1}\n{"b"')
        self.assertEqual(rd.read(time.monotonic() + 1), {"a": 1})
        self.assertIsNone(rd.buffered())
        os.write(w, b':2}\n')
        self.assertEqual(rd.read(time.monotonic() + 1), {"b": 2})

    def test_with_bell(self):
        r, w = self.pipe()
        br, bw = self.pipe()
        rd = wire.LineReader(r, br)
        os.write(w, b'[1]\n[2]\n')
        os.write(bw, b"!")
        self.assertEqual(rd.read(time.monotonic() + 1), [1])
        self.assertEqual(rd.buffered(), [2])
        # Without a ring the pipe is still looked at.
        os.write(w, b'[3]\n')
        self.assertEqual(rd.read(time.monotonic() + 1), [3])

    def test_garbled(self):
        for line in [b"not json\n", b"null\n", b"[1] [2]\n"]:
            with self.subTest(line=line):
                r, w = self.pipe()
                os.write(w, line)
                with self.assertRaises(wire.Garbled):
                    wire.LineReader(r).read(time.monotonic() + 1)

    def test_died(self):
        r, w = self.pipe()
        os.write(w, b'{"a":1}\n{"cut')
        os.close(w)
        rd = wire.LineReader(r)
        self.assertEqual(rd.read(None), {"a": 1})
        with self.assertRaises(wire.Died):
            rd.read(None)

    def test_timed_out(self):
        r, w = self.pipe()
        began = time.monotonic()
        with self.assertRaises(wire.TimedOut):
            wire.LineReader(r).read(began + 0.05)
        self.assertGreaterEqual(time.monotonic() - began, 0.05)

    def test_flood(self):
        r, w = self.pipe()
        os.write(w, b"x" * 300)
        with mock.patch.object(wire, "MAX_LINE", 100):
            with self.assertRaises(wire.Flood):
                wire.LineReader(r).read(time.monotonic() + 1)


class GetDictTest(unittest.TestCase):
    def test_get_dict(self):
        self.assertEqual(wire.get_dict({"a": 1}, "a", "b"), {"a": 1})
        for bad in [[1], {"c": 1}, None]:
            with self.subTest(bad=bad):
                with self.assertRaises(wire.Garbled):
                    wire.get_dict(bad, "a", "b")


if __name__ == "__main__":
    unittest.main()
