"""The engine kit: what a game package and its bots are built from.

Rules and components as data (rules, components), the game's description and its presets
(game, bots), the random streams and shared kernels the jitted engines call (rng, kernels,
jit, numba_patches), score traces (traces), rule coverage data (coverage), line-ups and the
skill ladder of a game's presets (seating, ladder), and the error and file helpers every layer
uses (errors, files). numpy and numba only: no polars, nothing from the layers above
(tests/test_layers.py)."""
