from typing import List, Optional


def second_largest(nums: List[float]) -> Optional[float]:
    distinct = sorted(set(nums))
    if len(distinct) < 2:
        return None
    return distinct[-2]
