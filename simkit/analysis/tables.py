"""Exact, lazy aggregates over a sweep's parquet tables.

Every query here is a polars group-by run on the streaming engine: only per-cell
aggregates are collected, so memory stays flat however many games a sweep holds.

Sums in a fixed order: polars adds floats in whatever order its threads and the file's
row groups give, so a float sum could differ in the last digit between two sweeps that
played the same games in different chunks. Every sum of wins is of integers (a shared win
1/k is counted in units of 1/WIN_UNITS, exact for k <= 10), so summary.json is the same to
the bit whatever the chunking, --jobs or backend.
"""

from __future__ import annotations

import polars as pl

INCOMPLETE = "round_cap"  # end_reason of a game stopped by the round cap
WIN_UNITS = 2520  # lcm(1..10)


def collect(query: pl.LazyFrame) -> pl.DataFrame:
    """A small aggregate, computed on the streaming engine so the scanned table never sits in memory."""
    return query.collect(engine="streaming")


def win_units(column: str = "win") -> pl.Expr:
    """A seat's win (1, 1/k for a k-way shared win, or 0) in integer units of 1/WIN_UNITS."""
    return (pl.col(column).cast(pl.Float64) * WIN_UNITS).round().cast(pl.Int64)


def exact_wins(column: str = "win") -> pl.Expr:
    """The summed wins of a group, exactly (integer units, divided once at the end)."""
    return (win_units(column).sum() / WIN_UNITS).alias("wins")


def exact_mean(metric: str) -> pl.Expr:
    return (pl.col(metric).cast(pl.Int64).sum() / pl.len()).alias(f"mean {metric}")


def decided_games(games: pl.LazyFrame) -> pl.LazyFrame:
    """(cell, game_index, decided, shared) per game: decided when some seat won or shared the
    win (a round-capped game is nobody's), so the decided games are those the seats'
    wins add up to; shared when two or more seats did."""
    return games.select("cell", "game_index", (pl.col("n_winners") > 0).alias("decided"),
                        (pl.col("n_winners") > 1).alias("shared"))


def by_cell(frame: pl.DataFrame) -> dict[str, list[dict]]:
    """Rows of an aggregate grouped by their `cell`, each row without the cell."""
    grouped: dict[str, list[dict]] = {}
    for row in frame.iter_rows(named=True):
        grouped.setdefault(row.pop("cell"), []).append(row)
    return grouped


def length_counts(games: pl.LazyFrame, column: str = "rounds") -> pl.DataFrame:
    """Games per (cell, value) of a game-length column: the length distribution, small
    (one row per distinct length) whatever the number of games. The report plots it."""
    return collect(games.group_by("cell", column).len("games").sort("cell", column))


def length_summary(counts: pl.DataFrame, column: str) -> dict[str, dict]:
    """Per cell: mean, median, p90, min and max of a game-length column, from `length_counts`.

    Median and p90 follow polars' `quantile(q, "lower")`: the value at sorted position
    ⌊q·(n − 1)⌋, so both are lengths that actually occurred. They are read off the
    cumulative counts rather than by polars' quantile on the games, which would hold every
    game's length in memory.
    """
    value, games = pl.col(column), pl.col("games")

    def lower_quantile(q: float) -> pl.Expr:
        position = ((pl.col("played") - 1).cast(pl.Float64) * q).floor()
        return value.filter(pl.col("seen") > position).min()

    # seen: games at or below this length (counts come sorted by length within a cell)
    ranked = counts.with_columns(seen=games.cum_sum().over("cell"), played=games.sum().over("cell"))
    rows = ranked.group_by("cell").agg(
        ((value * games).sum() / games.sum()).alias("mean"),
        lower_quantile(0.5).alias("median"),
        lower_quantile(0.9).alias("p90"),
        value.min().alias("min"),
        value.max().alias("max"),
    )
    return {row.pop("cell"): row for row in rows.iter_rows(named=True)}
