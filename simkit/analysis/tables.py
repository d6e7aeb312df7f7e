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

import numpy as np
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


# -- what the summary reads, checked ---------------------------------------------------------

GAME_COUNTS = ("game_index", "players", "rounds", "turns", "n_winners")  # whole numbers >= 0 in every game row
SEAT_VALUES = ("seat", "rank", "score", "win")  # never null in a seat row
MAX_SEAT = 62  # seats are summed as bits of an Int64 (2**seat): once each, 0 to players - 1


def _seat_bit(column: pl.Expr) -> pl.Expr:
    return pl.lit(2, dtype=pl.Int64).pow(column.cast(pl.Int64).clip(0, MAX_SEAT))


def _first_issue(frame: pl.LazyFrame, issues: dict[str, pl.Expr]) -> tuple[str, str, int | None] | None:
    """(issue, cell, lowest game_index) of the first of `issues` some row of `frame` has, or None.
    One pass that only counts; the rows are looked for only when some issue is there."""
    counts = collect(frame.select(*[flag.fill_null(False).sum().alias(str(i)) for i, flag in enumerate(issues.values())]))
    if not any(counts.row(0)):
        return None
    first = pl.when(False).then(None)
    for number, flag in enumerate(issues.values()):
        first = first.when(flag.fill_null(False)).then(pl.lit(number))
    found = collect(frame.select("cell", "game_index", first.alias("issue")).drop_nulls("issue")
                    .group_by("cell", "issue").agg(pl.col("game_index").min()).sort("issue", "cell").head(1))
    if not found.height:
        return None
    cell, number, game = found.row(0)
    return list(issues)[number], cell, game


def _seat_issues(games: pl.LazyFrame, seats: pl.LazyFrame) -> tuple[str, str, int | None] | None:
    """The first issue of the games' seat rows (see `validate`), or None. Each row alone first; then
    per game, off each game's run of rows (numpy's reduceat) when the tables are in cell and game
    order, as a sweep writes them (results.merge), else by a group-by over the games."""
    players, n_winners = pl.col("players"), pl.col("n_winners")
    rowwise = {
        "a null seat, rank, score or win": pl.any_horizontal(*[pl.col(c).is_null() for c in SEAT_VALUES]),
        "a win outside 0..1": (pl.col("win") < 0) | (pl.col("win") > 1),
        "a negative seat": pl.col("seat") < 0,
    }
    found = _first_issue(seats, rowwise)
    if found is not None:
        return found
    per_seat = collect(seats.select(pl.col("cell").rle_id().alias("run"), "game_index",
                                    _seat_bit(pl.col("seat")).alias("bits"), win_units().alias("units"), (pl.col("win") > 0).cast(pl.Int64).alias("won")))
    per_game = collect(games.select("cell", pl.col("cell").rle_id().alias("run"), "game_index", "players",
                                    "n_winners"))
    run, game = per_seat.get_column("run").to_numpy(), per_seat.get_column("game_index").to_numpy()
    starts = np.flatnonzero(np.r_[True, (run[1:] != run[:-1]) | (game[1:] != game[:-1])]) if len(run) else \
        np.zeros(0, dtype=np.int64)
    ordered = len(starts) == per_game.height and len(run) > 0 \
        and np.array_equal(game[starts], per_game.get_column("game_index").to_numpy()) \
        and np.array_equal(run[starts], per_game.get_column("run").to_numpy())
    if ordered:
        sums = {c: np.add.reduceat(per_seat.get_column(c).to_numpy(), starts) for c in ("bits", "units", "won")}
        seated, winners = per_game.get_column("players").to_numpy(), per_game.get_column("n_winners").to_numpy()
        rows = np.diff(np.r_[starts, len(run)])
        flags = {
            "a game without one seat row per player": rows != seated,
            "a seat out of range, or one seat twice": sums["bits"] != 2 ** np.clip(seated, 0, MAX_SEAT) - 1,
            "winning seats other than the game's n_winners": sums["won"] != winners,
            "seat wins that do not add up to one game": np.abs(sums["units"] - WIN_UNITS * (winners > 0)) > rows,
        }
        for what, flag in flags.items():
            bad = np.flatnonzero(flag)
            if len(bad):
                return what, per_game.get_column("cell")[int(bad[0])], int(per_game.get_column("game_index")[int(bad[0])])
        return None
    grouped = seats.group_by("cell", "game_index").agg(
        pl.len().alias("seat_rows"), _seat_bit(pl.col("seat")).sum().alias("seat_bits"),
        win_units().sum().alias("win_units"), (pl.col("win") > 0).sum().alias("seat_winners"))
    joined = games.select("cell", "game_index", "players", "n_winners").join(
        grouped, on=["cell", "game_index"], how="full", coalesce=True)
    rows = pl.col("seat_rows")
    return _first_issue(joined, {
        "seat rows of a game games.parquet lacks": players.is_null(),
        "a game without seat rows": rows.is_null() & players.is_not_null(),
        "a game without one seat row per player": rows != players,
        "a seat out of range, or one seat twice": pl.col("seat_bits") != _seat_bit(players) - 1,
        "winning seats other than the game's n_winners": pl.col("seat_winners") != n_winners,
        # a decided game's wins add up to 1 (each share rounds to within half a unit), a round-capped one's to 0
        "seat wins that do not add up to one game": (pl.col("win_units") - WIN_UNITS * (n_winners > 0)).abs() > rows,
    })


