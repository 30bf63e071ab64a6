"""Writes one line word by word, as a program that flushes each write does."""
import time

for word in ("alpha", "beta", "gamma"):
    print(word, end=" ", flush=True)
    time.sleep(0.2)
print(flush=True)
print("second line", flush=True)
