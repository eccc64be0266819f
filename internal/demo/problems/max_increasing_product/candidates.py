# candidate count=2 correct
from typing import List


def max_increasing_product(nums: List[int]) -> int:
    best = None
    for start in range(len(nums)):
        prod = 1
        for end in range(start, len(nums)):
            if end > start and nums[end] <= nums[end - 1]:
                break
            prod *= nums[end]
            if best is None or prod > best:
                best = prod
    if best is None:
        raise ValueError("empty list")
    return best

# candidate count=2 correct
from typing import List


def max_increasing_product(nums: List[int]) -> int:
    hi = lo = best = nums[0]
    for i in range(1, len(nums)):
        x = nums[i]
        if x > nums[i - 1]:
            options = (x, x * hi, x * lo)
            hi, lo = max(options), min(options)
        else:
            hi = lo = x
        best = max(best, hi)
    return best

# candidate count=3 bug: multiplies whole increasing runs only, never part of a run
from typing import List


def max_increasing_product(nums: List[int]) -> int:
    best = float("-inf")
    prod = nums[0]
    for i in range(1, len(nums)):
        if nums[i] > nums[i - 1]:
            prod *= nums[i]
        else:
            best = max(best, prod)
            prod = nums[i]
    return max(best, prod)

# candidate count=2 bug: treats equal neighbours as increasing
from typing import List


def max_increasing_product(nums: List[int]) -> int:
    best = None
    for i in range(len(nums)):
        prod = 1
        for j in range(i, len(nums)):
            if j > i and nums[j] < nums[j - 1]:
                break
            prod *= nums[j]
            best = prod if best is None else max(best, prod)
    return best

# candidate count=2 bug: increasing subsequence that need not be contiguous
from typing import List


def max_increasing_product(nums: List[int]) -> int:
    n = len(nums)
    dp = list(nums)
    for i in range(1, n):
        for j in range(i):
            if nums[j] < nums[i] and dp[j] * nums[i] > dp[i]:
                dp[i] = dp[j] * nums[i]
    return max(dp)

# candidate count=2 bug: starts the maximum at zero
from typing import List


def max_increasing_product(nums: List[int]) -> int:
    best = 0
    for i in range(len(nums)):
        prod = nums[i]
        best = max(best, prod)
        for j in range(i + 1, len(nums)):
            if nums[j] <= nums[j - 1]:
                break
            prod *= nums[j]
            best = max(best, prod)
    return best

# candidate count=1 bug: maximum product of any contiguous stretch, increasing or not
from typing import List


def max_increasing_product(nums: List[int]) -> int:
    hi = lo = best = nums[0]
    for x in nums[1:]:
        options = (x, x * hi, x * lo)
        hi, lo = max(options), min(options)
        best = max(best, hi)
    return best

# candidate count=1 correct
from typing import List


def max_increasing_product(nums: List[int]) -> int:
    if not nums:
        return 0
    best = nums[0]
    for i in range(len(nums)):
        prod = 1
        for j in range(i, len(nums)):
            if j > i and nums[j] <= nums[j - 1]:
                break
            prod *= nums[j]
            best = max(best, prod)
    return best

# candidate count=1 bug: product of the longest increasing run
from typing import List


def max_increasing_product(nums: List[int]) -> int:
    best_start, best_len = 0, 1
    start = 0
    for i in range(1, len(nums) + 1):
        if i == len(nums) or nums[i] <= nums[i - 1]:
            if i - start > best_len:
                best_start, best_len = start, i - start
            start = i
    prod = 1
    for x in nums[best_start:best_start + best_len]:
        prod *= x
    return prod

# candidate count=1 bug: keeps only the largest product ending at each position
from typing import List


def max_increasing_product(nums: List[int]) -> int:
    cur = best = nums[0]
    for i in range(1, len(nums)):
        if nums[i] > nums[i - 1]:
            cur = max(nums[i], cur * nums[i])
        else:
            cur = nums[i]
        best = max(best, cur)
    return best
