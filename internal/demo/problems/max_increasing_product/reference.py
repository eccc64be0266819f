from typing import List


def max_increasing_product(nums: List[int]) -> int:
    if not nums:
        raise ValueError("max_increasing_product of an empty list")
    best = nums[0]
    for i in range(len(nums)):
        product = nums[i]
        best = max(best, product)
        for j in range(i + 1, len(nums)):
            if nums[j] <= nums[j - 1]:
                break
            product *= nums[j]
            best = max(best, product)
    return best
