"""Runs until stopped (the session-lifetime tests)."""
import time

while True:
    time.sleep(0.05)
