# candidate count=3 correct
from typing import List


def first_missing(nums: List[int]) -> int:
    for i, n in enumerate(nums):
        if n != i:
            return i
    return len(nums)

# candidate count=2 correct
from typing import List


def first_missing(nums: List[int]) -> int:
    lo, hi = 0, len(nums) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if nums[mid] == mid:
            lo = mid + 1
        else:
            hi = mid - 1
    return lo

# candidate count=1 correct
from typing import List


def first_missing(nums: List[int]) -> int:
    seen = set(nums)
    i = 0
    while i in seen:
        i += 1
    return i

# candidate count=2 bug: returns -1 when no number in the range is missing
from typing import List


def first_missing(nums: List[int]) -> int:
    for i, n in enumerate(nums):
        if n != i:
            return i
    return -1

# candidate count=2 bug: looks for the smallest missing positive number
from typing import List


def first_missing(nums: List[int]) -> int:
    missing = 1
    for n in nums:
        if n == missing:
            missing += 1
    return missing

# candidate count=1 bug: only looks at gaps between neighbours and fails on an empty list
from typing import List


def first_missing(nums: List[int]) -> int:
    for i in range(len(nums) - 1):
        if nums[i + 1] != nums[i] + 1:
            return nums[i] + 1
    return nums[-1] + 1

# candidate count=2 bug: only looks at gaps between neighbours
from typing import List


def first_missing(nums: List[int]) -> int:
    if not nums:
        return 0
    for i in range(1, len(nums)):
        if nums[i] - nums[i - 1] > 1:
            return nums[i - 1] + 1
    return nums[-1] + 1

# candidate count=2 bug: uses the sum formula, right only when one number is missing
from typing import List


def first_missing(nums: List[int]) -> int:
    n = len(nums)
    return n * (n + 1) // 2 - sum(nums)

# candidate count=1 bug: raises on an empty list
from typing import List


def first_missing(nums: List[int]) -> int:
    top = max(nums)
    return min(set(range(top + 2)) - set(nums))

# candidate count=1 correct
from typing import List


def first_missing(nums: List[int]) -> int:
    for i, n in enumerate(nums):
        if n > i:
            return i
    return len(nums)
