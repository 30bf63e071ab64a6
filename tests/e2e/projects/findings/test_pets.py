from pets import Cat, feed


def test_feed():
    cat = Cat("Tom")
    feed(cat)
    assert cat.hunger == 1
    assert cat.name == "Tom"
    print("checked")
