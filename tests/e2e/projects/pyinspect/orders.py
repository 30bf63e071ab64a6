"""Fixture for expand_variable's filter, trace_function and debug_test (line numbers are asserted)."""


class Item:
    def __init__(self, name, qty, price):
        self.name = name
        self.qty = qty
        self.price = price


def total(items):
    acc = 0
    for it in items:
        acc += it.qty * it.price
    return acc


def main():
    items = [Item("apple", 1, 0.5), Item("pear", 3, 0.25), Item("fig", 2, 1.0)]
    order = {"id": 7, "items": items, "paid": False, "note": None}
    t = total(items)
    print("total", t)


if __name__ == "__main__":
    main()
