"""Unit tests of harness.py's pure parts: the plain-value codec and clip.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3; importing
harness.py runs nothing (main runs only as __main__), but it makes its
private work directory under $TMPDIR.
"""

import collections
import decimal
import fractions
import unittest

import harness


class CodecTest(unittest.TestCase):
    def test_round_trip(self):
        values = [
            None, True, 3, -(1 << 2000), 2.5, "s", b"\x00\xff", [1, (2, 3)], {"k": {1, 2}},
            frozenset({1}), 1 + 2j, range(1, 9, 2), fractions.Fraction(1, 3),
            decimal.Decimal("1.10"), collections.deque([1, 2]),
        ]
        for v in values:
            with self.subTest(v=repr(v)[:40]):
                got = harness.decode(harness.encode(v))
                self.assertEqual(got, v)
                self.assertIs(type(got), type(v))

    def test_not_plain(self):
        for v in [object(), lambda: 0, iter([1])]:
            with self.subTest(v=type(v).__name__):
                with self.assertRaises(harness.NotPlain):
                    harness.encode(v)

    def test_too_deep(self):
        v = []
        for _ in range(harness.MAX_DEPTH + 5):
            v = [v]
        with self.assertRaises(harness.NotPlain):
            harness.encode(v)

    def test_garbled(self):
        for e in [{"l": 1}, {"x": []}, {"l": [], "t": []}, {"c": [1]}, {"r": [1, 2, 0]}, {"q": [1, 0]}, [1]]:
            with self.subTest(e=e):
                with self.assertRaises(harness.Garbled):
                    harness.decode(e)


class JSONTest(unittest.TestCase):
    """_dumps and _loads, the harness's fast json.dumps and json.loads."""

    def test_round_trip(self):
        for v in [None, 1, -2.5, "é\n\x00", [1, [2, {"a": None}]], {"k": [True, False]}, float("inf")]:
            with self.subTest(v=v):
                text = harness._dumps(v)
                self.assertTrue(text.isascii())
                self.assertEqual(harness._loads(text.encode()), v)
                self.assertEqual(harness._loads(text), v)

    def test_one_value_only(self):
        for bad in [b"", b" ", b"{", b"[1] [2]", b"1 x", b"\xff", b"nan"]:
            with self.subTest(bad=bad):
                with self.assertRaises(ValueError):
                    harness._loads(bad)

    def test_not_json(self):
        with self.assertRaises(TypeError):
            harness._dumps({"a": object()})


class BuiltinsTagTest(unittest.TestCase):
    def test_restore(self):
        import builtins
        clean = harness.restore_builtins()
        self.assertIs(harness.restore_builtins(clean), clean)  # nothing changed
        builtins.__dict__["ticoder_test"] = 1
        try:
            clean = harness.restore_builtins(clean)
            self.assertNotIn("ticoder_test", builtins.__dict__)
        finally:
            builtins.__dict__.pop("ticoder_test", None)


class ClipTest(unittest.TestCase):
    def test_clip(self):
        self.assertEqual(harness.clip("abc", 5), "abc")
        self.assertEqual(harness.clip("abcdef", 3), "abc…")
        self.assertEqual(harness.clip(7, 10), "int")


class NamesTest(unittest.TestCase):
    """What a test takes from a program: wanted_names, names_message and
    test_globals."""

    def test_wanted(self):
        code = "import math\ndef check(candidate):\n    assert abs(candidate(1) - poly(2)) < 1e-6 and math.pi\ncheck(f)\n"
        # Not the test's own bindings (check, math, candidate).
        self.assertEqual(harness.wanted_names("", code, ""), ("f", "poly"))
        # A helper the setup defines is the setup's; the entry is always taken.
        self.assertEqual(harness.wanted_names("def poly(x):\n    return x\n", code, "sum"), ("sum", "f"))
        self.assertEqual(harness.wanted_names("", "assert [g(x) for x in y] and (lambda z: h(z))(1)", ""), ("g", "h", "y"))
        self.assertEqual(harness.wanted_names("", "assert sum(1, 2) == 3", "sum"), ("sum",))
        self.assertEqual(harness.wanted_names("", "assert __import__('os') and len(x)", ""), ("x",))

    def test_names_message(self):
        import math
        g = {"f": len, "abs": abs, "m": math, "v": [1], "o": object(), "__builtins__": {}}
        msg = harness.names_message(0, g, ("f", "m", "v", "o", "absent"))
        self.assertEqual(msg["n"], {"f": "f", "m": ["m", "math"], "v": ["v", {"l": [1]}]})

    def test_globals_refuse_unwanted(self):
        wanted = ("f", "math")
        for names in [{"abs": "f"}, {"__builtins__": ["m", "os"]}, {"f": ["x", 1]}, {1: "f"}]:
            with self.subTest(names=names):
                with self.assertRaises(harness.Garbled):
                    harness.test_globals(names, None, wanted)
        g = harness.test_globals({"f": "f", "math": ["m", "math"]}, None, wanted)
        self.assertEqual(sorted(g), ["__name__", "f", "math"])

    def test_globals_modules_under_their_names(self):
        import math
        g = harness.test_globals({"math": ["m", "operator"], "path": ["m", "os.path"]}, None, ("math", "path"))
        self.assertNotIn("math", g)  # not another module in its place
        self.assertIs(g["path"], __import__("os").path)
        self.assertIs(harness.test_globals({"math": ["m", "math"]}, None, ("math",))["math"], math)


if __name__ == "__main__":
    unittest.main()
