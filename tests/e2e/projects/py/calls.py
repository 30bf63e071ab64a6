"""Function breakpoints and recorded calls (issue 18): a method, a recursive function called
50 times, a call that raises, and 200 calls of which one returns the wrong value."""


class Cart:
    def __init__(self):
        self.items = []

    def add_item(self, name, price):
        self.items.append((name, price))
        return len(self.items)


def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


def parse(text):
    return int(text)


def shipping_cost(weight):
    if weight < 1000:
        return 5 + weight // 100
    elif weight < 5000:
        cost = 15 + weight // 250
        # the bug: this branch forgets to return cost
    else:
        return 40


def main():
    cart = Cart()
    cart.add_item("apple", 3)
    cart.add_item("pear", 4)
    total = 0
    for _ in range(5):
        total += fact(10)
    parsed = []
    for text in ["12", "x", "7"]:
        try:
            parsed.append(parse(text))
        except ValueError:
            parsed.append(None)
    weights = [i * 5 for i in range(199)]
    weights.insert(137, 1200)
    costs = [shipping_cost(w) for w in weights]
    print("total", total, "parsed", parsed, "costs", len(costs))


if __name__ == "__main__":
    main()
