"""Fixture: a list of objects without a repr of their own (tests/e2e/test_one_call.py, line 15)."""


class Selector:
    def __init__(self, kind, parts):
        self.kind = kind
        self.parts = parts
    def __len__(self):
        return len(self.parts)


def main():
    sels = [Selector("FIRST", [1, 2, 3]), None]
    one = sels[0]
    print(len(sels))


main()
