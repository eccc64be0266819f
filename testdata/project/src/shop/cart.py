"""The shop's cart."""
from .money import round_cents


class Cart:
    """Lines of a purchase."""

    def __init__(self, lines=None):
        self.lines = list(lines or [])

    @staticmethod
    def line_total(price: float, quantity: int) -> float:
        """Return price times quantity, rounded to cents.

        A negative quantity is an error (ValueError).

        >>> Cart.line_total(2.5, 3)
        7.5
        """
        raise NotImplementedError

    def size(self) -> int:
        """Return how many lines the cart has."""
        return len(self.lines)

    def bulk_price(self, price: float, quantity: int) -> float:
        """Return the price of quantity items: 10% off from 10 items on,
        rounded to cents."""
        ...
