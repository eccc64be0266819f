"""Unit tests of tools.py: parse_stub and check_value.

Run by TestPythonUnits (pyunit.Run) with /usr/bin/python3.
"""

import unittest

import tools


class ParseStubTest(unittest.TestCase):
    def test_stub(self):
        got = tools.parse_stub({"source": 'import re\n\ndef f(x):\n    """Doubles x."""\n'})
        self.assertEqual(got["entry_point"], "f")
        self.assertEqual(got["context"].strip(), "import re")
        self.assertEqual(got["docstring"], "Doubles x.")

    def test_errors(self):
        for src, line in [("def f(:\n", 1), ("x = 1\n", 0)]:
            with self.subTest(src=src):
                self.assertEqual(tools.parse_stub({"source": src})["error"]["line"], line)


class CheckValueTest(unittest.TestCase):
    def test_values(self):
        cases = [
            ("[1, 'a', (2.5, None)]", {}),
            ("set()", {}),
            ("f(1)", "not_literal"),
            ("1  # one", "not_literal"),
            ("[1,", "error"),
        ]
        for src, want in cases:
            with self.subTest(src=src):
                got = tools.check_value({"source": src})
                if want == {}:
                    self.assertEqual(got, {})
                else:
                    self.assertIn(want, got)


if __name__ == "__main__":
    unittest.main()
