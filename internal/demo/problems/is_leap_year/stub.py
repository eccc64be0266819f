def is_leap_year(year: int) -> bool:
    """Return True if year is a leap year in the Gregorian calendar,
    otherwise False.
    """
