// Package inputs builds a problem's input pool — calls of its entry point
// with literal arguments on which to run every candidate — and compares
// returned values as Python does. It serves TiCoder's synthesized questions
// (packages eval and interact: an input on which the remaining candidates
// behave differently becomes a question) and the agree quality estimator
// (package qe), which mutates docstring examples with the same mutators.
//
// # The pool
//
// Generate asks the embedded inputs.py, in the sandbox, for at most
// Request.MaxInputs calls (DefaultMaxInputs, 64), each at most
// Request.MaxChars characters (DefaultMaxChars, 120), in this order:
//
//  1. the prompt's own examples: every call of the entry point with literal
//     arguments written in the prompt (doctests `>>> f(x)`, `f(x) == y`
//     lines, MBPP-style asserts, prose such as `Input: arr = [1, 2], k = 3`
//     or `For lst = [1,2,3] the output should be 14`), found by Python's
//     own parser;
//  2. calls with literal arguments inside the generated tests that are not
//     a test's own CALL (`assert f(x) is True`, `abs(f(x) - y) < 1e-6`);
//     a test's own `assert CALL == EXPECTED` call is not repeated: the
//     caller asks about it directly;
//  3. calls a model proposed (Request.Proposed), when literal;
//  4. mutations, as EvalPlus mutates inputs, of one argument of a seed (the
//     calls of 1–3 and the tests' own calls): ints +1, −1, 0, negated, 1;
//     floats +1, negated, halved, 0.0; strings with a character inserted,
//     deleted or replaced, two swapped, emptied, case swapped (whole or one
//     letter), or (not in EvalPlus) a number written inside it mutated as
//     an int, +1, −1, doubled or 1, its width kept ("1/4" → "2/4",
//     "03-11-2000" → "03-12-2000": the format stays), or its first two
//     different numbers swapped, as a list's elements are ("1/3" → "3/1");
//     lists and tuples with an element removed, duplicated, added
//     or mutated (recursively), two swapped, emptied; a list reversed (not
//     in EvalPlus: for order-sensitive programs, "the first of the
//     longest"); a string argument replaced by another argument's string
//     (the longest string element of a list) and by a two-character piece
//     of its middle (as EvalPlus takes its ingredients from other inputs:
//     a substring or prefix that occurs); sets and dicts likewise; bools
//     flipped. After every mutation above (so only where the pool has
//     room for them), integer arguments of magnitude two or more doubled
//     (sizes beyond the seeds', where a short table or a modulus shows),
//     two positional arguments of one scalar type swapped (programs
//     that treat alike parameters unalike), an integer argument given as
//     the equal float where a written seed passes a float there (5.0:
//     x == int(x) against isinstance(x, int)), and a list of numbers with
//     every element negated (signs taken for granted, digits counted in
//     the text). After each seed's
//     first mutation, the smallest seed with each list of numbers replaced
//     by two lists of 5 to 8 random numbers of one to three digits, of the
//     seeds' sign, as EvalPlus generates numbers (mutations stay near the
//     seeds' values: one digit stays one digit), and with each integer
//     argument (where the seeds' are not all 0, 1 or −1) replaced by two
//     random integers of one or two digits, of the seeds' sign (an odd
//     composite, a two-digit count: values the nearby mutations of a few
//     small examples never reach; not more digits, where slow correct
//     programs would time out). Seeds are taken smallest
//     first and mutated round-robin, each seed once before any twice,
//     neighbouring seeds by different kinds of mutation, so that a cut
//     keeps small inputs close to many examples.
//     Mutations that keep every property all the seeds share at that
//     argument come first, those that break one last: a number's sign, a
//     string's case or emptiness, a sequence being sorted, without
//     duplicates or non-empty, the same properties of all its elements, and
//     two list arguments having one length where every seed's have (at
//     least two seeds; parallel lists), an integer argument being a list
//     argument's length where every seed's is (at least two seeds; the
//     C-style "arr, n") (likely invariants of the domain, as
//     the written examples suggest it;
//     the simulated user answers an input outside the domain with whatever
//     the reference happens to return, which can prune correct candidates),
//     but an eighth of the pool is kept for the first of those that are
//     inside the declared domain (an empty string, upper case): where no
//     typical input tells the remaining candidates apart, they are the
//     questions left;
//  5. only when no seed is inside the declared domain (below): values
//     built from the signature's type hints (int, float, str, bool, bytes,
//     list, tuple, dict, set, Optional, Union, X | Y) or, for a parameter
//     without one, from what the docstring declares of it, or else from
//     its name by common convention (test_list, nums, arr: a list; str1,
//     text, s: a string; n, k, arr_size: an integer; test_tup: a tuple —
//     the last word of a compound name is its head; a size, n or
//     arr_size, beside one list is that list's length), then a small mix
//     of other types, and for a list of numbers two random lists as in 4,
//     of the declared sign. The calls of the types the names suggest come
//     first and are the seeds of 4; those with another type are atypical
//     (a name is a guess, not a declaration: it never makes an input
//     invalid).
//
// Every argument's repr must evaluate back to an equal value; calls are
// rendered canonically, entry(repr(arg), ..., name=repr(value)), and each
// appears once. The random choices (positions, characters) are seeded by
// Request.Seed and the seed call, so the pool is a pure function of the
// request.
//
// # Running the pool
//
// Input.Test is how a call runs on a program: `assert CALL == None`, which
// the execution engine answers on its fast path with the value the call
// returned (Result.Value, a bounded repr) or the exception it raised; its
// pass/fail outcome means nothing. Its results are cached like any test's.
// The cost is one sandboxed Generate per problem and at most MaxInputs
// calls per candidate under the caller's time limits. The calls run
// smallest first (RunOrder) and a candidate that timed out on MaxTimeouts
// of them is not called on the rest, which count as timeouts
// (execute.TimePolicy.SkipAfter, execute.NotRun): a candidate that loops or is too
// slow on small inputs does the same on larger ones, and each timeout costs
// a time limit and a new process. Both the simulation (package eval) and
// live sessions (Synthesize) apply the rule, so a question behaves alike in
// both.
//
// Mutations that break a property every seed shares (item 4 above) are
// marked Atypical: an input unlike every written example is as likely
// outside the function's domain as inside, and the infogain selector
// counts an `undefined` answer to it as at least even odds
// (rank.AtypicalUndefined).
//
// # The declared domain
//
// declared.py reads what the problem itself states of each parameter: its
// type hint (int, float, str, bool, list/List[X], tuple, dict) and the
// docstring's plain statements — the noun phrase that names the parameter
// ("a positive integer n", "a non-empty list of integers lst", "an array
// arr of integers") or, for a function of one parameter the docstring does
// not name, the phrase that introduces its input ("Given a list of
// strings"): the type (ints; numbers, which admit ints; strings;
// sequences, which admit lists and tuples; their elements' type), the sign
// (positive, non-negative; a stated range such as "0 <= k" admits 0) and
// non-emptiness; a parameter named by its type ("array": "an array of
// non-negative integers"), and one phrase for all parameters ("takes three
// numbers"). Besides: least lengths ("of length at least two", "the ops
// list has at least one operator"), character classes ("contains only
// letters", which admits the spaces between words; "only digits"; 'a
// string of "(" and ")"'), and comparisons of the parameters, their
// lengths and integers — any range ("1 <= len(arr) <= 10^3", "0 <= k <=
// len(arr)"), a single comparison only where it stands as a constraint (a
// line of its own, or after "assume", "where", "such that"). Where the
// hint and the docstring disagree on a type, neither counts. A call whose argument lacks a declared property is
// outside the declared domain: mutations outside it come after the others
// and are marked Atypical, hint values outside it are left out, a
// generated test's call outside it is Unlike, and the missing properties are traits ("0:-pos"),
// so that an undefined answer to one such question makes its likes less
// likely to be asked. Seeds outside the declared domain are still mutated
// but do not decide which properties the domain keeps. Checked against
// evalplus's inputs, which all satisfy their problems' contracts: the rules
// call 767 of HumanEval+'s 124,253 inputs outside (760 of them strings
// given for HumanEval/29's list of strings) and 3 of MBPP+'s 41,015.
//
// # Equal values
//
// Classes numbers values by Python's ==, in the sandbox, from their reprs:
// equal numbers exactly when the values compare equal (1, 1.0 and True;
// -0.0 and 0.0; {1} and frozenset({1}); Fraction(1, 2) and 0.5; a list is
// never a tuple; 0.1 + 0.2 is not 0.3). Reprs that are not literals but
// stand for plain values (inf, nan, set(), Fraction, Decimal, deque, range)
// are evaluated with only those names, never as code; a repr that stands
// for no value (cut by the engine's bound) equals only itself. nan equals
// nan here, as a person comparing the values would say.
//
// inputs must not choose which question is asked or prune candidates: rank
// and session do.
package inputs
