"""Sums the numbers on stdin; MODE from the environment."""
import os
import sys

total = sum(int(w) for w in sys.stdin.read().split())
mode = os.environ.get("MODE", "none")
print("read done", file=sys.stderr)
print(f"total={total} mode={mode}")
sys.exit(0 if total else -1)
