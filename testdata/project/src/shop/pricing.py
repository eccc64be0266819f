"""Prices of the shop."""
from shopfmt import euros

from .money import round_cents

VAT = 0.2


def with_vat(price: float) -> float:
    """Return price with VAT, rounded to cents."""
    return round_cents(price * (1 + VAT))


def apply_discount(price: float, percent: float) -> float:
    """Return price reduced by percent per cent, rounded to cents.

    A percent outside 0..100 is an error (ValueError).

    >>> apply_discount(10.0, 15)
    8.5
    """
    ...


def label(price: float) -> str:
    """Return the price as a label, e.g. '8.50 EUR'."""
    return euros(price)
