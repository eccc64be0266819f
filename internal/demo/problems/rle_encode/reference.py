def rle_encode(s: str) -> str:
    parts = []
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        parts.append(f"{s[i]}{j - i}")
        i = j
    return "".join(parts)
