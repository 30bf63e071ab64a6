"""Fixture module with state, imported by modstate.py by name only."""
SETTINGS = {"mode": "fast", "retries": 3}
CALLS = ["a", "b"]
