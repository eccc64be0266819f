"""Unit tests of declared.py: what type hints and docstrings declare.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import random
import unittest

from declared import declared, outside


def fn(sig, doc):
    return '%s\n    """%s\n    """\n' % (sig, doc)


class DeclaredTest(unittest.TestCase):
    def test_declared(self):
        for name, prompt, entry, want in [
            ("a positive integer n", fn("def f(n):", "Given a positive integer n, return its digits."), "f",
             {0: {"pos", "type=int"}}),
            ("a noun, the name, its 'of' phrase; a stated range admits 0",
             fn("def maximum(arr, k):", "Given an array arr of integers and a positive integer k, return\n"
                "    the k largest.\n    Note: 0 <= k <= len(arr)"), "maximum",
             {0: {"seq", "[]type=int"}, 1: {"nonneg", "type=int"}}),
            ("the longest phrase before the name", fn("def add(lst):", "Given a non-empty list of integers lst. add them"),
             "add", {0: {"nonempty", "seq", "[]type=int"}}),
            ("type hints", fn("def f(xs: List[float], t: float, s: 'str', d: dict):", "Whatever."), "f",
             {0: {"seq", "[]num"}, 1: {"num"}, 2: {"type=str"}, 3: {"type=dict"}}),
            ("a hint and a docstring that disagree say nothing", fn("def f(s: str):", "Given a list s of numbers."), "f",
             {}),
            ("an int hint and 'number' agree", fn("def f(n: int):", "Given a number n."), "f", {0: {"type=int"}}),
            ("one parameter the docstring does not name",
             fn("def f(x):", "Given a list of strings, return the longest one."), "f", {0: {"seq", "[]type=str"}}),
            ("no statement about n", fn("def fib(n):", "Return n-th Fibonacci number."), "fib", {}),
            ("a name inside a word or a call is not the name",
             fn("def f(s, n):", "Count the s-words of a string; call len(n) or a positive integers_n."), "f", {}),
            ("two names, neither stated", fn("def f(a, b):", "Return the sum of a and b."), "f", {}),
            ("non-negative", fn("def f(n):", "n is a non-negative integer. Given a non-negative integer n"), "f",
             {0: {"nonneg", "type=int"}}),
            ("an unparsable prompt", "def f(x:\n", "f", {}),
            ("a phrase for two names", fn("def avg(n, m):", "You are given two positive integers n and m."), "avg",
             {0: {"pos", "type=int"}, 1: {"pos", "type=int"}}),
        ]:
            with self.subTest(name):
                self.assertEqual(declared(prompt, prompt, entry), want)

    def test_outside(self):
        dom = {0: {"seq", "[]type=int"}, 1: {"pos", "type=int"}}
        for args, want in [
            (([1, 2], 3), []),
            (((1, 2), 3), []),  # a tuple is a sequence
            (([], 1), []),  # an empty list's elements have every property
            (([True], True), []),  # a bool is an int, as evalplus's inputs take it
            (("ab", 3), ["0:!seq"]),
            (([1, "a"], 3), ["0:![]type=int"]),
            (([1], 0), ["1:!pos"]),
            (([1], 2.5), ["1:!type=int"]),
            (([1],), []),  # arguments not given are not judged
        ]:
            with self.subTest(args=args):
                self.assertEqual(outside(dom, list(args), []), want)
        self.assertEqual(outside({0: {"num"}}, [2.5], []), [])
        self.assertEqual(outside({}, ["anything"], []), [])

    def test_any_text(self):
        # Any prompt, however odd, gives a dict of sets and never raises.
        rng = random.Random(7)
        words = ["a", "an", "the", "given", "list", "of", "positive", "non-empty", "integers", "n", "x", "string",
                 "0", "<=", ",", ".", "def", "(", ")", ":", '"""', "\n", "    ", "number", "array", "k", "of"]
        for _ in range(300):
            doc = " ".join(rng.choice(words) for _ in range(rng.randrange(40)))
            for prompt in (fn("def f(n, x, k):", doc), doc, "def f(n" + doc):
                got = declared(prompt, prompt, "f")
                self.assertIsInstance(got, dict)
                for v in got.values():
                    self.assertIsInstance(v, set)
                outside(got, [1, "a", [1]], [])


if __name__ == "__main__":
    unittest.main()
