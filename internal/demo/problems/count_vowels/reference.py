def count_vowels(text: str) -> int:
    return sum(1 for ch in text if ch in "aeiouAEIOU")
