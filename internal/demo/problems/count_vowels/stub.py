def count_vowels(text: str) -> int:
    """Return how many vowels (a, e, i, o, u) the text contains, counting
    upper- and lowercase letters alike.
    """
