def digit_sum(n: int) -> int:
    if not isinstance(n, int):
        raise TypeError("digit_sum takes an int")
    return sum(int(d) for d in str(abs(n)))
