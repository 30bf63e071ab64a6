def parse(s):
    try:
        return int(s)
    except ValueError:
        return 0


def lookup():
    data = {}
    return data["key"]


parse("x")
lookup()
