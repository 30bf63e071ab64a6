# Reproduces more-itertools PR #1128 (fixed in 11.0.0): a numeric_range sliced with a negative
# step is empty, where range() gives the reversed sequence.
from more_itertools import numeric_range

r = numeric_range(0, 10)
got = list(r[::-1])
expected = list(range(0, 10)[::-1])
assert got == expected, f"numeric_range(0, 10)[::-1] = {got}, expected {expected}"
