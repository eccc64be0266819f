"""Unit tests of zygote.py: the zygote's binary protocol (spawn, the pid,
reap), its end on a request it does not know, and how few pages it writes
to per fork.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3, outside a
sandbox: the zygote is forked from the test process.
"""

import os
import select
import socket
import unittest

from pyworker import zygote


def child_main(out_w, in_r, bell_w):
    """A forked process: echoes what it reads, then rings once."""
    data = os.read(in_r, 100)
    os.write(out_w, b"got " + data)
    os.write(bell_w, b"!")
    os._exit(7 if data == b"exit 7" else 0)


class ZygoteTest(unittest.TestCase):
    def setUp(self):
        self.z = zygote.Zygote(child_main)

    def tearDown(self):
        self.z.sock.close()
        os.waitpid(self.z.pid, 0)

    def spawn(self, send, workdir=None):
        rec_r, ctl_w, bell_r, ticket = self.z.spawn({"nofile": 64}, workdir)
        os.write(ctl_w, send)
        os.close(ctl_w)
        try:
            self.assertTrue(select.select([bell_r], [], [], 10)[0], "the forked process never rang")
            got = os.read(rec_r, 100)
        finally:
            os.close(rec_r)
            os.close(bell_r)
        return got, ticket

    def test_spawn_and_reap(self):
        for send, code in [(b"hello", 0), (b"exit 7", 7)]:
            with self.subTest(send=send):
                got, ticket = self.spawn(send)
                self.assertEqual(got, b"got " + send)
                pid = self.z.child_pid(ticket)
                self.assertGreater(pid, 0)
                status = self.z.reap(pid)
                self.assertIsNotNone(status)
                self.assertEqual(os.waitstatus_to_exitcode(status), code)

    def test_pids_in_order(self):
        # Two spawns before either pid is asked for: each caller gets its own.
        first = self.z.spawn({}, None)
        second = self.z.spawn({}, None)
        pids = []
        for rec_r, ctl_w, bell_r, ticket in (second, first):
            os.write(ctl_w, b"x")
            os.close(ctl_w)
            self.assertTrue(select.select([bell_r], [], [], 10)[0])
            self.assertEqual(os.read(rec_r, 100), b"got x")
            pid = self.z.child_pid(ticket)
            pids.append(pid)
            self.assertEqual(os.waitstatus_to_exitcode(self.z.reap(pid)), 0)
            for fd in (rec_r, bell_r):
                os.close(fd)
        self.assertEqual(len(set(pids)), 2)

    def test_few_pages_written_per_fork(self):
        # Every page the zygote writes to after a fork it first copies (a
        # page fault): its loop must touch few. A spawn and a reap cost it
        # 94 faults on a JSON request, 63 on the binary one (Debian's
        # Python 3.11): a count, not a time.
        try:
            with open("/proc/%d/stat" % self.z.pid) as f:
                f.read()
        except OSError:
            self.skipTest("no /proc/PID/stat here")

        def faults():
            with open("/proc/%d/stat" % self.z.pid) as f:
                return int(f.read().rsplit(")", 1)[1].split()[7])  # minflt

        for _ in range(10):
            self.spawn(b"warm up")
        before, n = faults(), 100
        for _ in range(n):
            _, ticket = self.spawn(b"x")
            self.z.reap(self.z.child_pid(ticket))
        per_fork = (faults() - before) / n
        self.assertLess(per_fork, 80, "the zygote copies %.0f pages per fork" % per_fork)

    def test_reap_unknown(self):
        # Not the zygote's child: the wait status is unknown.
        self.assertIsNone(self.z.reap(os.getpid()))

    def test_unknown_request_ends_the_zygote(self):
        for bad in [zygote._HEAD.pack(9, 0), zygote._HEAD.pack(zygote._REAP, 3) + b"abc", zygote._HEAD.pack(zygote._SPAWN, 2) + b"{}"]:
            with self.subTest(bad=bad):
                z = zygote.Zygote(child_main)
                try:
                    z.sock.sendall(bad)  # a spawn without its three descriptors, too
                    self.assertTrue(select.select([z.sock], [], [], 10)[0])
                    self.assertEqual(z.sock.recv(8), b"")
                finally:
                    z.sock.close()
                    os.waitpid(z.pid, 0)

    def test_descriptors_of_a_bad_request_are_closed(self):
        # Two descriptors instead of three: the zygote closes them and ends.
        r, w = os.pipe()
        try:
            z = zygote.Zygote(child_main)
            try:
                socket.send_fds(z.sock, [zygote._HEAD.pack(zygote._SPAWN, 2) + b"{}"], [w, w])
                os.close(w)
                w = None
                self.assertTrue(select.select([z.sock], [], [], 10)[0])
                self.assertEqual(z.sock.recv(8), b"")
            finally:
                z.sock.close()
                os.waitpid(z.pid, 0)
            # Every write end is closed: the zygote's copies too.
            self.assertEqual(os.read(r, 10), b"")
        finally:
            os.close(r)
            if w is not None:
                os.close(w)


if __name__ == "__main__":
    unittest.main()
