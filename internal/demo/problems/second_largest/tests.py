assert second_largest([1, 2, 3, 4]) == 3
assert second_largest([4, 1, 3, 2]) == 3
assert second_largest([5, 5, 3]) == 3
assert second_largest([5, 5, 3]) == 5  # wrong
assert second_largest([1]) == None
assert second_largest([1]) == 1  # wrong
assert second_largest([]) == None
assert second_largest([7, 7]) == None
assert second_largest([7, 7]) == 7  # wrong
assert second_largest([-1, -2, -3]) == -2
assert second_largest([-1, -2, -3]) == 0  # wrong
assert second_largest([10, 10, 10, 9]) == 9
assert second_largest([2, 1]) == 1
assert second_largest([1.5, 2.5, 0.5]) == 1.5
assert second_largest([3, 1, 3, 2]) == 2
assert second_largest([0, 0, 1]) == 0
assert second_largest([100, 50, 75, 25]) == 75
assert second_largest([4, 4, 4, 4]) == 4  # wrong
assert second_largest(None) == None  # undefined
assert second_largest([1, "a"]) == 1  # undefined
