"""Game arcs: how a game unfolds, not only who wins it (docs/results.md).

From seats.parquet alone, every sweep gets per cell:

- winning margin: the top score minus the second-highest score, over decided games (a
  game that some seat won or shared; a round-capped game has no winner). A shared win
  between equal scores has margin 0.
- rank distribution by seat: the share of games each seat finished at each rank (the
  engine's RANK column, tied seats share a rank), over all games played.

With `--arcs` the sweep also stores each game's score after every round (traces.parquet,
simkit.core.traces; the first TRACE_ROUNDS rounds). From it, per cell, first the metrics with a
standard definition (definitions and sources in docs/results.md):

- lead-change rate (Ludii's LeadChange): per game, the share of traced rounds after which
  the set of leaders (every seat holding the top score, ties included) differs from the set
  after the round before (before round 1 every seat leads); averaged over games. A rate
  per round, so it does not grow with the length of the game.
- drama (Browne's, as Ludii's Drama measures it): per decided game, the eventual winner's
  deficit after each traced round, the top score minus the winner's (the winners' mean for
  a shared win; 0 when the winner leads), divided by the game's winning final score so that
  games of every scale compare, and averaged over the rounds; beside it the share of rounds
  the winner trailed and the mean deficit over those rounds only (how far behind it was
  when it was behind).
- P(win | leading after t, at least k rounds left): over decided games that lasted at least
  t + k rounds (k = ROUNDS_LEFT) and had a sole leader after round t, the leader's share of
  wins. Requiring k more rounds keeps the last rounds of short games, whose leader has all
  but won, from inflating the late rounds.

and the simkit-specific figures beside them:

- lead changes per game: how often the sole leader became a different seat, along the
  traced rounds in order; a round with a tied lead neither ends nor starts a lead. It
  counts changes per game, so it grows with the game's length.
- P(win | leading after round t): as above without the rounds-left condition (every
  decided game that lasted t rounds).
- comeback share: over games with one winner and at least 2 rounds, the share whose
  winner was not among the highest scores after the midpoint round (rounds // 2): whether,
  not how far, the winner trailed.
- score arcs: mean score by round and seat, over the games still running at that round.

A game whose engine writes no trace gives no trace rows; a cell without any is reported as
"no arcs", never as zeros. Every figure here is a lazy polars group-by on the streaming
engine, collecting only per-cell aggregates, so `simkit report` rebuilds them
from the folder. Every sum is of integers (wins in units of 1/WIN_UNITS, per-game ratios in
fixed point), so the figures are the same to the bit however the rows arrive.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl

from simkit.analysis.intervals import Z95, wilson
from simkit.analysis.tables import INCOMPLETE, by_cell, collect, exact_wins, length_summary
from simkit.core.traces import NO_LEADER, TRACE_ROUNDS, TRACES

ROUNDS_LEFT = 3  # k of P(win | leading after t, at least k rounds left)

# -- figures (lazy frames in, small frames out) ----------------------------------------------


def _is_decided() -> pl.Expr:
    """A game some seat won or shared."""
    return (pl.col("n_winners") > 0) & (pl.col("end_reason") != INCOMPLETE)


def _decided(games: pl.LazyFrame) -> pl.LazyFrame:
    """(cell, game_index, winner, rounds) of decided games (_is_decided)."""
    return games.filter(_is_decided()).select("cell", "game_index", "winner", "rounds")


def margins(games: pl.LazyFrame, seats: pl.LazyFrame) -> pl.DataFrame:
    """Games per (cell, margin): the top score minus the second-highest (equal to it when the top
    is shared), over decided games.

    A results folder holds its games and seats in cell and game order, a game's seats on
    consecutive rows (results.merge). The top two scores are then read off each game's run of
    rows in one pass (numpy's reduceat), about eight times quicker for a million games than a
    group-by over the games; frames in another order take the group-by."""
    keys = collect(seats.select(pl.col("cell").rle_id().alias("run"), "game_index", "score"))
    run, game, score = (keys.get_column(c).to_numpy() for c in ("run", "game_index", "score"))
    starts = np.flatnonzero(np.r_[True, (run[1:] != run[:-1]) | (game[1:] != game[:-1])])
    decided = collect(games.select("cell", pl.col("cell").rle_id().alias("run"), "game_index",
                                   _is_decided().alias("decided")))
    if not len(score) or len(starts) != decided.height \
            or not np.array_equal(game[starts], decided.get_column("game_index").to_numpy()) \
            or not np.array_equal(run[starts], decided.get_column("run").to_numpy()):
        return _margins_grouped(games, seats)
    sizes = np.diff(np.r_[starts, len(score)])
    top = np.maximum.reduceat(score, starts)
    is_top = score == np.repeat(top, sizes)
    below = np.maximum.reduceat(np.where(is_top, np.iinfo(np.int64).min, score), starts)
    second = np.where(np.add.reduceat(is_top, starts) >= 2, top, below)
    mask = decided.get_column("decided").to_numpy() & (sizes >= 2)  # a lone seat has no second score
    return (decided.select("cell").filter(pl.Series(mask))
            .with_columns(pl.Series("margin", (top - second)[mask], dtype=pl.Int64))
            .group_by("cell", "margin").len("games").sort("cell", "margin"))


def _margins_grouped(games: pl.LazyFrame, seats: pl.LazyFrame) -> pl.DataFrame:
    """margins by a group-by over (cell, game_index): for frames in any order."""
    top_two = seats.group_by("cell", "game_index").agg(
        pl.col("score").max().alias("top"),
        pl.col("score").sort(descending=True).get(1).alias("second"))
    return collect(top_two.join(_decided(games).select("cell", "game_index"), on=["cell", "game_index"])
                    .group_by("cell", (pl.col("top") - pl.col("second")).alias("margin")).len("games")
                    .sort("cell", "margin"))


def ranks(seats: pl.LazyFrame) -> pl.DataFrame:
    """Games per (cell, seat, rank)."""
    return collect(seats.group_by("cell", "seat", "rank").len("games").sort("cell", "seat", "rank"))


def leaders(traces: pl.LazyFrame) -> pl.LazyFrame:
    """(cell, game_index, round, top, leader): the highest score after each traced round, and
    the seat holding it alone (null when several seats share it); one row per game and round."""
    return traces.filter(pl.col("seat") == 0).select(
        "cell", "game_index", "round", "top",
        pl.when(pl.col("leader") != NO_LEADER).then(pl.col("leader")).otherwise(None).alias("leader"))


def lead_changes(leaders_: pl.LazyFrame) -> pl.LazyFrame:
    """(cell, game_index, lead_changes) per traced game: how often the sole leader became a
    different seat, skipping rounds of a shared lead."""
    sole = pl.col("leader").sort_by("round").drop_nulls()
    return leaders_.group_by("cell", "game_index").agg(
        (sole != sole.shift(1)).sum().fill_null(0).cast(pl.Int64).alias("lead_changes"))


def win_when_leading(leaders_: pl.LazyFrame, games: pl.LazyFrame, seats: pl.LazyFrame) -> pl.DataFrame:
    """Per (cell, round): decided games with a sole leader after that round, and the leader's wins."""
    won = seats.select("cell", "game_index", pl.col("seat").alias("leader"), "win")
    return collect(leaders_.drop_nulls("leader")
                    .join(_decided(games).select("cell", "game_index"), on=["cell", "game_index"])
                    .join(won, on=["cell", "game_index", "leader"])
                    .group_by("cell", "round").agg(pl.len().alias("games"), exact_wins())
                    .sort("cell", "round"))


def win_when_leading_ahead(leaders_: pl.LazyFrame, games: pl.LazyFrame, seats: pl.LazyFrame,
                           rounds_left: int = ROUNDS_LEFT) -> pl.DataFrame:
    """Per (cell, round t): decided games that lasted at least t + rounds_left rounds and had a
    sole leader after t, and the leader's wins."""
    won = seats.select("cell", "game_index", pl.col("seat").alias("leader"), "win")
    return collect(leaders_.drop_nulls("leader")
                   .join(_decided(games).select("cell", "game_index", "rounds"), on=["cell", "game_index"])
                   .filter(pl.col("rounds") - pl.col("round") >= rounds_left)
                   .join(won, on=["cell", "game_index", "leader"])
                   .group_by("cell", "round").agg(pl.len().alias("games"), exact_wins())
                   .sort("cell", "round"))


def _seat_bit() -> pl.Expr:
    return pl.lit(2, dtype=pl.Int64).pow(pl.col("seat").cast(pl.Int64))


def lead_change_rates(traces: pl.LazyFrame) -> pl.LazyFrame:
    """(cell, game_index, changes, rounds, rate) per traced game, Ludii's LeadChange by round:
    the rounds after which the set of leaders (seats at the top score, ties included) differs
    from the set after the round before, every seat leading before round 1; rate = changes /
    traced rounds."""
    leaders_ = traces.group_by("cell", "game_index", "round").agg(
        _seat_bit().filter(pl.col("score") == pl.col("top")).sum().alias("leaders"),
        _seat_bit().sum().alias("everyone"))
    ordered = pl.col("leaders").sort_by("round")
    return leaders_.group_by("cell", "game_index").agg(
        (ordered != ordered.shift(1, fill_value=pl.col("everyone").first())).sum().cast(pl.Int64).alias("changes"),
        pl.len().cast(pl.Int64).alias("rounds")).with_columns(
        (pl.col("changes") / pl.col("rounds")).alias("rate"))


def drama(traces: pl.LazyFrame, seats: pl.LazyFrame) -> pl.LazyFrame:
    """(cell, game_index, drama, trailing_rounds, rounds, trailing_deficit) per decided traced
    game (Browne's drama as Ludii measures it): after each traced round the top score minus
    the winners' mean score, over the game's winning final score (at least 1); `drama` is its
    mean over the traced rounds, `trailing_deficit` its mean over the rounds the winner
    trailed (null when it never did). Every sum is of integers (k winners: k·top − their
    scores), so the figures do not depend on the order the rows arrive in."""
    winners = seats.filter(pl.col("win") > 0).select("cell", "game_index", "seat")
    scale = seats.group_by("cell", "game_index").agg(
        pl.max_horizontal(pl.col("score").max(), 1).cast(pl.Int64).alias("scale"),
        (pl.col("win") > 0).sum().cast(pl.Int64).alias("k"))
    deficits = (traces.join(winners, on=["cell", "game_index", "seat"], how="inner")
                .group_by("cell", "game_index", "round")
                .agg((pl.len().cast(pl.Int64) * pl.col("top").first() - pl.col("score").sum()).alias("deficit")))
    behind = pl.col("deficit") > 0
    per_game = deficits.group_by("cell", "game_index").agg(
        pl.col("deficit").sum().alias("total"), behind.sum().cast(pl.Int64).alias("trailing_rounds"),
        pl.len().cast(pl.Int64).alias("rounds"), pl.col("deficit").filter(behind).sum().alias("trailing_total"))
    unit = pl.col("k") * pl.col("scale")  # a deficit of the whole winning score, in k·score units
    return per_game.join(scale, on=["cell", "game_index"], how="inner").select(
        "cell", "game_index", "trailing_rounds", "rounds",
        (pl.col("total") / (unit * pl.col("rounds"))).alias("drama"),
        pl.when(pl.col("trailing_rounds") > 0)
        .then(pl.col("trailing_total") / (unit * pl.col("trailing_rounds"))).otherwise(None).alias("trailing_deficit"))


FIXED = 2 ** 32  # per-game values are summed in fixed point: exact integer sums, whatever the row order


def _mean_of(frame: pl.LazyFrame, column: str) -> pl.DataFrame:
    """Per cell: games with a value of `column`, its sum and sum of squares (for a mean's
    interval), summed as integers in units of 1/FIXED so the result is the same to the bit
    however the rows arrive (the per-game values are exact ratios of integers)."""
    value = pl.col(column).cast(pl.Float64)
    return collect(frame.drop_nulls(column).group_by("cell").agg(
        pl.len().alias("games"), (value * FIXED).round().cast(pl.Int64).sum().alias("sum"),
        (value * value * FIXED).round().cast(pl.Int64).sum().alias("squares"))
        .with_columns(pl.col("sum") / FIXED, pl.col("squares") / FIXED))


def _mean_from_sums(row: dict | None) -> dict:
    """{games, mean, ci_low, ci_high} from `_mean_of`'s row (normal 95% interval)."""
    if not row or not row["games"]:
        return {"games": 0, "mean": None, "ci_low": None, "ci_high": None}
    n, total, squares = row["games"], row["sum"], row["squares"]
    mean = total / n
    sd = math.sqrt(max(squares - total * mean, 0.0) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return {"games": n, "mean": mean, "ci_low": mean - half, "ci_high": mean + half}


def comebacks(traces: pl.LazyFrame, games: pl.LazyFrame) -> pl.DataFrame:
    """Per cell: games with one winner and a traced midpoint round, and how many of them the
    winner won from behind (below the top score after round rounds // 2)."""
    decided = _decided(games).filter((pl.col("winner") >= 0) & (pl.col("rounds") >= 2)).select(
        "cell", "game_index", pl.col("winner").alias("seat"), (pl.col("rounds") // 2).alias("round"))
    at_midpoint = decided.join(traces.select("cell", "game_index", "seat", "round", "score", "top"),
                               on=["cell", "game_index", "seat", "round"])
    return collect(at_midpoint.group_by("cell").agg(
        pl.len().alias("games"), (pl.col("score") < pl.col("top")).sum().alias("comebacks")))


def score_by_round(traces: pl.LazyFrame) -> pl.DataFrame:
    """Per (cell, round, seat): games still running at that round and their mean score."""
    return collect(traces.group_by("cell", "round", "seat").agg(
        pl.len().alias("games"), (pl.col("score").cast(pl.Int64).sum() / pl.len()).alias("mean_score"))
        .sort("cell", "round", "seat"))


# -- summary fields ------------------------------------------------------------------------


def _mean_interval(rows: list[dict], value: str) -> dict:
    """Mean of a count distribution [{value, games}] with its normal 95% interval."""
    n = sum(r["games"] for r in rows)
    if n == 0:
        return {"mean": None, "ci_low": None, "ci_high": None}
    total = sum(r[value] * r["games"] for r in rows)
    squares = sum(r[value] * r[value] * r["games"] for r in rows)
    mean = total / n
    sd = math.sqrt(max(squares - total * mean, 0.0) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return {"mean": mean, "ci_low": mean - half, "ci_high": mean + half}


def _share(part: float, n: int) -> dict:
    low, high = wilson(part, n)
    return {"games": n, "share": part / n if n else None, "ci_low": low, "ci_high": high}


def cell_fields(folder: Path) -> dict[str, dict]:
    """Per cell: the summary fields of this module (documented in `add_to_summary`)."""
    folder = Path(folder)
    games = pl.scan_parquet(folder / "games.parquet")
    seats = pl.scan_parquet(folder / "seats.parquet")
    out: dict[str, dict] = {}
    margin_counts = margins(games, seats)
    margin_stats = length_summary(margin_counts, "margin") if margin_counts.height else {}
    for cell, rows in by_cell(margin_counts).items():
        out.setdefault(cell, {})["margin"] = {
            "games": sum(r["games"] for r in rows), **_mean_interval(rows, "margin"),
            **{k: margin_stats[cell][k] for k in ("median", "p90", "min", "max")},
            "distribution": rows}
    for cell, rows in by_cell(ranks(seats)).items():
        by_seat: dict[int, list[dict]] = {}
        for r in rows:
            by_seat.setdefault(r["seat"], []).append(r)
        out.setdefault(cell, {})["ranks"] = [
            {"seat": seat, "shares": [{"rank": r["rank"], "games": r["games"],
                                       "share": r["games"] / sum(x["games"] for x in seat_rows)} for r in seat_rows]}
            for seat, seat_rows in sorted(by_seat.items())]
    path = folder / f"{TRACES}.parquet"
    if not path.exists():
        return out
    traces = pl.scan_parquet(path)
    lead = leaders(traces)
    changes = by_cell(collect(lead_changes(lead).group_by("cell", "lead_changes").len("games")
                                .sort("cell", "lead_changes")))
    leading = by_cell(win_when_leading(lead, games, seats))
    leading_ahead = by_cell(win_when_leading_ahead(lead, games, seats))
    comeback = {r["cell"]: r for r in comebacks(traces, games).iter_rows(named=True)}
    arcs_rows = by_cell(score_by_round(traces))
    rates = lead_change_rates(traces)
    rate = {r["cell"]: r for r in _mean_of(rates, "rate").iter_rows(named=True)}
    dramas = drama(traces, seats).with_columns(
        (pl.col("trailing_rounds") / pl.col("rounds")).alias("trailing_share"))
    drama_of = {column: {r["cell"]: r for r in _mean_of(dramas, column).iter_rows(named=True)}
                for column in ("drama", "trailing_share", "trailing_deficit")}

    def leading_rows(rows: list[dict]) -> list[dict]:
        return [{"round": r["round"], "games": r["games"], "wins": r["wins"], "rate": r["wins"] / r["games"],
                 **dict(zip(("ci_low", "ci_high"), wilson(r["wins"], r["games"])))} for r in rows]

    for cell in collect(games.select("cell").unique()).get_column("cell").to_list():
        fields = out.setdefault(cell, {})
        traced = sum(r["games"] for r in changes.get(cell, []))
        arc: dict = {"trace_rounds": TRACE_ROUNDS, "traced_games": traced}
        if traced:
            back = comeback.get(cell, {"games": 0, "comebacks": 0})
            arc |= {
                "lead_change_rate": _mean_from_sums(rate.get(cell)),
                "drama": {**_mean_from_sums(drama_of["drama"].get(cell)),
                          "trailing_share": _mean_from_sums(drama_of["trailing_share"].get(cell)),
                          "trailing_deficit": _mean_from_sums(drama_of["trailing_deficit"].get(cell))},
                "win_when_leading_ahead": {"rounds_left": ROUNDS_LEFT,
                                           "rounds": leading_rows(leading_ahead.get(cell, []))},
                "lead_changes": {**_mean_interval(changes[cell], "lead_changes"), "distribution": changes[cell]},
                "win_when_leading": leading_rows(leading.get(cell, [])),
                "comeback": {"comebacks": back["comebacks"], **_share(back["comebacks"], back["games"])},
                "score_by_round": arcs_rows.get(cell, []),
            }
        fields["arcs"] = arc
    return out


def add_to_summary(folder: Path, cells: list[dict]) -> None:
    """Add to each cell of summary.json (in place):

    - `margin`: {games (decided), mean, ci_low, ci_high, median, p90, min, max,
      distribution: [{margin, games}]}: top score minus second-highest, decided games.
    - `ranks`: [{seat, shares: [{rank, games, share}]}] over all games.
    - `arcs` (only when the sweep traced arcs): {trace_rounds, traced_games, and when
      traced_games > 0: the standard metrics lead_change_rate {games, mean, ci_low, ci_high},
      drama {games, mean, ci_low, ci_high, trailing_share {...}, trailing_deficit {...}},
      win_when_leading_ahead {rounds_left, rounds: [{round, games, wins, rate, ci_low,
      ci_high}]}; and simkit's own lead_changes {mean, ci_low, ci_high, distribution:
      [{lead_changes, games}]}, win_when_leading [{round, games, wins, rate, ci_low,
      ci_high}], comeback {comebacks, games, share, ci_low, ci_high}, score_by_round
      [{round, seat, games, mean_score}]}. traced_games = 0: the game's engine wrote no
      trace (no arcs). The module docstring and docs/results.md define each figure.
    """
    fields = cell_fields(folder)
    for cell in cells:
        cell.update(fields.get(cell["cell"], {}))
