def rle_encode(s: str) -> str:
    """Run-length encode s: each maximal run of the same character becomes
    that character followed by the length of the run, in decimal.
    """
