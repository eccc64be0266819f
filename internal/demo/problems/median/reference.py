from typing import List


def median(nums: List[float]) -> float:
    if not nums:
        raise ValueError("median of an empty list")
    s = sorted(nums)
    mid = len(s) // 2
    if len(s) % 2:
        return s[mid]
    return (s[mid - 1] + s[mid]) / 2
