from typing import List


def max_increasing_product(nums: List[int]) -> int:
    """Return the maximum product obtained by multiplying the numbers of an
    increasing contiguous subsequence of nums. The numbers may be negative.
    """
