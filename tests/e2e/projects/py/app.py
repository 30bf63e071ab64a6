"""Fixture program for the end-to-end tool tests (debugpy). Line numbers are asserted by tests."""


class Order:
    def __init__(self, oid, items):
        self.oid = oid
        self.items = items
        self.meta = {"customer": {"name": "Ada", "tier": 2}, "tags": ["a", "b"]}


def price(item):
    base = item["price"] * item["qty"]
    return base


def total(order):
    acc = 0
    for item in order.items:
        acc += price(item)
    return acc


def main():
    items = [{"name": f"item{i}", "price": i + 1, "qty": 2} for i in range(30)]
    order = Order(7, items)
    long_text = "x" * 5000
    api_token = "s3cr3t-value"
    count = 3
    t = total(order)
    print(f"total={t} count={count}")
    try:
        raise ValueError("bad order")
    except ValueError as e:
        print("caught", e)
    print("done", len(long_text), len(api_token))


if __name__ == "__main__":
    main()
