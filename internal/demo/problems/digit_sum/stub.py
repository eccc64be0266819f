def digit_sum(n: int) -> int:
    """Return the sum of the decimal digits of the integer n; the sign of a
    negative number is ignored.
    """
