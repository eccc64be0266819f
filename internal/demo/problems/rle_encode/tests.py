assert rle_encode("aaabcc") == "a3b1c2"
assert rle_encode("aaabcc") == "a3bc2"  # wrong
assert rle_encode("") == ""
assert rle_encode("a") == "a1"
assert rle_encode("abc") == "a1b1c1"
assert rle_encode("abc") == "abc"  # wrong
assert rle_encode("aabaa") == "a2b1a2"
assert rle_encode("aabaa") == "a4b1"  # wrong
assert rle_encode("zzzz") == "z4"
assert rle_encode("zzzz") == "4z"  # wrong
assert rle_encode("aaaaaaaaaaaa") == "a12"
assert rle_encode("aaaaaaaaaaaa") == "a9a3"  # wrong
assert rle_encode("AAaa") == "A2a2"
assert rle_encode("  ") == " 2"
assert rle_encode("112") == "1221"
assert rle_encode("abbccc") == "a1b2c3"
assert rle_encode("xyzzy") == "x1y1z2y1"
assert rle_encode("hello world") == "h1e1l2o1 1w1o1r1l1d1"
assert rle_encode(None) == ""  # undefined
assert rle_encode(123) == ""  # undefined
