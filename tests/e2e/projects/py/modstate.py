"""Fixture: module state read from a frame that has no name for the module (issue 26, the
expression guard's pure reads; test_python_debugpy). Line numbers are asserted by tests."""
import importlib


def work(xs):
    total = sum(xs)
    return total  # modstate: stop here


def main():
    importlib.import_module("pkgstate")  # loaded, but `work` has no name for it
    print("total", work([3, 1, 2]))


if __name__ == "__main__":
    main()
