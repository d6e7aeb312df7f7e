"""Which Sea of Plunder headline findings hold under every shipped component set and both
readings of The Thief, and which flip (the sweep of experiments/sea_of_plunder/assumptions.toml).

    .venv/bin/simkit sweep experiments/sea_of_plunder/assumptions.toml --jobs 2 --out reports/sop-assumptions
    .venv/bin/python experiments/sea_of_plunder/findings.py reports/sop-assumptions

Prints markdown: the headline figures of every cell with 95% intervals; each alternative
set's and reading's paired difference from the standard set under the default reading
(every cell plays the same seeds, and the same powers are dealt to the same seats, so the
differences are game-by-game pairs); and each headline finding with the cells where it holds
(its interval wholly on the claimed side), flips (wholly on the other side) or is unresolved.
"""

from __future__ import annotations

import json
import sys

import polars as pl

import simkit
from simkit.analysis.intervals import paired_difference, wilson

BASE_SET, BASE_READING = "standard", "any_contact"
SETS = ("standard", "alt-one-skull", "alt-two-events", "alt-near-ports", "alt-adjacent-seats", "alt-three-seats",
        "alt-straight-maps")
FILE_OF = {"alt-one-skull": "dice.toml (A8)", "alt-two-events": "cards.toml (A5)",
           "alt-near-ports": "board.txt (A2)", "alt-adjacent-seats": "ports.toml (A3)", "alt-three-seats": "ports.toml (A3)",
           "alt-straight-maps": "cards.toml (A6)"}


def per_game(results) -> pl.DataFrame:
    """One row per game: its cell's set, reading and player count, and the game's outcomes."""
    cells = results.cells.with_columns(
        pl.col("overrides").map_elements(lambda t: json.loads(t).get("components", BASE_SET), pl.Utf8).alias("set"),
        pl.col("overrides").map_elements(lambda t: json.loads(t).get("thief_contact", BASE_READING),
                                         pl.Utf8).alias("reading"),
    ).select("cell", "players", "set", "reading")
    seats = results.seats
    seat0 = seats.filter(pl.col("seat") == 0).select("cell", "game_index", pl.col("win").alias("seat0_win"))
    by_power = {
        power: seats.filter(pl.col("power") == power).select("cell", "game_index", pl.col("win").alias(f"{power}_win"))
        for power in ("thief", "strategist")
    }
    games = results.games.select(
        "cell", "game_index", "rounds",
        (pl.col("end_reason") == "pirate_treasures").cast(pl.Float64).alias("pirate_end"),
        (pl.col("end_reason") == "round_cap").cast(pl.Float64).alias("capped"),
    )
    out = games.join(seat0, on=["cell", "game_index"], how="left")
    for frame in by_power.values():
        out = out.join(frame, on=["cell", "game_index"], how="left")
    return out.join(cells, on="cell")


FIGURES = (  # column, label, is a rate
    ("seat0_win", "seat 0 wins", True),
    ("rounds", "rounds (mean)", False),
    ("pirate_end", "ended by the pirates", True),
    ("thief_win", "The Thief wins (per seat)", True),
    ("strategist_win", "The Strategist wins (per seat)", True),
    ("capped", "round cap", True),
)


def figure(frame: pl.DataFrame, column: str, rate: bool) -> tuple[float, float, float, int]:
    values = frame[column].drop_nulls().cast(pl.Float64)
    n = len(values)
    mean = float(values.mean()) if n else float("nan")
    if rate:
        low, high = wilson(float(values.sum()), n)
    else:
        half = 1.96 * float(values.std()) / n ** 0.5
        low, high = mean - half, mean + half
    return mean, low, high, n


def paired(frame: pl.DataFrame, base: pl.DataFrame, column: str) -> tuple[float, float, float, int]:
    """Mean game-by-game difference (frame - base) over the games where both have a value."""
    joined = base.select("game_index", column).join(frame.select("game_index", column), on="game_index",
                                                    suffix="_alt").drop_nulls()
    d = (joined[f"{column}_alt"].cast(pl.Float64) - joined[column].cast(pl.Float64))
    if len(d) < 2:
        return float("nan"), float("nan"), float("nan"), len(d)
    mean, low, high, _ = paired_difference(float(d.sum()), float((d * d).sum()), len(d))
    return mean, low, high, len(d)


def fmt(value: float, low: float, high: float, rate: bool, signed: bool = False) -> str:
    if rate:
        sign = "+" if signed else ""
        return f"{100 * value:{sign}.1f}% ({100 * low:{sign}.1f} to {100 * high:{sign}.1f})"
    sign = "+" if signed else ""
    return f"{value:{sign}.2f} ({low:{sign}.2f} to {high:{sign}.2f})"


