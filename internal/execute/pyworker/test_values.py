"""Unit tests of values.py: the plain-value codec, what is compared and
what is shown.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import collections
import decimal
import enum
import fractions
import math
import unittest

from pyworker import values
from pyworker.wire import Garbled


class CodecTest(unittest.TestCase):
    def test_round_trip(self):
        vals = [
            None, True, 3, -(1 << 2000), 2.5, "s", b"\x00\xff", [1, (2, 3)], {"k": {1, 2}},
            frozenset({1}), 1 + 2j, range(1, 9, 2), fractions.Fraction(1, 3),
            decimal.Decimal("1.10"), collections.deque([1, 2]),
        ]
        for v in vals:
            with self.subTest(v=repr(v)[:40]):
                got = values.decode(values.encode(v))
                self.assertEqual(got, v)
                self.assertIs(type(got), type(v))

    def test_special_floats(self):
        for v in [math.inf, -math.inf]:
            self.assertEqual(values.decode(values.encode(v)), v)
        self.assertEqual(values.encode(math.nan), {"F": "nan"})
        self.assertTrue(math.isnan(values.decode({"F": "nan"})))
        self.assertEqual(values.encode(-0.0), -0.0)

    def test_big_ints(self):
        self.assertEqual(values.encode(1 << 999), 1 << 999)
        self.assertEqual(values.encode(1 << 1000), {"I": hex(1 << 1000)})
        self.assertEqual(values.decode({"I": hex(-(1 << 1000))}), -(1 << 1000))

    def test_subclasses_as_their_base(self):
        Point = collections.namedtuple("Point", "x y")

        class Color(enum.IntEnum):
            RED = 1

        class Hostile(list):
            def __iter__(self):
                raise AssertionError("the program's method ran")

            def __eq__(self, other):
                return True

        cases = [
            (Point(1, 2), (1, 2)),
            (collections.Counter("aab"), {"a": 2, "b": 1}),
            (collections.OrderedDict([(1, 2)]), {1: 2}),
            (Color.RED, 1),
            (Hostile([1, 2]), [1, 2]),
        ]
        for v, want in cases:
            with self.subTest(v=type(v).__name__):
                got = values.decode(values.encode(v))
                self.assertIs(type(got), type(want))
                self.assertEqual(got, want)
        self.assertIs(values.encode(Color.RED), 1)

    def test_not_plain(self):
        for v in [object(), lambda: 0, iter([1])]:
            with self.subTest(v=type(v).__name__):
                with self.assertRaises(values.NotPlain):
                    values.encode(v)

    def test_too_deep(self):
        v = []
        for _ in range(values.MAX_DEPTH + 5):
            v = [v]
        with self.assertRaises(values.NotPlain):
            values.encode(v)

    def test_too_large(self):
        with self.assertRaises(values.NotPlain):
            values.encode(list(range(10)), 0, [5])

    def test_garbled(self):
        for e in [{"l": 1}, {"x": []}, {"l": [], "t": []}, {"c": [1]}, {"r": [1, 2, 0]}, {"q": [1, 0]}, [1],
                  {"F": "1.5"}, {"b": 1}, {"d": [[1]]}, {"D": "x"}]:
            with self.subTest(e=e):
                with self.assertRaises(Garbled):
                    values.decode(e)

    def test_too_deep_to_decode(self):
        e = 1
        for _ in range(values.MAX_DEPTH + 5):
            e = {"l": [e]}
        with self.assertRaises(Garbled):
            values.decode(e)


class CompareTest(unittest.TestCase):
    """The worker compares decoded values with Python's ==: equal values of
    plain types compare as they would in the program's process."""

    def test_equal_after_round_trip(self):
        pairs = [(1, 1.0), (True, 1), ([1, 2], [1, 2]), ({1, 2}, frozenset({1, 2})), ((1, [2]), (1, [2])),
                 ({"a": 1, "b": 2}, {"b": 2, "a": 1}), (fractions.Fraction(1, 2), 0.5)]
        for a, b in pairs:
            with self.subTest(a=a, b=b):
                self.assertEqual(values.decode(values.encode(a)), values.decode(values.encode(b)))

    def test_different_after_round_trip(self):
        pairs = [([1, 2], (1, 2)), ("1", 1), (b"a", "a"), ([1, [2]], [1, 2]), (math.nan, math.nan)]
        for a, b in pairs:
            with self.subTest(a=a, b=b):
                self.assertNotEqual(values.decode(values.encode(a)), values.decode(values.encode(b)))


class RenderTest(unittest.TestCase):
    def test_clip(self):
        self.assertEqual(values.clip("abc", 5), "abc")
        self.assertEqual(values.clip("abcdef", 3), "abc…")
        self.assertEqual(values.clip(7, 10), "int")

    def test_plain_repr(self):
        self.assertEqual(values.plain_repr([1, "a"]), "[1, 'a']")
        self.assertEqual(len(values.plain_repr("x" * 5000)), values.MAX_VALUE + 1)

    def test_exc_name(self):
        self.assertEqual(values.exc_name(KeyError("k")), "KeyError")

    def test_exception_class(self):
        self.assertIs(values.exception_class("ValueError"), ValueError)
        custom = values.exception_class("MyError")
        self.assertTrue(issubclass(custom, Exception))
        self.assertEqual(custom.__name__, "MyError")
        self.assertIs(values.exception_class("MyError"), custom)
        # A builtin that is not an exception is not raised as one.
        self.assertIsNot(values.exception_class("len"), len)

    def test_not_plain_text(self):
        self.assertIn("too large", values.not_plain_text("list", "too large"))
        self.assertIn("nested too deeply", values.not_plain_text("list", "too deep"))
        self.assertIn("a Foo object", values.not_plain_text("Foo", "Foo"))


if __name__ == "__main__":
    unittest.main()
