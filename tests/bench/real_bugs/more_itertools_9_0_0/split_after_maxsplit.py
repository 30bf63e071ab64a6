# Reproduces more-itertools issue #658 (fixed in 9.1.0): split_after with maxsplit=1 yields a
# trailing empty list when the split item is the last one.
from more_itertools import split_after

got = list(split_after([1], lambda x: x == 1, maxsplit=1))
assert got == [[1]], f"split_after([1], x == 1, maxsplit=1) = {got}, expected [[1]]"
