# candidate count=3 correct
import re


def text_match(text: str) -> bool:
    return bool(re.fullmatch(r"[a-z]+_[a-z]+", text))

# candidate count=2 correct
import re


def text_match(text: str) -> bool:
    pattern = r"^[a-z]+_[a-z]+$"
    if re.search(pattern, text):
        return True
    return False

# candidate count=3 bug: finds the pattern anywhere, so extra words and capitals pass
import re


def text_match(text: str) -> bool:
    return re.search(r"[a-z]+_[a-z]+", text) is not None

# candidate count=2 bug: any number of words, including a single word
import re


def text_match(text: str) -> bool:
    return re.match(r"^[a-z]+(_[a-z]+)*$", text) is not None

# candidate count=2 bug: anchored only at the start
import re


def text_match(text: str) -> bool:
    if re.match(r"^[a-z]+_[a-z]+", text):
        return True
    return False

# candidate count=2 bug: any lowercase text that contains an underscore
import re


def text_match(text: str) -> bool:
    return "_" in text and text.islower()

# candidate count=1 bug: empty words allowed
import re


def text_match(text: str) -> bool:
    return re.fullmatch(r"[a-z]*_[a-z]*", text) is not None

# candidate count=1 bug: capital letters allowed
import re


def text_match(text: str) -> bool:
    return re.fullmatch(r"[a-zA-Z]+_[a-zA-Z]+", text) is not None

# candidate count=1 bug: returns a message instead of a bool
import re


def text_match(text: str) -> bool:
    if re.search(r"^[a-z]+_[a-z]+$", text):
        return "Found a match!"
    return "Not matched!"

# candidate count=1 bug: one underscore and letters of any case
import re


def text_match(text: str) -> bool:
    return text.count("_") == 1 and text.replace("_", "").isalpha()

# candidate count=1 bug: returns the match object, not a bool
import re


def text_match(text: str) -> bool:
    return re.fullmatch(r"[a-z]+_[a-z]+", text)
