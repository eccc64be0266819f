assert max_increasing_product([3, 100, 4, 5, 150, 6]) == 3000
assert max_increasing_product([3, 100, 4, 5, 150, 6]) == 45000  # wrong
assert max_increasing_product([1, 2, 3, 4]) == 24
assert max_increasing_product([4, 3, 2, 1]) == 4
assert max_increasing_product([5]) == 5
assert max_increasing_product([-3]) == -3
assert max_increasing_product([-5, 2, 3]) == 6
assert max_increasing_product([-5, 2, 3]) == -30  # wrong
assert max_increasing_product([2, 2, 3]) == 6
assert max_increasing_product([2, 2, 3]) == 12  # wrong
assert max_increasing_product([1, 5, 2, 10]) == 20
assert max_increasing_product([1, 5, 2, 10]) == 100  # wrong
assert max_increasing_product([-5, -4, -3, -2]) == 120
assert max_increasing_product([10, 22, 9, 33, 21, 50, 41, 60]) == 2460
assert max_increasing_product([1, 2, 3, 0, 100, 200]) == 20000
assert max_increasing_product([1, 2, 3, -1, 100, 200]) == 20000
assert max_increasing_product([7, 1, 2, 3]) == 7
assert max_increasing_product([-7, -8]) == -7
assert max_increasing_product([0, 0, 0]) == 0
assert max_increasing_product([]) == 0  # undefined
