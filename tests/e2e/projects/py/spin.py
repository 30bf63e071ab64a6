"""Runs until a debugger changes `keep_going` (the pause / set_variable tests)."""
import time


def spin():
    keep_going = True
    rounds = 0
    while keep_going:
        rounds += 1
        time.sleep(0.01)
    print(f"spun {rounds > 0}")


spin()
