# candidate count=3 correct
def digit_sum(n: int) -> int:
    return sum(int(d) for d in str(abs(n)))

# candidate count=2 correct
def digit_sum(n: int) -> int:
    n = abs(n)
    total = 0
    while n:
        total += n % 10
        n //= 10
    return total

# candidate count=3 hidden bug: raises ValueError on a negative number ('-' is no digit)
def digit_sum(n: int) -> int:
    return sum(int(d) for d in str(n))

# candidate count=2 hidden bug: returns 0 for a negative number
def digit_sum(n: int) -> int:
    total = 0
    while n > 0:
        total += n % 10
        n //= 10
    return total

# candidate count=1 hidden bug: Python's modulo on a negative number gives wrong digits
def digit_sum(n: int) -> int:
    total = 0
    while n != 0:
        total += n % 10
        n = int(n / 10)
    return total

# candidate count=1 bug: computes the digital root (repeated digit sums)
def digit_sum(n: int) -> int:
    n = abs(n)
    return 0 if n == 0 else 1 + (n - 1) % 9

# candidate count=1 bug: skips the first digit
def digit_sum(n: int) -> int:
    return sum(int(d) for d in str(abs(n))[1:])

# candidate count=1 correct
def digit_sum(n: int) -> int:
    return sum(map(int, str(n).lstrip("-")))

# candidate count=1 bug: counts the digits instead of adding them
def digit_sum(n: int) -> int:
    return len(str(abs(n)))

# candidate count=1 bug: adds the digits' character codes
def digit_sum(n: int) -> int:
    return sum(ord(d) for d in str(abs(n)))
