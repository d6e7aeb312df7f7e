"""The analysis layer: from a sweep's result tables to summary.json (docs/results.md, docs/statistics.md).

Layers, each importing only the ones below it (tests/test_layers.py walks the imports):

1. primitives: `intervals` (Wilson, paired and delta-method intervals), `tests` (chi-square,
   Holm, tests against a reference) and `tables` (exact lazy aggregates over the parquet
   tables);
2. `seats`: every seat, strategy and category rate on one basis, decided games;
3. figures: `arcs` (margins, ranks, game arcs), `curves` (response curves), `tiers` (seat
   advantage by skill tier), `tournament` (head-to-head, Bradley–Terry), `robustness` (the
   labels holds / weaker / vanishes / reverses of re-measured findings, and their sample sizes);
4. `summary`: the summary builder, which calls the figures and writes everything the
   report needs to know about a game into summary.json.

The report (simkit.report) reads summary.json and the tables only, never a game module.
"""
