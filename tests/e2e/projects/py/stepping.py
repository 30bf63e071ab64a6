"""Fixture: steps that end in exceptions, in a new frame on the same line, or in another thread
(tests/e2e/test_step_outcomes.py asserts its line numbers)."""
import threading
import time


def parse(s):
    n = int(s)
    return n


def caught():
    try:
        v = parse("x")
    except ValueError:
        v = -1
    return v


def squares(n):
    out = [i * i for i in range(n)]
    return out


def worker(go):
    go.wait()
    done = True
    return done


def threads():
    go = threading.Event()
    t = threading.Thread(target=worker, args=(go,), name="worker")
    t.start()
    go.set(); time.sleep(2)
    t.join()


def main():
    caught()
    squares(3)
    threads()
    parse("y")


main()
