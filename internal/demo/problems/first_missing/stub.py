from typing import List


def first_missing(nums: List[int]) -> int:
    """Given a sorted list of distinct non-negative integers, return the
    smallest non-negative integer that does not appear in it.
    """
