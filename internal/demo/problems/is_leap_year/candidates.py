# candidate count=3 correct
def is_leap_year(year: int) -> bool:
    if year % 400 == 0:
        return True
    if year % 100 == 0:
        return False
    return year % 4 == 0

# candidate count=2 correct
import calendar


def is_leap_year(year: int) -> bool:
    return calendar.isleap(year)

# candidate count=1 correct
def is_leap_year(year: int) -> bool:
    return (year % 4 == 0 and year % 100 != 0) or year % 400 == 0

# candidate count=3 bug: every fourth year, ignoring centuries
def is_leap_year(year: int) -> bool:
    return year % 4 == 0

# candidate count=2 bug: forgets that every 400th year is a leap year
def is_leap_year(year: int) -> bool:
    return year % 4 == 0 and year % 100 != 0

# candidate count=1 bug: centuries are never leap years, wrong grouping
def is_leap_year(year: int) -> bool:
    return (year % 4 == 0 or year % 400 == 0) and year % 100 != 0

# candidate count=1 bug: returns a number instead of a bool
def is_leap_year(year: int) -> bool:
    return not year % 4 and year % 100 or not year % 400

# candidate count=1 bug: rejects years before the calendar was introduced
def is_leap_year(year: int) -> bool:
    if year < 1582:
        raise ValueError("year before the Gregorian calendar")
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)

# candidate count=1 bug: tests the rules in the wrong order
def is_leap_year(year: int) -> bool:
    if year % 4 == 0:
        return True
    if year % 100 == 0:
        return year % 400 == 0
    return False

# candidate count=1 correct
def is_leap_year(year: int) -> bool:
    year = int(year)
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
