# candidate count=3 correct
from itertools import groupby


def rle_encode(s: str) -> str:
    return "".join(f"{ch}{len(list(run))}" for ch, run in groupby(s))

# candidate count=2 correct
def rle_encode(s: str) -> str:
    if not s:
        return ""
    result = ""
    current, count = s[0], 1
    for ch in s[1:]:
        if ch == current:
            count += 1
        else:
            result += current + str(count)
            current, count = ch, 1
    result += current + str(count)
    return result

# candidate count=2 bug: leaves out the count of single characters
from itertools import groupby


def rle_encode(s: str) -> str:
    out = []
    for ch, run in groupby(s):
        n = len(list(run))
        out.append(ch if n == 1 else f"{ch}{n}")
    return "".join(out)

# candidate count=2 bug: writes the count before the character
from itertools import groupby


def rle_encode(s: str) -> str:
    return "".join(str(len(list(run))) + ch for ch, run in groupby(s))

# candidate count=1 bug: counts every occurrence, not consecutive runs
from collections import Counter


def rle_encode(s: str) -> str:
    return "".join(f"{ch}{n}" for ch, n in Counter(s).items())

# candidate count=2 bug: forgets the last run
def rle_encode(s: str) -> str:
    result = []
    count = 1
    for i in range(1, len(s)):
        if s[i] == s[i - 1]:
            count += 1
        else:
            result.append(s[i - 1] + str(count))
            count = 1
    return "".join(result)

# candidate count=1 bug: raises on the empty string
def rle_encode(s: str) -> str:
    result = ""
    prev, count = s[0], 0
    for ch in s:
        if ch == prev:
            count += 1
        else:
            result += f"{prev}{count}"
            prev, count = ch, 1
    return result + f"{prev}{count}"

# candidate count=1 bug: splits runs longer than nine
def rle_encode(s: str) -> str:
    out = ""
    i = 0
    while i < len(s):
        n = 1
        while i + n < len(s) and s[i + n] == s[i] and n < 9:
            n += 1
        out += s[i] + str(n)
        i += n
    return out

# candidate count=1 bug: returns pairs instead of a string
from itertools import groupby


def rle_encode(s: str) -> str:
    return [(ch, len(list(run))) for ch, run in groupby(s)]

# candidate count=1 bug: ignores case when grouping
from itertools import groupby


def rle_encode(s: str) -> str:
    return "".join(f"{ch}{len(list(run))}" for ch, run in groupby(s.lower()))
