"""Calc scenario program: a few objects, a loop whose running total changes at each step."""


class Item:
    def __init__(self, name, price, qty):
        self.name = name
        self.price = price
        self.qty = qty


def total(items):
    subtotal = 0.0
    for it in items:
        subtotal += it.price * it.qty  # calc: stop here
    return subtotal


def main():
    items = [Item("pen", 1.5, 4), Item("book", 12.0, 1), Item("cup", 3.25, 2)]
    print(total(items))


if __name__ == "__main__":
    main()
