assert median([3, 1, 2]) == 2
assert median([1, 2, 3, 4]) == 2.5
assert median([1, 2, 3, 4]) == 2  # wrong
assert median([1, 2, 3, 4]) == 3  # wrong
assert median([5]) == 5
assert median([4, 1, 3, 2]) == 2.5
assert median([7, 1]) == 4.0
assert median([1, 3]) == 2
assert median([-1, -3, -2]) == -2
assert median([1, 1, 1, 100]) == 1.0
assert median([1, 2, 100]) == 2
assert median([1, 2, 100]) == 34.333333333333336  # wrong
assert median([2.5, 1.5]) == 2.0
assert median([10, 20, 30, 40, 50, 60]) == 35.0
assert median([1, 4]) == 2.5
assert median([1, 4]) == 2  # wrong
assert median([9, 8, 7, 6, 5]) == 7
assert median([3, 3]) == 3
assert median([9, 10, 100]) == 10
assert median([]) == 0  # undefined
assert median(None) == None  # undefined
