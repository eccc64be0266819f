assert count_vowels("hello") == 2
assert count_vowels("HELLO") == 2
assert count_vowels("HELLO") == 0  # wrong
assert count_vowels("rhythm") == 0
assert count_vowels("rhythm") == 1  # wrong
assert count_vowels("sky") == 0
assert count_vowels("") == 0
assert count_vowels("aeiou") == 5
assert count_vowels("AEIOUaeiou") == 10
assert count_vowels("banana") == 3
assert count_vowels("banana") == 1  # wrong
assert count_vowels("Programming") == 3
assert count_vowels("xyz") == 0
assert count_vowels("Yellow") == 2
assert count_vowels("Yellow") == 3  # wrong
assert count_vowels("queue") == 4
assert count_vowels("123 !?") == 0
assert count_vowels("The quick brown fox") == 5
assert count_vowels("happy days") == 2
assert count_vowels(None) == 0  # undefined
assert count_vowels(5) == 0  # undefined
