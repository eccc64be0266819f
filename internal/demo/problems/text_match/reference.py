import re


def text_match(text: str) -> bool:
    return re.fullmatch(r"[a-z]+_[a-z]+", text) is not None
