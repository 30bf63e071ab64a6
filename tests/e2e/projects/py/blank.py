"""Blank lines for the breakpoint tests (test_breakpoint_moves.py): one inside f, two after it."""
def f(n):
    a = n + 1

    b = a * 2
    return b


def main(argv):
    r = f(3)
    if len(argv) > 5:
        r = f(r)
    print(r)


main([])
