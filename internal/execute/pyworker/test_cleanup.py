"""Unit tests of cleanup.py: emptying a directory without following links.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import os
import tempfile
import unittest

from pyworker import cleanup


class ClearTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.outside = tempfile.mkdtemp()
        open(os.path.join(self.outside, "keep"), "w").close()

    def tearDown(self):
        for d in (self.root, self.outside):
            for dirpath, dirs, _ in os.walk(d):
                for x in dirs:
                    os.chmod(os.path.join(dirpath, x), 0o700)
            cleanup.remove_tree(d)

    def test_clear_dir(self):
        r = self.root
        os.makedirs(os.path.join(r, "a", "b"))
        open(os.path.join(r, "a", "b", "f"), "w").close()
        os.symlink(self.outside, os.path.join(r, "link"))
        os.mkdir(os.path.join(r, "locked"))
        open(os.path.join(r, "locked", "g"), "w").close()
        os.chmod(os.path.join(r, "locked"), 0)
        cleanup.clear_dir(r)
        self.assertEqual(os.listdir(r), [])
        self.assertEqual(os.listdir(self.outside), ["keep"])  # the link was not followed

    def test_one_empty_directory(self):
        os.mkdir(os.path.join(self.root, "run"))
        cleanup.clear_dir(self.root)
        self.assertEqual(os.listdir(self.root), [])

    def test_remove_tree(self):
        d = os.path.join(self.root, "judge-x")
        os.makedirs(os.path.join(d, "sub"))
        cleanup.remove_tree(d)
        self.assertFalse(os.path.exists(d))
        cleanup.remove_tree(d)  # gone already: nothing to do


class DescribeTest(unittest.TestCase):
    def test_describe(self):
        self.assertEqual(cleanup.describe(None), "died")
        self.assertEqual(cleanup.describe(9), "signal 9")
        self.assertEqual(cleanup.describe(3 << 8), "exit status 3")


if __name__ == "__main__":
    unittest.main()
