"""A recorded function called directly and one call deeper from the lines an agent steps over
(issue 26: a recording hit inside a step must not cancel the step)."""


def leaf(x):
    return x * 2


def middle(x):
    y = leaf(x)
    return y + 1


def main():
    a = middle(1)
    b = leaf(a)
    c = a + b
    print("done", a, b, c)


main()
