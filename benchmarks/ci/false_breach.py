"""Measure how `simkit check` decides, with and without --until-decided (the tables of docs/statistics.md).

    .venv/bin/python benchmarks/ci/false_breach.py

Simulated one-cell sweeps: each game's winner is drawn from the seats' true rates (a
multinomial draw), checked against the limits of docs/ci.md, a 3-point seat gap and a 2-point
first-player advantage. 2,000 runs per row.

Table 1, the gate judging a finished sweep once: the shares of a fair game that end
inconclusive and (falsely) breached; a game exactly at each limit (the hardest case: the
limit is just met); and the old point-estimate rule (gap > 3 points) on the fair game.

Table 2, `--until-decided` with the default budget (64,000 games per cell), from a sweep of
4,000 games per cell: the shares that end ok, breached and inconclusive, and the games per
cell it took (mean and 90th percentile), for a fair game, a game meeting both limits by 1
point, a game exactly at each limit, and a first-player edge 1 point over its limit.

Table 3: the game that meets both limits by 1 point under larger budgets.
"""

import numpy as np

from simkit.sweeps.check import simulated_rates
from simkit.sweeps.sequential import simulated

RUNS = 2000
LIMITS = {"max_seat_gap": "3pt", "max_first_player_advantage": "2pt"}


def rates(players: int, seat0: float = 0.0, seat1: float = 0.0) -> np.ndarray:
    """Every seat fair but seat 0 (+seat0) and seat 1 (+seat1); the rest share what is left."""
    fair = 1.0 / players
    out = np.full(players, fair)
    out[0] += seat0
    out[1] += seat1
    if players > 2:
        out[2:] = (1.0 - out[:2].sum()) / (players - 2)
    else:
        out[1] = 1.0 - out[0]
    return out


def point_estimate_rule(players: int, games: int, limit: float, seed: int = 1) -> float:
    rng = np.random.default_rng(seed)
    shares = rng.multinomial(games, np.full(players, 1 / players), size=RUNS) / games
    return float(((shares.max(1) - shares.min(1)) > limit).mean())


def pct(value: float) -> str:
    return f"{100 * value:.2f}%"


def once() -> None:
    print("| players | games per cell | fair: inconclusive | fair: false breach | gap exactly at its limit: "
          "false breach | seat 0 exactly at its limit: false breach | old point-estimate rule, fair game |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for players in (2, 4):
        for games in (1000, 4000, 16000):
            fair = simulated_rates(players, games, LIMITS, runs=RUNS)
            gap = simulated_rates(players, games, {"max_seat_gap": "3pt"}, runs=RUNS, seat_rates=rates(
                players, 0.015, -0.015))
            first = simulated_rates(players, games, {"max_first_player_advantage": "2pt"}, runs=RUNS,
                                    seat_rates=rates(players, 0.02))
            old = point_estimate_rule(players, games, 0.03)
            print(f"| {players} | {games:,} | {pct(fair['inconclusive'])} | {pct(fair['breach'])} | "
                  f"{pct(gap['breach'])} | {pct(first['breach'])} | {100 * old:.1f}% |", flush=True)


def until_decided(games: int = 4000) -> None:
    print()
    print(f"| players | game (from {games:,} games per cell) | ok | breach | inconclusive (budget spent) | "
          "games per cell: mean | 90th percentile |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for players in (2, 3, 4):
        cases = [
            ("fair", LIMITS, None),
            ("meets both limits by 1 point", LIMITS, rates(players, 0.01) if players == 2 else rates(
                players, 0.01, -0.01)),
            ("gap exactly at its limit", {"max_seat_gap": "3pt"}, rates(players, 0.015, -0.015)),
            ("seat 0 exactly at its limit", {"max_first_player_advantage": "2pt"}, rates(players, 0.02)),
            ("seat 0 1 point over its limit", LIMITS, rates(players, 0.03)),
        ]
        for seed, (name, table, seat_rates) in enumerate(cases, 1):
            got = simulated(players, games, table, runs=RUNS, seed=seed, seat_rates=seat_rates)
            print(f"| {players} | {name} | {pct(got['ok'])} | {pct(got['breach'])} | {pct(got['inconclusive'])} | "
                  f"{got['mean_games']:,.0f} | {got['p90_games']:,.0f} |", flush=True)


def budgets(games: int = 4000) -> None:
    """How the budget decides a game that meets both limits by 1 point."""
    print()
    print("| players | budget (games per cell) | ok | breach | inconclusive (budget spent) | games per cell: mean |")
    print("|---:|---:|---:|---:|---:|---:|")
    for players in (2, 4):
        near = rates(players, 0.01) if players == 2 else rates(players, 0.01, -0.01)
        for budget in (64_000, 128_000, 256_000):
            got = simulated(players, games, LIMITS, runs=RUNS, seed=7, seat_rates=near, budget=budget)
            print(f"| {players} | {budget:,} | {pct(got['ok'])} | {pct(got['breach'])} | {pct(got['inconclusive'])} | "
                  f"{got['mean_games']:,.0f} |", flush=True)


if __name__ == "__main__":
    once()
    until_decided()
    budgets()