def validate(folder, games: pl.LazyFrame, seats: pl.LazyFrame, cells: pl.DataFrame) -> None:
    """The tables a summary is built from hold one sweep's games whole (docs/results.md), or an
    InputError says what is wrong, in which table, cell and game: a null or negative count, a
    winner out of range, players other than the cell's, a game whose seats are not its
    `players` rows (seat 0 to players - 1, once each), seat wins that do not add up to the
    game's (a decided game's to 1, a round-capped one's to 0), a cell whose number of games
    differs from cells.parquet's."""
    from pathlib import Path

    from simkit.core.errors import InputError

    folder = Path(folder)
    spec = folder / "spec.toml"
    fix = ("the table was edited, or mixed with another sweep's; rerun the sweep into a new folder"
           + (f": simkit sweep {spec} --out NEW_FOLDER" if spec.exists() else ""))
    twice = cells.filter(pl.col("cell").is_duplicated())["cell"]
    if len(twice):  # each of its games would be counted once per row (a summary with the cell twice)
        raise InputError(f"{folder / 'cells.parquet'} is not whole: cell {twice[0]} is listed "
                         f"{int((cells['cell'] == twice[0]).sum())} times; {fix}")
    players, winner, n_winners = pl.col("players"), pl.col("winner"), pl.col("n_winners")
    listed = pl.LazyFrame({"cell": cells["cell"].cast(pl.Utf8), "listed_players": cells["players"].cast(pl.Int64)})
    found = _first_issue(games.join(listed, on="cell", how="left"), {
        **{f"{c} is null": pl.col(c).is_null() for c in (*GAME_COUNTS, "winner", "end_reason")},
        **{f"{c} is negative": pl.col(c) < 0 for c in GAME_COUNTS},
        "a cell cells.parquet does not list": pl.col("listed_players").is_null(),
        "players other than the cell's (cells.parquet)": players != pl.col("listed_players"),
        "n_winners above players": n_winners > players,
        "winner is not a seat": (winner < -1) | (winner >= players),
        "winner and n_winners disagree": (winner >= 0) != (n_winners == 1),
    })
    table = "games.parquet"
    if found is None:
        played = dict(zip(cells["cell"].to_list(), cells["games"].to_list()))
        counts = dict(collect(games.group_by("cell").len("games")).iter_rows())
        for cell, n in played.items():
            if (n or 0) != counts.get(cell, 0):
                raise InputError(f"{folder / table} holds {counts.get(cell, 0):,} games of cell {cell}, but "
                                 f"cells.parquet says it played {n or 0:,}; {fix}")
        found, table = _seat_issues(games, seats), "seats.parquet"
    if found is not None:
        what, cell, game = found
        where = "" if game is None else f" (game {game})"
        raise InputError(f"{folder / table} is not whole: {what} in cell {cell}{where}; {fix}")
