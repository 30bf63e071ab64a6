"""Fixture for tests/e2e/test_agent_findings.py. Line numbers are asserted by the tests."""


class Cat:
    def __init__(self, name):
        self.name = name
        self.hunger = 0


def feed(cat):
    cat.hunger += 1
    return cat.hunger


def main():
    cat = Cat("Tom")
    for _ in range(3):
        feed(cat)
    print("fed", cat.name, cat.hunger)


if __name__ == "__main__":
    main()
