"""Sweeps: a spec's cells planned (spec), played in chunks and stored as tables (runner,
results, identity), its follow-up phases (robustness, sequential), and the gate that judges a
finished sweep (check). Above the engine kit, the games, analysis and report: a finished
sweep's summary and report are built here, from those layers (tests/test_layers.py)."""
