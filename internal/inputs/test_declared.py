"""Unit tests of declared.py: what type hints and docstrings declare.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import random
import unittest

from declared import RELATIONS, declared, outside


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
             {0: {"seq", "[]type=int"}, 1: {"nonneg", "type=int"},
              RELATIONS: [(("c", 0), "<=", ("v", 1)), (("v", 1), "<=", ("len", 0))]}),
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
            ("a range written with ≤ admits 0 too", fn("def solve(N):", "Given a positive integer N.\n    Constraints: 0 ≤ N ≤ 10000."),
             "solve", {0: {"nonneg", "type=int"}, RELATIONS: [(("c", 0), "<=", ("v", 0)), (("v", 0), "<=", ("c", 10000))]}),
            ("a least length", fn("def f(numbers: List[float]):", "From a list of numbers (of length at least two) pick two."),
             "f", {0: {"seq", "[]num", "len>=2"}}),
            ("a least length of a named list", fn("def f(ops, xs):", "Given lists ops and xs. The ops list has at least one operator."),
             "f", {0: {"seq", "nonempty"}, 1: {"seq"}}),
            ("'at least' in a condition is no constraint",
             fn("def happy(s: str):", "A string is happy if its length is at least 3 and it has at least two vowels."), "happy",
             {0: {"type=str"}}),
            ("a character class; words have spaces between them",
             fn("def f(s: str):", "Note: you may assume the input string contains only letters."), "f", {0: {"type=str", "letters+space"}}),
            ("a character class of a list's strings",
             fn("def f(lst):", "Given a list of strings, where each string consists of only digits, return a list."),
             "f", {0: {"seq", "[]type=str", "[]digits"}}),
            ("constraints, bulleted and numbered",
             fn("def f(arr, k):", "Constraints:\n        1. 1 <= len(arr) <= 10^3\n        * k > 0\n        the k-th item"), "f",
             {RELATIONS: [(("c", 1), "<=", ("len", 0)), (("len", 0), "<=", ("c", 1000)), (("v", 1), ">", ("c", 0))]}),
            ("an assumption", fn("def f(n):", "Return the largest prime factor of n. Assume n > 1 and is not a prime."), "f",
             {RELATIONS: [(("v", 0), ">", ("c", 1))]}),
            ("a comparison in prose is no constraint; other names are left out",
             fn("def f(a, b):", "Return a if a > b, else b.\n    such that x[i] < b and 1 <= i <= b"), "f", {}),
            ("a parameter named by its type", fn("def sort_array(array):", "Given an array of non-negative integers, sort it."),
             "sort_array", {0: {"seq", "[]type=int", "[]nonneg"}}),
            ("a plural name is a collection, not a number", fn("def f(numbers):", "Multiply all the numbers in a list."), "f", {}),
            ("one phrase for all parameters", fn("def any_int(x, y, z):", "Create a function that takes 3 numbers."), "any_int",
             {0: {"num"}, 1: {"num"}, 2: {"num"}}),
            ("a set of quoted characters", fn("def f(brackets: str):", 'brackets is a string of "(" and ")".'), "f",
             {0: {"type=str", "chars:()"}}),
            ("a character class of a lone parameter", fn("def encode(message):", "Encode the message. Assume only letters."),
             "encode", {0: {"letters+space"}}),
            ("a sequence's phrase is not shared", fn("def f(arr, k):", "Given an array of integers arr and k."), "f",
             {0: {"seq", "[]type=int"}}),
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
        rel = {RELATIONS: [(("c", 0), "<=", ("v", 1)), (("v", 1), "<=", ("len", 0))]}
        for args, want in [
            (([1, 2, 3], 3), []),
            (([1, 2, 3], 0), []),
            (([1, 2, 3], 4), ["1:!range"]),
            (([1], -1), ["1:!range"]),
            ((5, 1), []),  # len(5) cannot be taken: that comparison is not judged
            (([1, 2], "a"), []),  # nor a comparison of a string
        ]:
            with self.subTest(args=args):
                self.assertEqual(outside(rel, list(args), []), want)
        self.assertEqual(outside({0: {"type=str", "letters+space"}}, ["ab c"], []), [])
        self.assertEqual(outside({0: {"type=str", "letters+space"}}, ["ab, c"], []), ["0:!letters+space"])
        self.assertEqual(outside({0: {"letters+space"}}, [[1, 2]], []), [])  # judged on strings only
        self.assertEqual(outside({0: {"chars:()"}}, ["(())"], []), [])
        self.assertEqual(outside({0: {"chars:()"}}, ["(a)"], []), ["0:!chars:()"])
        self.assertEqual(outside({0: {"seq", "[]chars:01"}}, [["01", "1"]], []), [])
        self.assertEqual(outside({0: {"seq", "[]chars:01"}}, [["01", "2"]], []), ["0:![]chars:01"])
        self.assertEqual(outside({0: {"seq", "len>=2"}}, [[1]], []), ["0:!len>=2"])
        self.assertEqual(outside({}, ["anything"], []), [])

    def test_long_text(self):
        # Long docstrings of comparisons and names are read in time linear
        # in their length (the sandbox limits the pool's time).
        for doc in ("a<" * 50000, "n <= " * 30000 + "\n" + "1 <= n <= 3\n", "a positive integer n " * 5000,
                    'a string of "(" and ' * 5000, "of length at least two " * 5000):
            got = declared(fn("def f(n, a):", doc), "def f(n, a):", "f")
            self.assertIsInstance(got, dict)

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
                for k, v in got.items():
                    self.assertIsInstance(v, list if k == RELATIONS else set)
                outside(got, [1, "a", [1]], [])
                outside(got, [], [])


if __name__ == "__main__":
    unittest.main()
