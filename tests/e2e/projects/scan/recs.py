"""Searches over a sequence in one expression (issue 26): one record of 300 has cp 0x11a7."""


class Rec:
    def __init__(self, i):
        self.id = i
        self.cp = 0x11A7 if i == 217 else i % 97
        self.name = "eve" if i == 217 else "rec"


def main():
    recs = [Rec(i) for i in range(300)]
    found = [r.name for r in recs if r.cp == 0x11A7]
    print(found)  # stop here


main()
