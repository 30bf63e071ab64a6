from orders import Item, total


def test_total():
    items = [Item("a", 2, 1.5), Item("b", 1, 2.0)]
    got = total(items)
    assert got == 5.0


def test_other():
    assert total([]) == 0
