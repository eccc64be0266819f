# candidate count=3 correct
def count_vowels(text: str) -> int:
    count = 0
    for ch in text.lower():
        if ch in "aeiou":
            count += 1
    return count

# candidate count=2 correct
def count_vowels(text: str) -> int:
    return sum(ch in "aeiouAEIOU" for ch in text)

# candidate count=1 correct
import re


def count_vowels(text: str) -> int:
    return len(re.findall(r"[aeiou]", text, flags=re.IGNORECASE))

# candidate count=2 bug: only lowercase vowels
def count_vowels(text: str) -> int:
    return sum(1 for ch in text if ch in "aeiou")

# candidate count=1 bug: only lowercase vowels, counted one by one
def count_vowels(text: str) -> int:
    return (text.count("a") + text.count("e") + text.count("i")
            + text.count("o") + text.count("u"))

# candidate count=2 bug: counts y as a vowel
def count_vowels(text: str) -> int:
    return sum(1 for ch in text.lower() if ch in "aeiouy")

# candidate count=1 bug: counts distinct vowels
def count_vowels(text: str) -> int:
    return len(set(text.lower()) & set("aeiou"))

# candidate count=1 bug: counts which vowels occur, not how often
def count_vowels(text: str) -> int:
    count = 0
    for v in "aeiou":
        if v in text.lower():
            count += 1
    return count

# candidate count=1 bug: y counts at the end of a word
def count_vowels(text: str) -> int:
    n = sum(1 for ch in text.lower() if ch in "aeiou")
    for word in text.lower().split():
        if word.endswith("y"):
            n += 1
    return n

# candidate count=1 bug: returns a count for each vowel
def count_vowels(text: str) -> int:
    return {v: text.lower().count(v) for v in "aeiou"}
