"""Unit tests of inputs.py: collect and classes.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import random
import re
import unittest

import inputs
import mutate

PROMPT = 'def f(n, s):\n    """\n    >>> f(2, "ab")\n    3\n    """\n'


class CollectTest(unittest.TestCase):
    def test_origins(self):
        got = inputs.collect({"entry": "f", "prompt": PROMPT, "signature": "def f(n, s):", "tests": [
            {"code": "assert f(2, 'ab') == 3", "input": "f(2, 'ab')"},
            {"code": "assert f(5, 'x') is True"},
        ], "proposed": [], "max_inputs": 10, "max_chars": 120, "seed": 1})["inputs"]
        calls = [i["call"] for i in got]
        self.assertLessEqual(len(got), 10)
        self.assertEqual(len(calls), len(set(calls)), "calls are deduplicated")
        self.assertNotIn("f(2, 'ab')", calls, "a test's own call is left out")
        self.assertIn("f(5, 'x')", calls)
        self.assertTrue({"test", "mutation"} <= {i["origin"] for i in got}, got)
        self.assertTrue(all(c.startswith("f(") and len(c) <= 120 for c in calls))

    def test_atypical_strings(self):
        # The examples are words of lower-case letters: a mutation with a
        # space or a letter no example uses, an empty or one-letter word,
        # or upper case is unlike all of them.
        prompt = 'def f(s):\n    """\n    >>> f("abba")\n    2\n    >>> f("baab")\n    1\n    """\n'
        got = inputs.collect({"entry": "f", "prompt": prompt, "signature": "def f(s):", "tests": [],
                              "max_inputs": 64, "max_chars": 120, "seed": 1})["inputs"]
        seen = set()
        for i in got:
            if i["origin"] != "mutation":
                continue
            s = eval(i["call"][2:-1])
            typical = len(s) >= 2 and set(s) <= set("ab")
            self.assertEqual(not typical, bool(i.get("atypical")), i)
            seen.add(typical)
        self.assertEqual(seen, {True, False}, got)

    def test_declared_domain(self):
        # The docstring declares a list of integers and a positive integer;
        # the model's only tests call the function on strings. Those calls
        # are unlike the domain, their mutations atypical, and typed values
        # of the declared domain come first.
        prompt = ('def maximum(arr, k):\n    """Given an array arr of integers and a positive integer k,\n'
                  '    return the k largest numbers of arr.\n    """\n')
        tests = [{"code": "assert maximum(%s) == None" % c, "input": "maximum(%s)" % c} for c in ("'a', 2", "'ab', 1")]
        got = inputs.collect({"entry": "maximum", "prompt": prompt, "signature": "def maximum(arr, k):", "tests": tests,
                              "max_inputs": 64, "max_chars": 120, "seed": 1})
        self.assertEqual(got["unlike"], [True, True])
        self.assertIn("0:!seq", got["traits"][0])
        pool = got["inputs"]
        self.assertEqual(pool[0]["origin"], "hint", pool[:3])
        for i in pool:
            args = eval("[" + i["call"][len("maximum("):-1] + "]")
            inside = type(args[0]) in (list, tuple) and all(type(x) is int for x in args[0]) \
                and type(args[1]) is int and args[1] > 0
            self.assertEqual(not inside, bool(i.get("atypical")), i)
        self.assertTrue(any(not i.get("atypical") for i in pool))

    def test_random_number_lists(self):
        # No written call: the pool starts from the declared "array of
        # numbers", small values and two lists of random numbers of one to
        # three digits (which the small ones never have);
        # a declared "positive" keeps them positive. The same seed gives the
        # same pool.
        for prompt, lo in [('def f(nums):\n    """Takes an array of numbers and counts the odd ones."""\n', -1000),
                           ('def f(nums):\n    """Given a list of positive integers, count the odd ones."""\n', 1)]:
            with self.subTest(lo=lo):
                arg = {"entry": "f", "prompt": prompt, "signature": "def f(nums):", "tests": [],
                       "max_inputs": 64, "max_chars": 120, "seed": 7}
                pool = inputs.collect(arg)["inputs"]
                self.assertEqual(pool, inputs.collect(arg)["inputs"])
                hints = [eval(i["call"][2:-1]) for i in pool if i["origin"] == "hint"]
                small, rand = hints[:-2], hints[-2:]
                self.assertFalse(any(abs(x) > 10 for v in small for x in v), hints)
                self.assertTrue(any(abs(x) > 10 for v in rand for x in v), hints)
                for v in rand:
                    self.assertTrue(5 <= len(v) <= 8 and all(type(x) is int and lo <= x <= 1000 for x in v), v)
        self.assertEqual(inputs._random_number_lists([[1, 2], "ab"], random.Random(1)), [])
        self.assertEqual(inputs._random_number_lists([["a"], []], random.Random(1)), [])
        floats = inputs._random_number_lists([[0.5, 1.0]], random.Random(1))
        self.assertTrue(all(type(x) is float and 0 <= x <= 1000 for v in floats for x in v), floats)

    def test_named_types(self):
        # A parameter's name suggests its type by common convention; one
        # letter only where that is near universal.
        for name, want in [("test_list", {"seq"}), ("nums1", {"seq"}), ("arrSize", {"type=int"}), ("arr_size", {"type=int"}),
                           ("num_list", {"seq"}), ("list_of_strings", {"seq", "[]type=str"}), ("str_x", {"type=str"}), ("test_tup2", {"type=tuple"}),
                           ("dict1", {"type=dict"}), ("words", {"seq", "[]type=str"}), ("str1", {"type=str"}),
                           ("text", {"type=str"}), ("s", {"type=str"}), ("n", {"type=int"}), ("K", {"type=int"}),
                           ("m2", {"type=int"}), ("l", None), ("a", None), ("A", None), ("foo", None), ("_", None)]:
            with self.subTest(name=name):
                self.assertEqual(inputs._named(name), want)
        self.assertTrue(inputs._fits({"seq", "[]type=str"}, ["a"]))
        self.assertFalse(inputs._fits({"seq", "[]type=str"}, [1]))
        self.assertFalse(inputs._fits({"type=int"}, True))
        # Without examples, tests or declared types, the named types come
        # first and seed the mutations; calls with other types stay in the
        # pool, atypical, and seed nothing.
        prompt = 'def f(test_list, K):\n    """Write a function to check the list."""\n'
        pool = inputs.collect({"entry": "f", "prompt": prompt, "signature": "def f(test_list, K):", "tests": [],
                               "max_inputs": 64, "max_chars": 120, "seed": 1})["inputs"]
        typed = lambda i: (lambda a: type(a[0]) is list and type(a[1]) is int)(eval("[" + i["call"][2:-1] + "]"))
        hints = [i for i in pool if i["origin"] == "hint"]
        self.assertEqual(hints[0]["call"], "f([], 0)")
        self.assertTrue(any(i.get("atypical") for i in hints), hints)
        for i in hints:
            self.assertEqual(typed(i), not i.get("atypical"), i)
        self.assertTrue(any(typed(i) and max(eval(i["call"][2:-1])[0] or [0]) > 10 for i in hints), "random lists of numbers")
        self.assertTrue(all(typed(i) for i in pool if i["origin"] == "mutation" and not i.get("atypical")), pool)
        # A name says nothing where a type hint or the docstring does.
        pool = inputs.collect({"entry": "f", "prompt": 'def f(nums: str):\n    """Count."""\n', "signature": "def f(nums: str):",
                               "tests": [], "max_inputs": 64, "max_chars": 120, "seed": 1})["inputs"]
        self.assertEqual(pool[0]["call"], "f('')")
        self.assertFalse(any(i.get("atypical") for i in pool if i["origin"] == "hint"))

    def test_sizes(self):
        # An integer that is a list's length in every seed (at least two)
        # stays its length in typical mutations.
        seeds = [([[1, 2, 3], 3, 9], []), ([[5], 1, 2], [])]
        inv = inputs._invariants(seeds)
        self.assertEqual(inv["length of"], {(1, 0)})
        self.assertTrue(inputs._keeps(inv, [[7, 8], 2, 3], []))
        self.assertFalse(inputs._keeps(inv, [[7, 8], 3, 3], []))
        self.assertFalse(inputs._keeps(inv, [[7, 8]], []))
        self.assertNotIn("length of", inputs._invariants(seeds[:1]), "one seed says nothing")
        self.assertNotIn("length of", inputs._invariants(seeds + [([[1], 2, 1], [])]))
        # A parameter named as a size beside one list starts as its length.
        for name, sized in [("n", True), ("N", True), ("arr_size", True), ("strLen", True), ("k", False), ("size_x", False)]:
            with self.subTest(name=name):
                self.assertEqual(inputs._sized(name), sized)
        prompt = 'def f(arr, n, k):\n    """Find the element occurring k times."""\n'
        pool = inputs.collect({"entry": "f", "prompt": prompt, "signature": "def f(arr, n, k):", "tests": [],
                               "max_inputs": 64, "max_chars": 120, "seed": 1})["inputs"]
        typical = [eval("[" + i["call"][2:-1] + "]") for i in pool if not i.get("atypical")]
        self.assertGreater(len(typical), 10)
        for args in typical:
            self.assertEqual(args[1], len(args[0]), args)
        self.assertTrue(any(a[2] != len(a[0]) for a in typical), "k is no size")

    def test_random_lists_of_seeds(self):
        # The examples' list of positive ints is replaced by random lists
        # of positive ints, which come in as mutations after the first
        # round; the other argument and a list of strings are kept.
        prompt = 'def f(xs, k, names):\n    """\n    >>> f([3, 1, 2], 2, ["a"])\n    1\n    >>> f([5, 4], 1, ["b", "c"])\n    0\n    """\n'
        got = inputs.collect({"entry": "f", "prompt": prompt, "signature": "def f(xs, k, names):", "tests": [],
                              "max_inputs": 64, "max_chars": 120, "seed": 3})["inputs"]
        calls = [eval("[" + i["call"][2:-1] + "]") for i in got if i["origin"] == "mutation"]
        rand = [c for c in calls if len(c[0]) >= 5 and any(x > 5 for x in c[0])]
        self.assertEqual(len(rand), 2, calls)
        for xs, k, names in rand:
            self.assertTrue(len(xs) <= 8 and all(type(x) is int and 1 <= x <= 1000 for x in xs), xs)
            self.assertEqual((k, names), (2, ["a"]))  # the shortest seed
        self.assertEqual(inputs._random_calls([], random.Random(1)), [])
        self.assertEqual(inputs._random_calls([(["ab"], [])], random.Random(1)), [])

    def test_atypical_reserve(self):
        # Typical mutations would fill the pool; an eighth of it is kept for
        # atypical ones (upper case, the empty string), but not for inputs
        # outside what the problem declares ("a non-empty string").
        examples = "".join('    >>> f("%s")\n    1\n' % w for w in ("abc", "hello", "world", "python", "tests", "bcd"))
        for doc, want in [("", {"f('TESTS')", "f('')"}), ("Given a non-empty string s.\n", {"f('TESTS')", "f('bc ')"})]:
            with self.subTest(doc=doc):
                prompt = 'def f(s):\n    """%s\n%s    """\n' % (doc, examples)
                got = inputs.collect({"entry": "f", "prompt": prompt, "signature": "def f(s):", "tests": [],
                                      "max_inputs": 16, "max_chars": 120, "seed": 1})["inputs"]
                self.assertEqual(len(got), 16)
                self.assertEqual({i["call"] for i in got if i.get("atypical")}, want, got)
                self.assertEqual("f('')" in {i["call"] for i in got}, not doc)

    def test_reversed_lists(self):
        # Each list argument reversed, one at a time (order-sensitive
        # programs: "the first of the longest", "the greatest, not the
        # first found"); a palindrome or a one-element list has no reversal.
        self.assertEqual(inputs._reversed([[1, 2, 3], 5, ["a", "b"]], [("k", 1)]),
                         [([[3, 2, 1], 5, ["a", "b"]], [("k", 1)]), ([[1, 2, 3], 5, ["b", "a"]], [("k", 1)])])
        self.assertEqual(inputs._reversed([[1, 2, 1], [7], "ab", (1, 2)], []), [])
        prompt = 'def f(xs):\n    """\n    >>> f([4, 1, 4, 4, 1, 2])\n    4\n    """\n'
        got = inputs.collect({"entry": "f", "prompt": prompt, "signature": "def f(xs):", "tests": [],
                              "max_inputs": 64, "max_chars": 120, "seed": 1})["inputs"]
        self.assertIn("f([2, 1, 4, 4, 1, 4])", [i["call"] for i in got if i["origin"] == "mutation"])

    def test_doubled_integers(self):
        # Each integer argument of magnitude two or more doubled, one at a
        # time, keyword arguments too; bools, floats and elements are not.
        self.assertEqual(inputs._doubled([4, -3, 1, True, 2.0, [5]], [("k", 7)]),
                         [([8, -3, 1, True, 2.0, [5]], [("k", 7)]), ([4, -6, 1, True, 2.0, [5]], [("k", 7)]),
                          ([4, -3, 1, True, 2.0, [5]], [("k", 14)])])
        # In a pool with room they come after every other mutation; in a
        # pool full of nearer mutations there is none.
        prompt = 'def f(n):\n    """\n    >>> f(4)\n    True\n    >>> f(6)\n    False\n    """\n'
        arg = {"entry": "f", "prompt": prompt, "signature": "def f(n):", "tests": [], "max_inputs": 64, "max_chars": 120, "seed": 1}
        calls = [i["call"] for i in inputs.collect(arg)["inputs"] if not i.get("atypical")]
        self.assertEqual(calls[-2:], ["f(8)", "f(12)"])
        arg["max_inputs"] = 5
        self.assertNotIn("f(12)", [i["call"] for i in inputs.collect(arg)["inputs"]])

    def test_swapped_arguments(self):
        # Each two positional arguments of one scalar type and different
        # values swapped; not across types, not equal values, not lists.
        self.assertEqual(inputs._swapped([3, 4, 5], []), [([4, 3, 5], []), ([5, 4, 3], []), ([3, 5, 4], [])])
        self.assertEqual(inputs._swapped([3, "a", 3, 2.0, [1], "b"], [("k", 1)]),
                         [([3, "b", 3, 2.0, [1], "a"], [("k", 1)])])
        self.assertEqual(inputs._swapped([[1], [2]], []), [])

    def test_whole_floats(self):
        # An integer argument where some seed passes a float, given as the
        # equal float; not where every seed passes an int, not bools.
        self.assertEqual(inputs._as_floats([5, 2, True], [("k", 3)], {0, 2, "k"}),
                         [([5.0, 2, True], [("k", 3)]), ([5, 2, True], [("k", 3.0)])])
        self.assertEqual(inputs._as_floats([5], [], set()), [])
        prompt = 'def f(x, y):\n    """\n    >>> f(5, 2)\n    True\n    >>> f(3.5, 1)\n    False\n    """\n'
        calls = [i["call"] for i in inputs.collect({"entry": "f", "prompt": prompt, "signature": "def f(x, y):", "tests": [],
                                                    "max_inputs": 64, "max_chars": 120, "seed": 1})["inputs"]]
        self.assertIn("f(5.0, 2)", calls)
        self.assertNotIn("f(5, 2.0)", calls, "every seed's y is an int")
        # Type guesses (a float among them) are no written float.
        calls = [i["call"] for i in inputs.collect({"entry": "f", "prompt": 'def f(n):\n    """Count."""\n', "signature": "def f(n):",
                                                    "tests": [], "max_inputs": 64, "max_chars": 120, "seed": 1})["inputs"]]
        self.assertIn("f(2.5)", calls)
        self.assertIn("f(1)", calls)
        self.assertNotIn("f(1.0)", calls)

    def test_negated_lists(self):
        # A list or tuple of numbers with a positive element, every element
        # negated; not lists of other things, nor lists without a positive.
        self.assertEqual(inputs._negated([[1, -2, 0.5], (3,), ["a"], [], [-1, 0]], []),
                         [([[-1, 2, -0.5], (3,), ["a"], [], [-1, 0]], []), ([[1, -2, 0.5], (-3,), ["a"], [], [-1, 0]], [])])
        # Where every example's elements are positive the negated list is
        # atypical, yet in the pool.
        prompt = 'def f(arr, k):\n    """\n    >>> f([111, 21, 3, 4000, 5], 2)\n    24\n    """\n'
        got = inputs.collect({"entry": "f", "prompt": prompt, "signature": "def f(arr, k):", "tests": [],
                              "max_inputs": 64, "max_chars": 120, "seed": 1})["inputs"]
        neg = [i for i in got if i["call"] == "f([-111, -21, -3, -4000, -5], 2)"]
        self.assertEqual(len(neg), 1, [i["call"] for i in got])
        self.assertTrue(neg[0].get("atypical"))

    def test_same_length_lists(self):
        # Two list arguments of one length in every seed (at least two
        # seeds): a mutation that changes one's length breaks the domain
        # the examples suggest and comes after those that keep it.
        seeds = [([[1, 2, 3], [4, 5, 6], 9], []), ([[0, 5], [4, 1], 2], [])]
        inv = inputs._invariants(seeds)
        self.assertEqual(inv["same length"], {(0, 1)})
        self.assertTrue(inputs._keeps(inv, [[7, 8], [1, 2], 3], []))
        self.assertFalse(inputs._keeps(inv, [[7, 8], [1], 3], []))
        self.assertFalse(inputs._keeps(inv, [[7, 8]], []))
        self.assertNotIn("same length", inputs._invariants(seeds[:1]), "one seed says nothing")
        self.assertNotIn("same length", inputs._invariants(seeds + [([[1], [1, 2], 3], [])]))
        prompt = 'def f(a, b):\n    """\n    >>> f([1, 2, 3], [3, 2, 1])\n    2\n    >>> f([0, 5], [4, 1])\n    0\n    """\n'
        got = inputs.collect({"entry": "f", "prompt": prompt, "signature": "def f(a, b):", "tests": [],
                              "max_inputs": 64, "max_chars": 120, "seed": 1})["inputs"]
        typical = 0
        for i in got:
            a, b = eval("(" + i["call"][2:-1] + ",)")[:2]
            if len(a) != len(b):
                self.assertTrue(i.get("atypical"), i)
            elif i["origin"] == "mutation" and not i.get("atypical"):
                typical += 1
        self.assertGreater(typical, 0, got)

    def test_borrowed_strings(self):
        # A string argument replaced by another argument's string (the
        # longest string element of a list) and by a two-character piece
        # of its middle: a substring that occurs, where the seeds' 'a'
        # tells "contains" from "contains one of its letters" nowhere.
        # Keyword arguments too; nothing without another argument's string.
        self.assertEqual(inputs._borrowed([["abc", "bacd", "cde"], "a"], []),
                         [([["abc", "bacd", "cde"], "bacd"], []), ([["abc", "bacd", "cde"], "ac"], [])])
        self.assertEqual(inputs._borrowed(["hello", "l"], [("n", 2)]),
                         [(["hello", "hello"], [("n", 2)]), (["hello", "el"], [("n", 2)])])
        self.assertEqual(inputs._borrowed(["x"], [("sub", "ab")]), [(["ab"], [("sub", "ab")])])  # the piece is the whole
        self.assertEqual(inputs._borrowed(["x"], [("sub", "b")]), [])
        self.assertEqual(inputs._borrowed(["abcd"], [("sub", "a")]), [(["abcd"], [("sub", "abcd")]), (["abcd"], [("sub", "bc")])])
        self.assertEqual(inputs._borrowed(["abc", 3, [1, 2]], []), [])
        prompt = 'def f(xs, s):\n    """\n    >>> f(["abc", "array"], "a")\n    2\n    """\n'
        got = inputs.collect({"entry": "f", "prompt": prompt, "signature": "def f(xs, s):", "tests": [],
                              "max_inputs": 64, "max_chars": 120, "seed": 1})["inputs"]
        calls = [i["call"] for i in got if i["origin"] == "mutation"]
        self.assertIn("f(['abc', 'array'], 'rr')", calls)
        self.assertIn("f(['abc', 'array'], 'array')", calls)

    def test_string_mutants(self):
        # Case swapped whole and in one letter (a mixed-case input tells
        # case-folding programs from the others); a string without two
        # letters has no one-letter swap.
        for s, want, unwanted in [("abc", {"ABC", "aBc", ""}, set()), ("a1", {"A1", ""}, {"A1x"}), ("", {"a", " ", "ab"}, set())]:
            with self.subTest(s=s):
                got = set(mutate._str_mutants(s, random.Random(1)))
                self.assertTrue(want <= got, got)
                self.assertFalse(unwanted & got, got)

    def test_number_mutants(self):
        # A number written inside a string is mutated as an int (+1, -1,
        # doubled, 1; never negative), the rest of the string (its format)
        # kept, and a number with leading zeros keeps its width.
        def skeleton(s):
            return re.sub(r"[0-9]+", "0", s)

        for s, want in [("1/4", {"2/4", "1/5", "1/8", "1/3", "1/1"}), ("03-1-2000", {"04-1-2000", "02-1-2000", "06-1-2000", "01-1-2000"}),
                        ("x1example.dll", {"x2example.dll", "x0example.dll"})]:
            with self.subTest(s=s):
                got = {mutate._number_mutant(s, random.Random(seed)) for seed in range(80)}
                self.assertTrue(want <= got, got)
                for m in got:
                    self.assertEqual(skeleton(m), skeleton(s), m)
        self.assertNotIn("-1/4", {mutate._number_mutant("0/4", random.Random(seed)) for seed in range(40)}, "no sign appears")
        self.assertIsNone(mutate._number_mutant("abc", random.Random(1)))
        self.assertIsNone(mutate._number_mutant("9" * 5000, random.Random(1)), "a digit string, not a number")
        self.assertEqual(mutate._numbers_swapped("1/" + "2" * 30 + "/3"), "3/" + "2" * 30 + "/1")
        self.assertIn("1/4", {m for seed in range(20) for m in mutate._str_mutants("1/5", random.Random(seed))})
        # Two different numbers inside a string swapped, as list elements
        # are: "1/3" -> "3/1" (a fraction and its inverse).
        for s, want in [("1/3", "3/1"), ("4/4", None), ("4/4/1", "1/4/4"), ("5 apples and 6 oranges", "6 apples and 5 oranges"), ("x", None)]:
            self.assertEqual(mutate._numbers_swapped(s), want, s)
        self.assertIn("3/1", mutate._str_mutants("1/3", random.Random(1)))

    def test_random_ints(self):
        # Ints that the seeds' small values never reach, of their sign and
        # of one or two digits; none for flags, 0/1 indices or other types.
        rng = random.Random(1)
        got = [x for _ in range(50) for x in inputs._random_ints([4, 5, 7], rng)]
        self.assertTrue(all(1 <= x <= 100 for x in got), got)
        self.assertTrue(any(x > 20 for x in got), got)
        self.assertTrue(any(x < -1 for _ in range(20) for x in inputs._random_ints([-3, 2], rng)))
        for col in [[0, 1], [1, -1], [2.5, 3], [True, 2], ["a", 3], []]:
            self.assertEqual(inputs._random_ints(col, rng), [], col)
        pool = inputs.collect({"entry": "f", "prompt": 'def f(n, x, y):\n    """\n    >>> f(7, 4, 2)\n    4\n    >>> f(4, 2, 3)\n    3\n    """\n',
                               "signature": "def f(n, x, y):", "tests": [], "max_inputs": 64, "seed": 1})["inputs"]
        big = [i["call"] for i in pool if i["origin"] == "mutation" and max(eval("[" + i["call"][2:-1] + "]")) > 40]
        self.assertTrue(big, [i["call"] for i in pool])

    def test_prose_examples(self):
        prompt = ('def top(arr, k, rev=False):\n    """\n    Example 1:\n        Input: arr = [-3, -4, 5], k = 3\n'
                  '        Output: [-4, -3, 5]\n    Example 2:\n        Input:\n            arr : [4, -4, 4]\n'
                  '            k : 2\n    Note: 0 <= k <= len(arr), and arr == sorted(arr) is not needed.\n    """\n')
        got = inputs._assigned_calls(prompt, "def top(arr, k, rev=False):", "top")
        self.assertEqual(got, [([[-3, -4, 5], 3], []), ([[4, -4, 4], 2], [])])
        pool = inputs.collect({"entry": "top", "prompt": prompt, "signature": "def top(arr, k, rev=False):",
                               "tests": [], "max_inputs": 8, "seed": 1})["inputs"]
        self.assertEqual([i["call"] for i in pool[:2]], ["top([-3, -4, 5], 3)", "top([4, -4, 4], 2)"])
        self.assertEqual(pool[0]["origin"], "example")

    def test_prose_after_values(self):
        # A value followed by more prose on its line ends at a space or a
        # closing bracket; a string with spaces is still read whole.
        cases = [
            ("For lst = [1,2,3] the output should be 14\n    For lst = [1.4,4.2,0] the output should be 29",
             "def f(lst):", [([[1, 2, 3]], []), ([[1.4, 4.2, 0]], [])]),
            ("for s = 'a b' the result is 2, for s = \"x\" it is 0", "def f(s):", [(["a b"], []), (["x"], [])]),
            ("If n = -5 then 3\n", "def f(n):", [([-5], [])]),
            ("for x = {'a': [1, 2]}; ...", "def f(x):", [([{"a": [1, 2]}], [])]),
            # A longer name in the prose for a parameter: one parameter's
            # name among its words; none where two parameters' are, or none.
            ("grid : [[0, 1]]\n bucket_capacity : 1\n", "def f(grid, capacity):", [([[[0, 1]], 1], [])]),
            ("the_x_value = 3, y = 4\n", "def f(x, y):", [([3, 4], [])]),
            ("x_and_y = 3, x = 1, y = 2\n", "def f(x, y):", [([1, 2], [])]),
            ("max_len = 3, x = 1\n", "def f(x):", [([1], [])]),
        ]
        for text, sig, want in cases:
            with self.subTest(text=text):
                self.assertEqual(inputs._assigned_calls(text, sig, "f"), want)

    def test_unlike_tests(self):
        # Six tests on strings of parentheses and spaces, one on an
        # arithmetic expression: its call is unlike most seeds.
        calls = ["'()'", "'(())'", "'()()'", "'(()) ()'", "'((()))'", "'() (())'", "'(1 + 2) * 3'"]
        tests = [{"code": "assert f(%s) == [1]" % c, "input": "f(%s)" % c} for c in calls]
        got = inputs.collect({"entry": "f", "prompt": "", "signature": "def f(s):", "tests": tests,
                              "max_inputs": 8, "seed": 1})
        self.assertEqual(got["unlike"], [False] * 6 + [True])
        few = inputs.collect({"entry": "f", "prompt": "", "signature": "def f(s):", "tests": tests[-3:],
                              "max_inputs": 8, "seed": 1})
        self.assertEqual(few["unlike"], [False] * 3, "too few seeds to tell")

    def test_traits(self):
        # Non-negative shifts in every example: a negative one lacks the
        # rule "nonneg" at argument 1; two such questions share the trait.
        tests = [{"code": "assert shift(%d, %d) == 0" % (x, k), "input": "shift(%d, %d)" % (x, k)}
                 for x, k in [(12, 1), (4563, 2), (7, 1), (10, 3), (45, 1), (3, 2), (8, 4), (9, 1), (11, 2), (5, 5)]]
        tests.append({"code": "assert shift(4563, -2) == 0", "input": "shift(4563, -2)"})
        got = inputs.collect({"entry": "shift", "prompt": "", "signature": "def shift(x, k):", "tests": tests,
                              "max_inputs": 64, "seed": 1})
        self.assertEqual(got["traits"][:10], [[]] * 10)
        self.assertEqual(got["traits"][10], ["1:-nonneg", "1:-pos"])
        self.assertEqual(got["unlike"], [False] * 10 + [True])
        self.assertTrue(all(type(i["traits"]) is list for i in got["inputs"]))
        self.assertTrue([i for i in got["inputs"] if "1:-nonneg" in i["traits"]], "no mutation makes the shift negative")
        # A property any seed has counts, however few do; characters need
        # enough seeds to call one rare.
        few = inputs._Profile([(["ab"], []), (["CD"], [])])
        self.assertEqual(few.traits((["A"], [])), ["0:-len>=2", "0:-lower"])
        self.assertEqual(few.traits((["ab1"], [])), ["0:-alpha", "0:-upper"])
        self.assertFalse(few.unlike((["A"], [])), "too few seeds to call anything unlike")
        self.assertEqual(few.traits(None), [])

    def test_features(self):
        for value, has, lacks in [
            ("a b", {"spaced", "lower", "len>=2"}, {"nospace", "alpha"}),
            ("a  b", {"lower"}, {"spaced", "nospace"}),
            (" ab", set(), {"spaced"}),
            ("42", {"digits", "nospace"}, {"alpha"}),
            ([1], {"nonempty", "sorted"}, {"len>=2"}),
        ]:
            f = inputs._features(value)
            self.assertTrue(has <= f, (value, f))
            self.assertFalse(lacks & f, (value, f))
        self.assertEqual(inputs._chars({"ab": ["c", ("d",)]}), set("abcd"))


class ClassesTest(unittest.TestCase):
    def test_equal_values(self):
        got = inputs.classes({"values": ["1", "1.0", "True", "[1]", "(1,)", "{1}", "frozenset({1})", "nan", "nan", "<object at 0x1>"]})
        c, lit = got["classes"], got["literal"]
        self.assertEqual(c[0], c[1])
        self.assertEqual(c[1], c[2])
        self.assertNotEqual(c[3], c[4], "a list never equals a tuple")
        self.assertEqual(c[5], c[6])
        self.assertEqual(c[7], c[8], "nan equals nan here")
        self.assertEqual(lit, [True, True, True, True, True, True, False, False, False, False])


if __name__ == "__main__":
    unittest.main()
