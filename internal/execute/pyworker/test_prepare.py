"""Unit tests of prepare.py: who judges a test, and what a test and the
program's process get of each other.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import unittest

from pyworker import prepare


class WantedTest(unittest.TestCase):
    def test_wanted(self):
        code = "import math\ndef check(candidate):\n    assert abs(candidate(1) - poly(2)) < 1e-6 and math.pi\ncheck(f)\n"
        # Not the test's own bindings (check, math, candidate).
        self.assertEqual(prepare.wanted_names("", code, ""), ("f", "poly"))
        # A helper the setup defines is the setup's; the entry is always taken.
        self.assertEqual(prepare.wanted_names("def poly(x):\n    return x\n", code, "sum"), ("sum", "f"))
        self.assertEqual(prepare.wanted_names("", "assert [g(x) for x in y] and (lambda z: h(z))(1)", ""), ("g", "h", "y"))
        self.assertEqual(prepare.wanted_names("", "assert sum(1, 2) == 3", "sum"), ("sum",))
        self.assertEqual(prepare.wanted_names("", "assert __import__('os') and len(x)", ""), ("x",))


class LiteralCallsTest(unittest.TestCase):
    def test_calls_in_source_order(self):
        code = ("def check(candidate):\n    assert candidate(1, k='a') == 2\n    assert candidate([1, 2]) == 3\n"
                "    assert candidate(x) == 4\n    assert candidate(*[1]) == 5\ncheck(f)\n")
        # candidate maps to f; check(f) itself has no literal arguments.
        self.assertEqual(prepare.literal_calls(code), (("f", [1], {"k": "a"}), ("f", [[1, 2]], {})))

    def test_not_python(self):
        self.assertEqual(prepare.literal_calls("def ("), ())

    def test_prefetch(self):
        got = prepare.prefetch_calls((("f", [1, {2}], {}), ("f", [object()], {})))
        self.assertEqual(got, (("f", '["f",[1,{"s":[2]}],{}]'),))


class CompileTest(unittest.TestCase):
    def test_kinds(self):
        cases = [
            ("a literal expected value", {"code": "assert f(1) == 2", "input": "f(1)", "expected": "2"}, False, "A"),
            ("a benchmark's own test", {"code": "assert f(1) == 2", "trusted": True}, False, "T"),
            ("a comparison with a literal", {"code": "assert f(1) > 1"}, False, "A"),
            ("a comparison of two calls", {"code": "assert f(1) > f(0)"}, False, "J"),
            ("allow_objects", {"code": "assert f(1) == 2", "input": "f(1)", "expected": "2"}, True, "L"),
        ]
        for name, t, allow, kind in cases:
            with self.subTest(name=name):
                w = prepare.compile_test(t, allow)
                self.assertIsNone(w.bad)
                self.assertEqual(w.kind, kind)
        w = prepare.compile_test({"code": "assert f(1) == 2", "input": "f(1)", "expected": "2"}, False)
        self.assertEqual(w.expected, (2,))
        self.assertEqual(w.wanted, ("f",))

    def test_predicate_forms(self):
        cases = [
            ("assert f(1)", "f(1)", ("truthy",)),
            ("assert not f(1, k=[2])", "f(1, k=[2])", ("falsy",)),
            ("assert f(1) is None", "f(1)", ("is", None)),
            ("assert f(1) is not False", "f(1)", ("is not", False)),
            ("assert f(1) != [1, 2]", "f(1)", ("compare", [1, 2], False)),
            ("assert 'a' in f(1)", "f(1)", ("compare", "a", True)),
            ("assert f(x) <= -2.5", "f(x)", ("compare", -2.5, False)),
        ]
        for code, call, check in cases:
            with self.subTest(code=code):
                got = prepare.predicate_form(code, "x = 1")
                self.assertIsNotNone(got)
                self.assertEqual(got[0], call)
                self.assertEqual((got[1][0],) + got[1][2:] if got[1][0] == "compare" else got[1], check)
                w = prepare.compile_test({"code": code, "setup": "x = 1"}, False)
                self.assertEqual((w.kind, w.bad), ("A", None))

    def test_not_predicate_forms(self):
        # Anything whose verdict would be computed in the program's process
        # (a builtin, a method or the setup's helper applied to the program's
        # value), or that asserts more than one thing, stays with a judge.
        cases = [
            ("assert f(1) > f(0)", ""),
            ("assert f(1) > 1 and f(2) > 2", ""),
            ("assert 0 < f(1) < 3", ""),
            ("assert len(f(1)) == 3", ""),
            ("assert abs(f(1) - 0.5) < 1e-9", ""),
            ("assert isinstance(f(1), int)", ""),
            ("assert m.f(1)", ""),
            ("assert f(1)[0] == 2", ""),
            ("assert f(1) is 0", ""),
            ("assert f(1) is 1", ""),
            ("assert f(1) == x", ""),
            ("assert f(1), 'message'", ""),
            ("assert f", ""),
            ("assert helper(1)", "def helper(x):\n    return f(x) == 2"),
            ("assert g(1)", "from m import g"),
            ("assert g(1)", "try:\n    pass\nexcept Exception as g:\n    pass"),
            ("assert g(1)", "def g("),
            ("assert f(1)\nassert f(2)", ""),
            ("x = f(1)", ""),
        ]
        for code, setup in cases:
            with self.subTest(code=code):
                self.assertIsNone(prepare.predicate_form(code, setup))

    def test_holds(self):
        from pyworker import judge
        cases = [
            ("assert f(1)", [0], True), ("assert f(1)", [], False), ("assert not f(1)", "", True),
            ("assert f(1) is True", 1, False), ("assert f(1) is True", True, True),
            ("assert f(1) is not None", 0, True), ("assert f(1) != 2", 2.0, False),
            ("assert 2 in f(1)", [1, 2], True), ("assert f(1) in (1, 2)", 3, False), ("assert f(1) < 3", 2, True),
        ]
        for code, value, want in cases:
            with self.subTest(code=code, value=value):
                self.assertEqual(judge.holds(prepare.predicate_form(code, "")[1], value), want)
        with self.assertRaises(TypeError):
            judge.holds(prepare.predicate_form("assert f(1) < 3", "")[1], "a")

    def test_shared_calls(self):
        raw = [
            {"code": "assert f(1) == 2", "input": "f(1)", "expected": "2"},
            {"code": "assert f(1) == 3", "input": "f(1)", "expected": "3"},
            {"code": "assert not f(1)"},
            {"code": "assert f(1)", "setup": "x = 1"},
            {"code": "assert f(1) > f(0)"},
            {"code": "assert f(1) ==", "input": "f(1)", "expected": "2"},
            {"code": "assert f(2) == 2", "input": "f(2)", "expected": "2"},
            {"code": "assert f(1) == 4", "trusted": True},
            {"code": "assert f(1) != 2", "setup": "x = 1"},
        ]
        tests = [prepare.compile_test(t, False) for t in raw]
        self.assertEqual(prepare.shared_calls(tests), [None, 0, 0, None, None, None, None, None, 3])

    def test_trusted_prefetch(self):
        w = prepare.compile_test({"code": "assert f(1) == 2", "trusted": True, "entry": "f"}, False)
        self.assertEqual(w.entry, "f")
        self.assertEqual(w.prefetch, (("f", '["f",[1],{}]'),))

    def test_bad(self):
        w = prepare.compile_test({"code": "assert f(1) ==", "input": "f(1)", "expected": "2"}, False)
        self.assertEqual(w.bad, "SyntaxError")

    def test_entry_must_be_a_name(self):
        for entry in ["__import__", "a b", 3]:
            with self.subTest(entry=entry):
                self.assertEqual(prepare.compile_test({"code": "pass", "entry": entry}, False).entry, "")

    def test_compiled_once(self):
        raw = [{"code": "assert f(1) > 1"}]
        self.assertIs(prepare.compile_tests(raw, False)[0], prepare.compile_tests(raw, False)[0])

    def test_suite_not_loaded(self):
        self.assertEqual(prepare.compile_suite_test({"id": "absent"}).bad, "suite not loaded")


if __name__ == "__main__":
    unittest.main()
