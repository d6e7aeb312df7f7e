"""Searches that run sweeps: a rule value that evens the seats (tune) and bot parameters that
win more (train)."""
