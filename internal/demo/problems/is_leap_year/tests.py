assert is_leap_year(2024) == True
assert is_leap_year(2023) == False
assert is_leap_year(1900) == False
assert is_leap_year(1900) == True  # wrong
assert is_leap_year(2000) == True
assert is_leap_year(2000) == False  # wrong
assert is_leap_year(2100) == False
assert is_leap_year(2400) == True
assert is_leap_year(1996) == True
assert is_leap_year(2023) == True  # wrong
assert is_leap_year(1600) == True
assert is_leap_year(1700) == False
assert is_leap_year(1800) == False
assert is_leap_year(2020) == True
assert is_leap_year(2019) == False
assert is_leap_year(3000) == False
assert is_leap_year(400) == True
assert is_leap_year(1) == False
assert is_leap_year(1500) == False
assert is_leap_year("2024") == True  # undefined
