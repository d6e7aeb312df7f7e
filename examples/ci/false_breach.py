"""Measure how often `simkit check` fails a game that meets its limits (the README's table).

    .venv/bin/python examples/ci/false_breach.py

For each player count and games per cell: 2,000 simulated one-cell sweeps of (a) a fair
game checked against a 3-point seat gap and a 2-point first-player advantage, (b) a game
whose seats 0 and 1 are exactly 3 points apart (the gap limit, just met), (c) a game whose
seat 0 is exactly 2 points above fair (that limit, just met); and, for comparison, the old
point-estimate rule (gap > 3 points) on the fair game.
"""

import numpy as np

from simkit.check import false_breach_rate

RUNS = 2000


def point_estimate_rule(players: int, games: int, limit: float, seed: int = 1) -> float:
    rng = np.random.default_rng(seed)
    shares = rng.multinomial(games, np.full(players, 1 / players), size=RUNS) / games
    return float(((shares.max(1) - shares.min(1)) > limit).mean())


print("| players | games per cell | fair game | gap exactly at its limit | seat 0 exactly at its limit "
      "| old point-estimate rule, fair game |")
print("|---:|---:|---:|---:|---:|---:|")
for players in (2, 4):
    for games in (1000, 2000, 4000, 16000):
        fair = false_breach_rate(players, games, {"max_seat_gap": "3pt", "max_first_player_advantage": "2pt"},
                                 runs=RUNS)
        at_gap = np.full(players, 1 / players)
        at_gap[0] += 0.015
        at_gap[1] -= 0.015
        gap = false_breach_rate(players, games, {"max_seat_gap": "3pt"}, runs=RUNS, seat_rates=at_gap)
        at_first = np.full(players, (1 - (1 / players + 0.02)) / (players - 1))
        at_first[0] = 1 / players + 0.02
        first = false_breach_rate(players, games, {"max_first_player_advantage": "2pt"}, runs=RUNS,
                                  seat_rates=at_first)
        old = point_estimate_rule(players, games, 0.03)
        print(f"| {players} | {games:,} | {100 * fair:.2f}% | {100 * gap:.2f}% | {100 * first:.2f}% | {100 * old:.1f}% |")
