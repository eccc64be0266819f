import re


def text_match(text: str) -> bool:
    """Return True if the text consists of lowercase letters joined with an
    underscore, and False otherwise.
    """
