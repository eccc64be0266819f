assert text_match("aa_bb") == True
assert text_match("aa_bb_cc") == False
assert text_match("aa_bb_cc") == True  # wrong
assert text_match("Aa_bb") == False
assert text_match("Hello_world") == True  # wrong
assert text_match("hello_world") == True
assert text_match("helloworld") == False
assert text_match("") == False
assert text_match("_") == False
assert text_match("abc_") == False
assert text_match("_abc") == False
assert text_match("aab_cbbbc") == True
assert text_match("aab_Abbbc") == False
assert text_match("a_b") == True
assert text_match("a__b") == False
assert text_match("ab_cd!") == False
assert text_match("ab1_cd") == False
assert text_match("ab_cd ") == False
assert text_match("ab_cd") == "Found a match!"  # wrong
assert text_match(None) == False  # undefined
assert text_match(42) == False  # undefined