# headline findings: (claim, player counts, figure, is a rate, bounds(players) -> (low, high)); a
# finding holds in a cell when the figure's interval lies within the bounds
INF = float("inf")
FINDINGS = (
    ("At 2 players the first player wins more than half the games", (2,), "seat0_win", True,
     lambda p: (0.5, INF)),
    ("At 3 and 4 players the first player's win rate is within 2 points of a fair share", (3, 4), "seat0_win", True,
     lambda p: (1 / p - 0.02, 1 / p + 0.02)),
    ("At 4 players games last 6 to 8 rounds on average", (4,), "rounds", False, lambda p: (6.0, 8.0)),
    ("At every player count fewer than 10% of games end by the pirates' Treasures", (2, 3, 4), "pirate_end", True,
     lambda p: (-INF, 0.10)),
    ("At 3 and 4 players The Thief wins less than a fair share of its seats", (3, 4), "thief_win", True,
     lambda p: (-INF, 1 / p)),
    ("At 4 players The Strategist wins more than a fair quarter of its seats", (4,), "strategist_win", True,
     lambda p: (0.25, INF)),
    ("Every cell finishes its games: under 1% at the round cap", (2, 3, 4), "capped", True, lambda p: (-INF, 0.01)),
)


def main(folder: str) -> None:
    results = simkit.load(folder)
    games = per_game(results)
    keys = sorted({(p, s, r) for p, s, r in games.select("players", "set", "reading").iter_rows()},
                  key=lambda k: (k[0], SETS.index(k[1]) if k[1] in SETS else 99, k[2]))
    cell = {k: games.filter((pl.col("players") == k[0]) & (pl.col("set") == k[1]) & (pl.col("reading") == k[2]))
            for k in keys}
    n_games = {k: len(v) for k, v in cell.items()}
    print(f"# Sea of Plunder: findings across the component sets and Thief readings\n\nFrom `{folder}` "
          f"({len(keys)} cells, {min(n_games.values()):,} games each, the same seeds in every cell). "
          f"Figures are rates or means with 95% intervals.\n")
    for players in sorted({k[0] for k in keys}):
        print(f"## {players} players\n")
        print("| set | Thief reading | " + " | ".join(label for _, label, _ in FIGURES) + " |")
        print("|---|---|" + "---|" * len(FIGURES))
        for k in (k for k in keys if k[0] == players):
            row = [fmt(*figure(cell[k], c, rate)[:3], rate) for c, _, rate in FIGURES]
            print(f"| {k[1]} | {k[2]} | " + " | ".join(row) + " |")
        print()
        base = cell.get((players, BASE_SET, BASE_READING))
        if base is None:
            continue
        print(f"Paired differences from `{BASE_SET}` with `thief_contact={BASE_READING}` "
              f"(percentage points or rounds; same seeds, game by game):\n")
        print("| set (file) | Thief reading | " + " | ".join(label for _, label, _ in FIGURES[:5]) + " |")
        print("|---|---|" + "---|" * 5)
        for k in (k for k in keys if k[0] == players and (k[1], k[2]) != (BASE_SET, BASE_READING)):
            row = [fmt(*paired(cell[k], base, c)[:3], rate, signed=True) for c, _, rate in FIGURES[:5]]
            print(f"| {k[1]} ({FILE_OF.get(k[1], 'base files')}) | {k[2]} | " + " | ".join(row) + " |")
        print()
    print("## Headline findings\n")
    print("A finding *holds* in a cell when its 95% interval lies wholly within the claimed range, *flips* when "
          "it lies wholly outside it, and is *unresolved* when the interval straddles a bound.\n")
    for claim, counts, column, rate, bounds in FINDINGS:
        holds, flips, unresolved = [], [], []
        for k in (k for k in keys if k[0] in counts):
            _, low, high, n = figure(cell[k], column, rate)
            if n == 0:
                continue
            lo, hi = bounds(k[0])
            yes = lo < low and high < hi
            no = high < lo or low > hi
            (holds if yes else flips if no else unresolved).append(k)
        total = len(holds) + len(flips) + len(unresolved)
        if len(holds) == total:
            verdict = f"**holds under every set and reading** ({total} cells)"
        elif flips:
            verdict = ("**flips** in " + ", ".join(f"{s}/{r} at {p}p" for p, s, r in flips)
                       + f"; holds in {len(holds)} of {total} cells")
        else:
            verdict = (f"holds in {len(holds)} of {total} cells; unresolved in "
                       + ", ".join(f"{s}/{r} at {p}p" for p, s, r in unresolved))
        if flips and unresolved:
            verdict += "; unresolved in " + ", ".join(f"{s}/{r} at {p}p" for p, s, r in unresolved)
        print(f"- {claim}: {verdict}.")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: findings.py REPORT_FOLDER (a sweep of experiments/sea_of_plunder/assumptions.toml)")
    main(sys.argv[1])
