from typing import List, Optional


def second_largest(nums: List[float]) -> Optional[float]:
    """Return the second largest distinct value in nums, or None if nums
    has fewer than two distinct values.
    """
