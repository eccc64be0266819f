"""Unit tests of extract.py, codes.py and tests.py, each imported on its own
and also run as the one source the Go package sends to the sandbox.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import os
import unittest

import codes
import extract
import tests

HERE = os.path.dirname(os.path.abspath(__file__))
PROMPT = 'def add(a, b):\n    """Adds."""\n'


def concatenated():
    """The source as extract.go builds it, run as the harness runs it."""
    parts = []
    for name in ("extract.py", "codes.py", "tests.py"):
        with open(os.path.join(HERE, name)) as f:
            parts.append(f.read())
    g = {"__name__": "ticoder_tool"}
    exec(compile("\n\n".join(parts), "<tool>", "exec"), g)
    return g


class CodesTest(unittest.TestCase):
    def test_body_and_full(self):
        arg = {"prompt": PROMPT, "context": "", "entry_point": "add", "style": "auto",
               "completions": ["    return a + b\n", "def add(a, b):\n    return a+b\nprint(add(1, 2))\n", "", "def nope(:"]}
        for name, fn in [("imported", codes.extract_codes), ("concatenated", concatenated()["extract_codes"])]:
            with self.subTest(name):
                got = fn(arg)["samples"]
                self.assertEqual(len(got), 4)
                self.assertIn("return a + b", got[0]["program"])
                self.assertEqual(got[0]["key"], got[1]["key"], "the same program normalises to one key")
                self.assertNotIn("print", got[1]["program"])
                self.assertEqual(got[2].get("drop"), "empty")
                self.assertIn(got[3].get("drop"), ("syntax", "no_entry_point"))

    def test_body_style_takes_a_rewritten_function(self):
        # Continuations that are whole functions (as Codestral's recorded
        # samples are) are the function they define, as prompt + completion
        # runs; a continuation at column 0 that does not define the entry
        # point is still a body (here cut to the stub), and an indented one is
        # unchanged.
        prompt = 'from typing import List\n\n\ndef add(a: List[int], b):\n    """Adds."""\n'
        arg = {"prompt": prompt, "context": "from typing import List\n", "entry_point": "add", "style": "body",
               "completions": ["def add(a, b):\n    return a - b", "    return a + b\n",
                               "x = 1\n"]}
        for name, fn in [("imported", codes.extract_codes), ("concatenated", concatenated()["extract_codes"])]:
            with self.subTest(name):
                got = fn(arg)["samples"]
                self.assertIn("return a - b", got[0]["program"])
                self.assertIn("from typing import List", got[0]["program"])
                self.assertNotIn('"""Adds."""', got[0]["program"])
                self.assertIn('"""Adds."""', got[1]["program"])
                self.assertIn("return a + b", got[1]["program"])
                self.assertTrue(got[2]["program"].startswith(prompt), "still a body: %r" % got[2])


    def test_method(self):
        # A method (entry CLASS().METHOD) is taken from the whole class, from
        # the method alone at any indentation, or as the prompt continued;
        # it comes out as a top-level def after the answer's imports.
        prompt = 'class Cart:\n    def total(self, xs):\n        """Sums."""\n'
        fence = "```python\n%s```\n"
        arg = {"prompt": prompt, "context": "", "entry_point": "Cart().total", "style": "auto",
               "completions": [fence % "import math\n\n\nclass Cart:\n    def total(self, xs):\n        return math.fsum(xs)\n",
                               fence % "    def total(self, xs):\n        return sum(xs)\n",
                               fence % "def total(self, xs):\n    return 0\n", "no code"]}
        for name, fn in [("imported", codes.extract_codes), ("concatenated", concatenated()["extract_codes"])]:
            with self.subTest(name):
                got = fn(arg)["samples"]
                self.assertEqual(got[0]["program"], "import math\n\n\ndef total(self, xs):\n    return math.fsum(xs)\n")
                self.assertEqual(got[1]["program"], "def total(self, xs):\n    return sum(xs)\n")
                self.assertEqual(got[2]["program"], "def total(self, xs):\n    return 0\n")
                self.assertEqual(got[3].get("drop"), "no_entry_point")
        arg.update(style="body", completions=["        return len(xs)\n"])
        got = codes.extract_codes(arg)["samples"]
        self.assertEqual(got[0]["program"], 'def total(self, xs):\n    """Sums."""\n    return len(xs)\n')


class SourceKeysTest(unittest.TestCase):
    def test_keys(self):
        base = 'def add(a, b):\n    """Adds."""\n    return a + b\n'
        programs = [
            base,
            "def add(a,b):  # sum\n    'Adds.'\n\n    return (a +\n            b)\n",  # the same tree
            base.replace("Adds.", "Adds!"),  # docstrings are not in the key
            base + "print(add(1, 2))\n",
            "def add(a, b:\n",
            "x = 1\x00\n",
        ]
        for name, fn in [("imported", extract.source_keys), ("concatenated", concatenated()["source_keys"])]:
            with self.subTest(name):
                got = fn({"programs": programs})["samples"]
                self.assertEqual(len(got), len(programs))
                self.assertEqual(len(got[0]["key"]), 32)
                self.assertEqual(got[0], got[1])
                self.assertEqual(got[0], got[2])
                self.assertNotEqual(got[0]["key"], got[3]["key"])
                self.assertEqual(got[4], {"syntax": True})
                self.assertEqual(got[5], {"syntax": True})
                for src, g in zip(programs, got):
                    if g.get("syntax"):
                        with self.assertRaises((SyntaxError, ValueError)):
                            compile(src, "<program>", "exec")
                    else:
                        compile(src, "<program>", "exec")


class TestsTest(unittest.TestCase):
    def test_assertions(self):
        arg = {"entry_point": "add", "prompt": PROMPT, "context": "", "prefix": "assert ",
               "completions": ["add(1, 2) == 3\nassert add(0, 0) == 0\n", "add(1,"], "cut": [False, True]}
        for name, fn in [("imported", tests.extract_tests), ("concatenated", concatenated()["extract_tests"])]:
            with self.subTest(name):
                got = fn(arg)["samples"]
                self.assertEqual([t["code"] for t in got[0]["tests"]], ["assert add(1, 2) == 3", "assert add(0, 0) == 0"])
                self.assertEqual(got[0]["tests"][0]["input"], "add(1, 2)")
                self.assertEqual(got[1]["tests"], [])


if __name__ == "__main__":
    unittest.main()
