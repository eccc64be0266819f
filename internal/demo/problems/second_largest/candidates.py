# candidate count=3 correct
from typing import List, Optional


def second_largest(nums: List[float]) -> Optional[float]:
    values = sorted(set(nums), reverse=True)
    return values[1] if len(values) > 1 else None

# candidate count=2 correct
from typing import List, Optional


def second_largest(nums: List[float]) -> Optional[float]:
    first = second = None
    for x in nums:
        if first is None or x > first:
            first, second = x, first
        elif x != first and (second is None or x > second):
            second = x
    return second

# candidate count=3 bug: counts repeated values twice and raises on short lists
from typing import List, Optional


def second_largest(nums: List[float]) -> Optional[float]:
    return sorted(nums)[-2]

# candidate count=2 bug: raises IndexError instead of returning None
from typing import List, Optional


def second_largest(nums: List[float]) -> Optional[float]:
    return sorted(set(nums))[-2]

# candidate count=1 bug: starts from zero, so negative numbers are lost
from typing import List, Optional


def second_largest(nums: List[float]) -> Optional[float]:
    first = second = 0
    for x in nums:
        if x > first:
            first, second = x, first
        elif first > x > second:
            second = x
    return second

# candidate count=1 bug: a repeated maximum counts as the second largest
from typing import List, Optional


def second_largest(nums: List[float]) -> Optional[float]:
    if len(nums) < 2:
        return None
    first = second = float("-inf")
    for x in nums:
        if x >= first:
            first, second = x, first
        elif x > second:
            second = x
    return second

# candidate count=1 bug: removes one copy of the maximum only (and changes the caller's list)
from typing import List, Optional


def second_largest(nums: List[float]) -> Optional[float]:
    if len(nums) < 2:
        return None
    nums.remove(max(nums))
    return max(nums)

# candidate count=1 bug: returns -inf instead of None
from typing import List, Optional


def second_largest(nums: List[float]) -> Optional[float]:
    first = second = float("-inf")
    for x in nums:
        if x > first:
            first, second = x, first
        elif first > x > second:
            second = x
    return second

# candidate count=1 bug: checks the length before removing duplicates
from typing import List, Optional


def second_largest(nums: List[float]) -> Optional[float]:
    if len(nums) < 2:
        return None
    return sorted(set(nums), reverse=True)[1]

# candidate count=1 bug: returns the only value when there is just one
import heapq
from typing import List, Optional


def second_largest(nums: List[float]) -> Optional[float]:
    top = heapq.nlargest(2, set(nums))
    return top[-1] if top else None
