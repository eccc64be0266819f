"""A tiny third-party package, installed into the project's venv by the tests."""


def euros(value: float) -> str:
    """Format value as euros, e.g. '8.50 EUR'."""
    return "%.2f EUR" % value
