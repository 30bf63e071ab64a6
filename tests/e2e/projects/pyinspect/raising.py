"""trace_function and exceptions (issue 26): a callee that raises and catches its own
exception, and a function that raises itself."""


def parse_or_zero(text):
    try:
        return int(text)
    except ValueError:
        return 0


def total(items):
    acc = 0
    for text in items:
        acc += parse_or_zero(text)
    return acc


def checked(items):
    acc = total(items)
    if acc > 2:
        raise RuntimeError(f"total too big: {acc}")
    return acc


def main():
    print(total(["1", "x", "2"]))
    try:
        checked(["3"])
    except RuntimeError as e:
        print("caught", e)


main()
