from typing import List


def first_missing(nums: List[int]) -> int:
    missing = 0
    for n in nums:
        if n == missing:
            missing += 1
        elif n > missing:
            break
    return missing
