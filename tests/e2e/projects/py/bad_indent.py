"""Cannot even start: an IndentationError on line 6."""


def f():
        return 1
  print("unreachable")
