"""What the invented data decides in Sea of Troubles: the figures of every cell of
experiments/sea_of_troubles/assumptions.toml, and each cell's paired difference from the
standard set of its player count and variant (every cell plays the same seeds, so the
differences are game-by-game pairs).

    .venv/bin/simkit sweep experiments/sea_of_troubles/assumptions.toml --jobs 2 --out reports/sot-assumptions
    .venv/bin/python experiments/sea_of_troubles/findings.py reports/sot-assumptions

Prints markdown, one table per player count: seat 0's edge (its win rate less a fair 1/n),
the mean rounds, the share of games ended by the quests and by the pillaged treasure deck,
the mean final Infamy; then the paired differences in seat 0's win rate, rounds, the quest
ending and the mean final Infamy, with 95% intervals.
"""

from __future__ import annotations

import json
import sys

import polars as pl

import simkit
from simkit.analysis.intervals import paired_difference, wilson

ENDINGS = ("quests_done", "treasures_pillaged")


def per_game(results) -> pl.DataFrame:
    seat0 = results.seats.filter(pl.col("seat") == 0).select("cell", "game_index", pl.col("win").alias("seat0_win"))
    infamy = results.seats.group_by("cell", "game_index").agg(pl.col("infamy").mean().alias("infamy"))
    games = results.games.select("cell", "game_index", "rounds", *[
        (pl.col("end_reason") == e).cast(pl.Float64).alias(e) for e in ENDINGS])
    return games.join(seat0, on=["cell", "game_index"]).join(infamy, on=["cell", "game_index"])


def cell_keys(results) -> dict:
    """cell -> (players, variant, the overrides as text, the set)."""
    out = {}
    for row in results.cells.iter_rows(named=True):
        over = json.loads(row["overrides"])
        text = ", ".join(f"{k}={v}" for k, v in sorted(over.items()) if k != "components")
        out[row["cell"]] = (row["players"], row["variant"], text, over.get("components", "standard"))
    return out


def paired(x: pl.DataFrame, base: pl.DataFrame, column: str) -> tuple[float, float, float]:
    joined = base.select("game_index", column).join(x.select("game_index", column), on="game_index", suffix="_alt")
    d = joined[f"{column}_alt"].cast(pl.Float64) - joined[column].cast(pl.Float64)
    mean, low, high, _ = paired_difference(float(d.sum()), float((d * d).sum()), len(d))
    return mean, low, high


def main(folder: str) -> None:
    results = simkit.load(folder)
    games = per_game(results)
    keys = cell_keys(results)
    print(f"# Sea of Troubles: what the invented data decides\n\nFrom `{folder}`; 95% intervals.\n")
    for players in sorted({k[0] for k in keys.values()}):
        print(f"## {players} players\n")
        print("| variant | set, reading | seat 0's edge | rounds | ended by the quests | by the pillaged deck "
              "| final Infamy | paired: seat 0 | rounds | quest endings | final Infamy |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        mine = sorted((c for c, k in keys.items() if k[0] == players), key=lambda c: (keys[c][1], keys[c][2], keys[c][3]))
        for c in mine:
            _, variant, text, cset = keys[c]
            x = games.filter(pl.col("cell") == c)
            n = len(x)
            wins = float(x["seat0_win"].sum())
            low, high = wilson(wins, n)
            fair = 1 / players
            row = [variant, ", ".join(t for t in (cset, text) if t and not (t == "standard" and text)),
                   f"{100 * (wins / n - fair):+.1f} ({100 * (low - fair):+.1f} to {100 * (high - fair):+.1f})",
                   f"{x['rounds'].mean():.2f}", f"{100 * x['quests_done'].mean():.1f}%",
                   f"{100 * x['treasures_pillaged'].mean():.1f}%", f"{x['infamy'].mean():.2f}"]
            base = next((b for b, k in keys.items() if k[:2] == (players, variant) and not k[2]
                         and k[3] == "standard"), None)
            if base is None or base == c:
                row += ["-"] * 4
            else:
                y = games.filter(pl.col("cell") == base)
                for column, scale, fmt in (("seat0_win", 100, "+.1f"), ("rounds", 1, "+.2f"),
                                           ("quests_done", 100, "+.1f"), ("infamy", 1, "+.2f")):
                    m, lo, hi = paired(x, y, column)
                    row.append(f"{scale * m:{fmt}} ({scale * lo:{fmt}} to {scale * hi:{fmt}})")
            print("| " + " | ".join(row) + " |")
        print()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: findings.py REPORT_FOLDER (a sweep of experiments/sea_of_troubles/assumptions.toml)")
    main(sys.argv[1])
