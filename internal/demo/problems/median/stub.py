from typing import List


def median(nums: List[float]) -> float:
    """Return the median of a non-empty list of numbers: the middle value
    once sorted, or the mean of the two middle values when the length is even.
    """
