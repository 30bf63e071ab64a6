"""Fixture: values bigger than debugpy shows (line numbers asserted by tests/e2e/test_python_debugpy.py and native/dap/tests/debugpy.rs, which links this file)."""


def main():
    records = [{"id": i} for i in range(5000)]
    text = "x" * 100_000
    small = [1, 2, 3]
    total = len(records) + len(text)
    print(total, small)  # line 9


main()
