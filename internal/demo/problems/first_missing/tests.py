assert first_missing([0, 1, 2, 3]) == 4
assert first_missing([0, 1, 3, 4]) == 2
assert first_missing([1, 2, 3]) == 0
assert first_missing([]) == 0
assert first_missing([0]) == 1
assert first_missing([1]) == 0
assert first_missing([0, 2, 4]) == 1
assert first_missing([0, 1, 2, 6, 9]) == 3
assert first_missing([2, 3, 7]) == 0
assert first_missing([0, 1, 2, 3]) == -1  # wrong
assert first_missing([1, 2, 3]) == 4  # wrong
assert first_missing([0, 1, 3, 4]) == 5  # wrong
assert first_missing([]) == None  # wrong
assert first_missing([0, 1, 2, 3, 4, 5, 6, 7, 8, 10]) == 9
assert first_missing([3, 4, 5]) == 0
assert first_missing([0, 5]) == 1
assert first_missing([0, 1, 2, 5, 6]) == 3
assert first_missing([0, 1]) == 2
assert first_missing(None) == 0  # undefined
assert first_missing([0, "1"]) == 1  # undefined
