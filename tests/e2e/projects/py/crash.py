"""Raises an exception nobody catches (stop_on_exception)."""


def parse(text):
    return int(text)


parse("not a number")
