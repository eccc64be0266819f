# candidate count=3 correct
from typing import List


def median(nums: List[float]) -> float:
    s = sorted(nums)
    n = len(s)
    if n % 2 == 1:
        return s[n // 2]
    return (s[n // 2 - 1] + s[n // 2]) / 2

# candidate count=2 correct
import statistics
from typing import List


def median(nums: List[float]) -> float:
    return statistics.median(nums)

# candidate count=2 bug: does not sort first
from typing import List


def median(nums: List[float]) -> float:
    n = len(nums)
    if n % 2 == 1:
        return nums[n // 2]
    return (nums[n // 2 - 1] + nums[n // 2]) / 2

# candidate count=2 bug: takes the upper middle value for even lengths
from typing import List


def median(nums: List[float]) -> float:
    s = sorted(nums)
    return s[len(s) // 2]

# candidate count=1 bug: takes the lower middle value for even lengths
from typing import List


def median(nums: List[float]) -> float:
    s = sorted(nums)
    return s[(len(s) - 1) // 2]

# candidate count=2 bug: integer division of the two middle values
from typing import List


def median(nums: List[float]) -> float:
    s = sorted(nums)
    n = len(s)
    if n % 2:
        return s[n // 2]
    return (s[n // 2 - 1] + s[n // 2]) // 2

# candidate count=1 bug: returns the mean, not the median
from typing import List


def median(nums: List[float]) -> float:
    return sum(nums) / len(nums)

# candidate count=1 correct
from typing import List


def median(nums: List[float]) -> float:
    if not nums:
        return 0
    nums = sorted(nums)
    half, odd = divmod(len(nums), 2)
    return nums[half] if odd else (nums[half - 1] + nums[half]) / 2

# candidate count=1 bug: rounds the result to an int
from typing import List


def median(nums: List[float]) -> float:
    s = sorted(nums)
    n = len(s)
    m = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    return round(m)

# candidate count=1 bug: sorts as text
from typing import List


def median(nums: List[float]) -> float:
    s = sorted(nums, key=str)
    n = len(s)
    if n % 2:
        return s[n // 2]
    return (s[n // 2 - 1] + s[n // 2]) / 2
