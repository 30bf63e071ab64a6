"""Heavy scenario program: big collections, deep nesting, a long string, deep recursion."""


class Item:
    def __init__(self, name, price, qty):
        self.name = name
        self.price = price
        self.qty = qty


def nest(level):
    return {"level": level, "child": nest(level + 1) if level < 6 else None}


def recurse(n):
    if n == 0:
        marker = "bottom"  # heavy: recursion bottom
        return marker
    return recurse(n - 1)


def main():
    records = [{"id": i, "name": f"rec{i}", "tags": ["a", "b"]} for i in range(5000)]
    tree = nest(1)
    text = "x" * 100_000
    items = [Item("pen", 1.5, 4), Item("book", 12.0, 1), Item("cup", 3.25, 2)]
    total = len(records) + len(text)  # heavy: stop here
    recurse(200)
    print(total, tree["level"], len(items))


if __name__ == "__main__":
    main()
