"""A small service: `who` runs once per request; its def line runs once, at import."""


def logged(f):
    return f


class Team:
    def __init__(self, names):
        self.names = names

    @logged
    def who(self, at):
        """The name at `at`."""
        name = self.names[at]
        return name


def main():
    team = Team(["ada", "bob", "cy"])
    for at in (2, 0):
        print(team.who(at))


main()
