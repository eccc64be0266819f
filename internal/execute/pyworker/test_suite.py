"""Unit tests of suite.py: evalplus's comparison rules, the MBPP+ input
restoration and the digests. Run by TestPythonUnits with /usr/bin/python3."""

import hashlib
import marshal
import math
import unittest

from pyworker import suite


class JudgeTest(unittest.TestCase):
    def check(self, oracle, atol, inp, out, exp):
        return suite.Judge(oracle, atol).check(inp, out, exp)

    def test_rules(self):
        cases = [
            ("exact", "", 0, [1], [1, 2], [1, 2], ""),
            ("an int equals a float", "", 0, [1], 2, 2.0, ""),
            ("a float within 1e-6", "", 0, [1], 0.1 + 1e-8, 0.1, ""),
            ("a float beyond 1e-6", "", 0, [1], 0.1 + 1e-5, 0.1, "atol"),
            ("a list of floats", "", 0, [1], [1.0, 2.0000001], [1.0, 2.0], ""),
            ("types must match when not exact", "", 1e-4, [1], (0.1,), [0.10001], "tuple"),
            ("lengths must match", "", 1e-4, [1], [0.1], [0.1, 0.2], "items"),
            ("no tolerance for ints", "", 0, [1], 3, 4, "differs"),
            ("nan is never close", "", 0, [1], math.nan, math.nan, "atol"),
            ("infinities are equal", "", 0, [1], math.inf, math.inf, ""),
            ("a root", "find_zero", 1e-4, [[-6, 11, -6, 1]], 2.0, 1.0, ""),
            ("not a root", "find_zero", 1e-4, [[-6, 11, -6, 1]], 1.5, 1.0, "root"),
            ("sets", "set_eq", 0, [[1]], (3, 1, 2), (1, 2, 3), ""),
            ("unhashable items fail a set comparison", "set_eq", 0, [[1]], [[1]], [[1]], "raised"),
            ("sum_div accepts 0", "sum_div", 0, [1], 0, 5, ""),
            ("always", "always", 0, [1], "anything", 5, ""),
            ("a second formula", "digit_distance", 0, [123, 256], 7, 6, ""),
            ("surface area's formula", "surface_area", 0, [3, 4], suite._surface_area(3, 4), 1, ""),
        ]
        for name, oracle, atol, inp, out, exp, want in cases:
            with self.subTest(name):
                got = self.check(oracle, atol, inp, out, exp)
                if want:
                    self.assertIn(want, got)
                else:
                    self.assertEqual(got, "")

    def test_atol_stays_for_the_run(self):
        j = suite.Judge("", 0)
        self.assertEqual(j.check([1], 1.0, 1.0), "")  # a float output: atol becomes 1e-6
        self.assertEqual(j.check([1], [5.0000001], [5]), "")  # so a list of ints is now compared with it
        self.assertIn("differs", suite.Judge("", 0).check([1], [5.0000001], [5]))
        # A numpy scalar is compared by value, but past exact equality
        # evalplus asks for the expected output's type, which float64 is not.
        self.assertEqual(suite.Judge("", 0).check([1], 0.5, 0.5, "numpy.float64"), "")
        self.assertEqual(suite.Judge("", 0).check([1], 0.5000000001, 0.5, "numpy.float64"),
                         "output is a numpy.float64, expected a float")
        self.assertEqual(suite.Judge("", 0).check([1], 0.5000000001, 0.5), "")


class RestoreTest(unittest.TestCase):
    def test_mbpp(self):
        self.assertEqual(suite.restore("mbpp", 2, [[[1, 2], [3]]]), [[(1, 2), (3,)]])
        self.assertEqual(suite.restore("mbpp", 124, [["0", "1j"]]), [(0.0, 1j)])
        self.assertEqual(suite.restore("mbpp", 252, [["(1+2j)"]]), [[1 + 2j]])
        self.assertEqual(suite.restore("mbpp", 793, {}), [])
        self.assertEqual(suite.restore("humaneval", 2, [[[1, 2]]]), [[[1, 2]]])

    def test_constants(self):
        got = suite.restore("mbpp", 404, [["\x00ticoder:-inf", "\x00ticoder:inf"]])
        self.assertEqual(got, [[-math.inf, math.inf]])


class DigestTest(unittest.TestCase):
    def test_equal_values(self):
        pairs = [(1, 1.0), ([True, 2], [1, 2.0]), ({1: "a", 2: "b"}, {2: "b", 1: "a"}), ({3, 1, 2}, frozenset({1, 2, 3})),
                 (10 ** 5000, 10 ** 5000), ("x" * 100000, "x" * 100000)]
        for k, (a, b) in enumerate(pairs):
            with self.subTest(pair=k):
                self.assertEqual(suite.digest(a), suite.digest(b))

    def test_different_values(self):
        pairs = [([1, 2], (1, 2)), (1, 1.5), ("1", 1), ([1, [2]], [1, 2]), ({1: 2}, {2: 1}), (b"a", "a")]
        for a, b in pairs:
            with self.subTest(a=repr(a)[:30]):
                self.assertNotEqual(suite.digest(a), suite.digest(b))

    def test_not_plain(self):
        with self.assertRaises(TypeError):
            suite.digest(object())

    def test_large_str_as_marshal_writes_it(self):
        # A large str is hashed a slice at a time, to the digest of what
        # marshal writes for it: references' outputs recorded before stay
        # comparable with a program's.
        class Text(str):
            pass

        big = " ".join(str(i) for i in range(30000))
        cases = [("one slice and one character", "y" * ((1 << 16) + 1)), ("slices and a rest", big),
                 ("a subclass", Text(big)), ("not ASCII", "é" * 70000), ("at the threshold", "z" * (1 << 16))]
        for name, v in cases:
            with self.subTest(name):
                want = hashlib.sha256(marshal.dumps(str(v), 2)).hexdigest()
                self.assertEqual(suite.digest(v), want)
        self.assertNotEqual(suite.digest(big), suite.digest(big[:-1] + "x"))
        self.assertNotEqual(suite.digest(big), suite.digest([big]))


if __name__ == "__main__":
    unittest.main()
