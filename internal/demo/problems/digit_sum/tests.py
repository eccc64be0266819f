assert digit_sum(0) == 0
assert digit_sum(5) == 5
assert digit_sum(123) == 6
assert digit_sum(999) == 27
assert digit_sum(1000) == 1
assert digit_sum(4021) == 7
assert digit_sum(99) == 18
assert digit_sum(10) == 1
assert digit_sum(7777) == 28
assert digit_sum(123) == 123  # wrong
assert digit_sum(10) == 10  # wrong
assert digit_sum(99) == 9  # wrong
assert digit_sum(56) == 11
assert digit_sum(101) == 2
assert digit_sum(8) == 8
assert digit_sum(1234567890) == 45
assert digit_sum(11) == 2
assert digit_sum(3) == 3
assert digit_sum("12") == 3  # undefined
assert digit_sum(None) == 0  # undefined
